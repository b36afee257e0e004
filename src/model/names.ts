/**
 * The one way a name from the spec reaches generated code or the disk. A
 * spec is untrusted input: a path key, an operationId or a title may hold
 * quotes, comment ends, line breaks, separators, any script or no word at
 * all. Each role has one function:
 *
 * - `identifierName`: a valid, non-reserved TypeScript identifier (Unicode
 *   letters allowed, as TypeScript allows them);
 * - `fileStem`: a portable file name without extension: lower-case ASCII
 *   letters, digits and `-`, bounded, never a Windows device name;
 * - `stringLiteral` and `commentText`: spec text inside a literal or a
 *   comment, unable to end it;
 *
 * and a `NameRegistry` makes the names of one namespace distinct
 * (case-insensitively for files), deterministically, in the order claimed.
 */
import { createRequire } from 'node:module';
import { sha256 } from '../hash.js';
import { capitalize, words } from '../openapi/names.js';

/** Words TypeScript does not accept as a binding name, and names a strict-mode module cannot bind. */
const RESERVED_WORDS = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
    'implements import in instanceof interface let new null package private protected public return static super switch this ' +
    'throw true try typeof var void while with yield await arguments eval undefined'
  ).split(' '),
);

/** What a generated module refers to by name: a spec-derived binding must not shadow it. */
const GLOBALS = new Set(
  'globalThis console process Buffer JSON Math Object Array Promise Error Date Number String Symbol Map Set RegExp URL setTimeout clearTimeout setInterval clearInterval queueMicrotask structuredClone crypto performance require module exports'.split(
    ' ',
  ),
);

/**
 * A name the TypeScript compiler reads as an identifier. Its Unicode tables
 * can be older than the regular expressions' here, so it is the judge.
 */
export function isIdentifier(name: string): boolean {
  return scansAsIdentifier(name) && !RESERVED_WORDS.has(name);
}

// TypeScript takes about 0.4 s to load: only a run that names things pays it (`check` by fingerprints does not).
let typescript: typeof import('typescript') | undefined;
const compiler = () =>
  (typescript ??= createRequire(import.meta.url)('typescript') as typeof import('typescript'));

function scansAsIdentifier(name: string): boolean {
  // An ASCII name needs no Unicode tables: TypeScript is loaded for the others only.
  if (/^[\x00-\x7f]*$/.test(name)) return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
  const ts = compiler();
  const [first, ...rest] = [...name].map((character) => character.codePointAt(0)!);
  const joinerOrDollar = (code: number) => code === 0x200c || code === 0x200d || code === 0x24;
  return (
    first !== undefined &&
    ts.isIdentifierStart(first, ts.ScriptTarget.ES2022) &&
    !joinerOrDollar(first) &&
    rest.every((code) => ts.isIdentifierPart(code, ts.ScriptTarget.ES2022) && !joinerOrDollar(code))
  );
}

export interface IdentifierStyle {
  /** `listBooks` or `ListBooks`. */
  case: 'camel' | 'pascal';
  /** The word a name with no word of its own is made of (`resource` → `resource3f2a9c1b`). */
  fallback: string;
  /** A property name may be a reserved word (`delete`); a binding may not (`delete_`). */
  property?: boolean;
  /** For tools that take ASCII names only (ajv's exports): other scripts give way to a short hash of the text. */
  ascii?: boolean;
}

/**
 * `list-books` → `listBooks` (camel) or `ListBooks` (pascal). A name that
 * starts with a digit gets `_`; a binding that would be a reserved word or
 * shadow a global gets `_` after it; a name with no word at all (`---`,
 * `{}`) is the fallback word and a short hash of the text, so distinct
 * texts stay distinct.
 */
export function identifierName(text: string, style: IdentifierStyle): string {
  const [first, ...rest] = style.ascii ? asciiWords(text, style.fallback) : words(text);
  if (first === undefined) return identifierName(`${style.fallback} ${shortHash(text)}`, style);
  const name =
    (style.case === 'pascal' ? capitalize(first) : first) + rest.map(capitalize).join('');
  const safe = /^\p{ID_Start}/u.test(name) ? name : `_${name}`;
  // Case mapping can, in a few scripts, give characters no identifier may hold.
  if (!scansAsIdentifier(safe))
    return identifierName(`${style.fallback} ${shortHash(text)}`, style);
  if (style.property) return safe;
  return RESERVED_WORDS.has(safe) || GLOBALS.has(safe) ? `${safe}_` : safe;
}

/**
 * Words in ASCII: accents dropped (`café` → `cafe`); where a word of
 * another script is dropped, a short hash of the text stands in for it
 * (after the fallback word, where none is left), so distinct texts stay
 * distinct.
 */
