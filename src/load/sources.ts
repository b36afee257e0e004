/**
 * The files a spec is made of: the root and every file its `$ref`s reach.
 * Crawling them ourselves (before swagger-parser bundles) lets a broken
 * reference be reported at the `$ref` that names it, with file and line, and
 * gives `--watch` and the manifest the full list of inputs.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { diagnostic, parsePointer, parseRef, percentDecode, toPointer, type Diagnostic, type SourceLocation } from '../diagnostics.js';
import { specHash } from '../hash.js';
import { isObject, visitRefs, walk } from '../openapi/document.js';
import { locateInJson } from './json-positions.js';
import { indexText, locateInText, parseText, type TextIndex } from './parse.js';
import { byPath } from '../order.js';

export interface SourceFile {
  path: string;
  text: string;
  value: unknown;
  /** Its hash with line ends normalised (`specHash`), for the manifest's input fingerprint. */
  hash: string;
  /** Which parser read it (a `.yaml` file in flow style may look like JSON and not be). */
  syntax: 'json' | 'yaml';
}

export class SourceSet {
  readonly root: string;
  private readonly files = new Map<string, SourceFile>();

  constructor(rootFile: string) {
    this.root = resolve(rootFile);
  }

  get all(): SourceFile[] {
    return [...this.files.values()].sort(byPath);
  }

  get(path: string): SourceFile | undefined {
    return this.files.get(path);
  }

  /** Reads and parses one file; a problem is returned, never thrown. */
  read(path: string, referencedFrom?: () => SourceLocation): SourceFile | Diagnostic {
    const known = this.files.get(path);
    if (known) return known;
    if (!existsSync(path) || !statSync(path).isFile()) {
      return referencedFrom
        ? diagnostic('SPEC_REF_FILE_NOT_FOUND', `$ref points at ${path}, which does not exist`, referencedFrom())
        : diagnostic('SPEC_NOT_FOUND', `No file at ${path}`, { file: path });
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      return diagnostic('SPEC_READ_FAILED', `Cannot read ${path}: ${(error as Error).message}`, { file: path });
    }
    const text = bytes.toString('utf8');
    const parsed = parseText(text, path);
    if (!parsed.ok) return parsed.problem;
    const file: SourceFile = { path, text, value: parsed.value, hash: specHash(bytes), syntax: parsed.syntax };
    this.files.set(path, file);
    return file;
  }

  /**
   * Reads every file reachable through external `$ref`s, and checks every
   * reference outside the root file (the root's own are checked once
   * bundled). Returns the problems found, each at the `$ref` concerned.
   */
  crawl(): Diagnostic[] {
    const root = this.read(this.root);
    if ('code' in root) return [root];
    const problems: Diagnostic[] = [];
    const failed = new Set<string>();
    const fragments: { target: string; ref: string; at: () => SourceLocation }[] = [];
    const pending = [root];
    while (pending.length > 0) {
      const file = pending.pop()!;
      for (const { ref, path } of refsIn(file.value)) {
        const at = () => this.locate(file.path, path);
        if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) {
          problems.push(diagnostic('SPEC_REMOTE_REF', `$ref "${ref}" is a URL; specforge reads local files only`, at()));
          continue;
        }
        const target = ref.startsWith('#') ? file.path : resolve(dirname(file.path), percentDecode(ref.split('#')[0]!));
        if (target !== this.root || !ref.startsWith('#')) fragments.push({ target, ref, at });
        if (this.files.has(target) || failed.has(target)) continue;
        const next = this.read(target, at);
        if ('code' in next) {
          failed.add(target);
          problems.push(next);
        } else {
          pending.push(next);
        }
      }
    }
    for (const { target, ref, at } of fragments) {
      const file = this.files.get(target);
      if (file && walk(file.value, parseRef(ref)) === undefined) {
        problems.push(diagnostic('SPEC_REF_NOT_FOUND', `$ref "${ref}" does not resolve`, at()));
      }
    }
    return problems;
  }

  /** Location of a path inside one file, with line and column. */
  locate(filePath: string, path: readonly (string | number)[]): SourceLocation {
    return this.locateMany(filePath, [path])[0]!;
  }

  /** Many locations in one file at once: a JSON file is scanned once for all of them. */
  locateMany(filePath: string, paths: readonly (readonly (string | number)[])[]): SourceLocation[] {
    const file = this.files.get(filePath);
    const tokens = paths.map((path) => path.map(String));
    const positions = !file
      ? tokens.map(() => undefined)
      : file.syntax === 'json'
        ? locateInJson(file.text, tokens)
        : tokens.map((path) => locateInText(this.indexOf(file), path));
    return tokens.map((path, i) => ({ file: filePath, pointer: toPointer(path), ...positions[i] }));
  }

  private readonly indexes = new Map<string, TextIndex>();

  private indexOf(file: SourceFile): TextIndex {
    let index = this.indexes.get(file.path);
    if (!index) this.indexes.set(file.path, (index = indexText(file.text)));
    return index;
  }

  /**
   * Maps a pointer into the bundled document back to the file it came from:
   * walk the root file, and follow an external `$ref` into its file whenever
   * the path passes through one (that is where the bundler inlined it).
   */
  locateBundled(pointer: string): SourceLocation {
    const { file, tokens } = this.resolveBundled(pointer);
    return this.locate(file, tokens);
  }

  /** Where the load stage moved a part of the bundle from (see hoist.ts): bundled path → origin. */
  private readonly moved = new Map<string, { file: string; tokens: string[] }>();

  recordMove(to: readonly string[], from: { file: string; tokens: string[] }): void {
    this.moved.set(to.join('/'), from);
  }

  /** The file and the path inside it that a pointer into the bundled document comes from. */
  resolveBundled(pointer: string): { file: string; tokens: string[] } {
    const tokens = parsePointer(pointer);
    for (let length = tokens.length; length > 0 && this.moved.size > 0; length--) {
      const origin = this.moved.get(tokens.slice(0, length).join('/'));
      if (origin) return { file: origin.file, tokens: [...origin.tokens, ...tokens.slice(length)] };
    }
    return this.followBundled(tokens);
  }

  private followBundled(bundledTokens: string[]): { file: string; tokens: string[] } {
    let filePath = this.root;
    let node = this.files.get(filePath)?.value;
    let inFile: string[] = [];
    // The bundle keeps the root's own `#` refs, so a path never crosses one there; in another
    // file a `#` ref was inlined by the bundler, and the path goes on where it points.
    const followExternalRef = () => {
      const ref = refOf(node);
      if (ref === undefined || (ref.startsWith('#') && filePath === this.root)) return;
      const [target, fragment = ''] = ref.split('#');
      if (target) filePath = resolve(dirname(filePath), percentDecode(target));
      inFile = parseRef(`#${fragment}`);
      node = walk(this.files.get(filePath)?.value, inFile);
    };
    for (const token of bundledTokens) {
      followExternalRef();
      node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[token] : undefined;
      inFile = [...inFile, token];
    }
    followExternalRef();
    return { file: filePath, tokens: inFile };
  }
}

function refOf(node: unknown): string | undefined {
  return isObject(node) && typeof node.$ref === 'string' ? node.$ref : undefined;
}

/** Every `$ref` in a document, with the path where it stands. */
function refsIn(root: unknown): { ref: string; path: string[] }[] {
  const found: { ref: string; path: string[] }[] = [];
  visitRefs(root, ({ $ref }, path) => found.push({ ref: $ref, path: [...path, '$ref'] }));
  return found;
}