function asciiWords(text: string, fallback: string): string[] {
  const all = words(text.normalize('NFKD').replace(/\p{M}/gu, ''));
  const ascii = all.filter((word) => /^[a-z0-9]+$/.test(word));
  if (ascii.length === 0) return [fallback, shortHash(text)];
  return ascii.length === all.length ? ascii : [...ascii, shortHash(text)];
}

/** Windows device names: `con.ts` cannot be created there, whatever the extension. */
const DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

/** Long enough to read, short enough for any file system with room for the folders above it. */
const MAX_STEM = 60;

/**
 * A portable file name without extension: `Books` → `books`, `Café Menu` →
 * `cafe-menu`. Text with no Latin letter or digit (`книги`, `---`) is
 * `fallback` and a short hash of the text. Never empty, never a device
 * name, never longer than MAX_STEM: a longer one keeps its start and a hash
 * of the whole.
 */
export function fileStem(text: string, fallback: string): string {
  const stem = asciiWords(text, fallback).join('-');
  if (stem.length > MAX_STEM)
    return `${stem.slice(0, MAX_STEM - 9).replace(/-+$/, '')}-${shortHash(text)}`;
  return DEVICE_NAMES.test(stem) ? `${stem}-` : stem;
}

const shortHash = (text: string) => sha256(text).slice(0, 8);

/** PostgreSQL cuts names at 63 bytes: room for a registry's `_2`. */
const MAX_SQL_NAME = 58;

/**
 * A SQL name (a table, column or index), always quoted where it is used:
 * spec text that is already a plain one (`created_at`, or `createdAt` with
 * `keepCase`) stays itself; other text becomes lower-case ASCII words
 * joined by `_`, with a short hash where letters were lost or it was cut.
 */
export function sqlName(text: string, fallback: string, { keepCase = false } = {}): string {
  const plain = keepCase ? /^[A-Za-z_][A-Za-z0-9_]*$/ : /^[a-z_][a-z0-9_]*$/;
  if (plain.test(text) && text.length <= MAX_SQL_NAME) return text;
  const name = asciiWords(text, fallback).join('_');
  const start = /^[0-9]/.test(name) ? `_${name}` : name;
  return start.length > MAX_SQL_NAME
    ? `${start.slice(0, MAX_SQL_NAME - 9).replace(/_+$/, '')}_${shortHash(text)}`
    : start;
}

/** Spec text as a TypeScript string literal: quotes, backslashes, line breaks and every control character escaped. */
export function stringLiteral(text: string): string {
  return JSON.stringify(text).replace(
    /[\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16)}`,
  );
}

/**
 * Spec text printed inside a comment (`//` or `/* *\/`): one line, unable to
 * end the comment, without control characters or the bidi overrides that
 * make code read differently from how it runs.
 */
export function commentText(text: string): string {
  return text
    .replace(/[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\*\//g, '*\\/');
}

/** Text as one POSIX shell word: bare where it is plainly safe, else single-quoted. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Distinct names in one namespace: a name already claimed (compared by
 * `key`: lower case for files, exact for identifiers) gets `2`, `3`…, in the
 * order claimed, which is spec order. Names reserved up front (the fixed
 * files and bindings beside the spec's) are never handed out.
 */
export class NameRegistry {
  private readonly taken = new Set<string>();

  constructor(
    reserved: Iterable<string> = [],
    private readonly key: (name: string) => string = (name) => name,
    private readonly separator = '',
  ) {
    for (const name of reserved) this.taken.add(key(name));
  }

  /** `name`, or the first of `name2`, `name3`… not yet claimed; every name in `also(candidate)` is claimed with it. */
  claim(name: string, also: (candidate: string) => string[] = () => []): string {
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? name : `${name}${this.separator}${n}`;
      const group = [candidate, ...also(candidate)].map(this.key);
      if (group.some((member) => this.taken.has(member)) || new Set(group).size < group.length)
        continue;
      for (const member of group) this.taken.add(member);
      return candidate;
    }
  }
}

/** A registry of file stems: distinct case-insensitively (macOS and Windows), suffixed `-2`, `-3`…. */
export const fileRegistry = (reserved: Iterable<string> = []) =>
  new NameRegistry(reserved, (name) => name.toLowerCase(), '-');

/** A registry of SQL names: distinct as PostgreSQL compares quoted names (exactly), suffixed `_2`, `_3`…. */
export const sqlNameRegistry = (reserved: Iterable<string> = []) =>
  new NameRegistry(reserved, (name) => name, '_');

/** A registry of identifiers: distinct exactly, as the language compares them. */
export const identifierRegistry = (reserved: Iterable<string> = []) => new NameRegistry(reserved);
