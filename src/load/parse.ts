/**
 * Text → value for one YAML or JSON file, and pointer → line:column for
 * diagnostics. Positions are computed lazily, only when a problem is reported:
 * the fast path for a 13 MB JSON spec is a plain JSON.parse.
 */
import { LineCounter, parseDocument, isMap, isSeq, isScalar, type Node } from 'yaml';
import { isUtf8 } from 'node:buffer';
import { diagnostic, parsePointer, type Diagnostic } from '../diagnostics.js';
import { locateInJson } from './json-positions.js';
import { shapeProblem } from './limits.js';

export type ParseResult = { ok: true; value: unknown; syntax: 'json' | 'yaml' } | { ok: false; problem: Diagnostic };

/**
 * The text of a file's bytes: UTF-8 (as JSON and YAML 1.2 files are), without
 * a leading byte-order mark, with no NUL character (no text format has one; a name holding it would be cut
 * short by whatever reads it next).
 */
export function decodeText(bytes: Buffer, file: string): { ok: true; text: string } | { ok: false; problem: Diagnostic } {
  if (!isUtf8(bytes)) {
    const text = bytes.toString('utf8');
    return {
      ok: false,
      problem: diagnostic('SPEC_NOT_UTF8', 'The file is not valid UTF-8', { file, ...lineColumnAt(text, text.indexOf('\uFFFD')) }),
    };
  }
  // A byte-order mark is no content (RFC 8259 §8.1 lets parsers ignore it; Windows editors write it).
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const nul = text.indexOf('\u0000');
  if (nul >= 0) return { ok: false, problem: diagnostic('SPEC_NUL_CHARACTER', 'The file contains a NUL character', { file, ...lineColumnAt(text, nul) }) };
  return { ok: true, text };
}

/**
 * JSON first where the text looks like JSON (fast); a `.yaml` file in flow
 * style falls back to YAML. The value is then checked for its shape (depth,
 * keys, alias expansion) before anything walks it recursively.
 */
export function parseText(text: string, file: string): ParseResult {
  const parsed = parseEither(text, file);
  if (!parsed.ok) return parsed;
  const problem = shapeProblem(parsed.value, file, text.length);
  if (!problem) return parsed;
  const tokens = parsePointer(problem.pointer ?? '#');
  const position = parsed.syntax === 'json' ? locateInJson(text, [tokens])[0] : locateInText(text, tokens);
  return { ok: false, problem: { ...problem, ...position } };
}

function parseEither(text: string, file: string): ParseResult {
  if (!/^\s*[{[]/.test(text) && !file.endsWith('.json')) return parseYaml(text, file);
  const json = parseJson(text, file);
  return json.ok || file.endsWith('.json') ? json : parseYaml(text, file);
}

/** A parser that ran out of stack met a document nested too deep for it. */
function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

function tooDeep(file: string): ParseResult {
  return { ok: false, problem: diagnostic('SPEC_TOO_DEEP', 'The document is nested too deep to parse', { file }) };
}

function parseJson(text: string, file: string): ParseResult {
  try {
    return { ok: true, value: JSON.parse(text), syntax: 'json' };
  } catch (error) {
    if (isStackOverflow(error)) return tooDeep(file);
    const message = ((error as Error).message.split('\n')[0] ?? '').trim();
    // "Unexpected end of JSON input" names no position: the problem is at the end.
    const offset = Number(/position (\d+)/.exec(message)?.[1] ?? (/end of JSON input/.test(message) ? text.length : NaN));
    const position = Number.isNaN(offset) ? yamlErrorPosition(text) : lineColumnAt(text, offset);
    return { ok: false, problem: diagnostic('SPEC_PARSE_ERROR', `Invalid JSON: ${message}`, { file, ...position }) };
  }
}

/** Where the YAML parser (JSON is YAML) stumbles, for JSON errors whose message names no position. */
function yamlErrorPosition(text: string): { line?: number; column?: number } {
  const lineCounter = new LineCounter();
  const [error] = parseDocument(text, { lineCounter, uniqueKeys: true }).errors;
  if (!error) return {};
  const { line, col } = lineCounter.linePos(error.pos[0]);
  return { line, column: col };
}

function parseYaml(text: string, file: string): ParseResult {
  try {
    return parseYamlDocument(text, file);
  } catch (error) {
    if (isStackOverflow(error)) return tooDeep(file);
    throw error;
  }
}

function parseYamlDocument(text: string, file: string): ParseResult {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const error = document.errors[0];
  if (error && /call stack/i.test(error.message)) return tooDeep(file);
  if (error) {
    // Bad indentation spans the indent; the offending token is where it ends.
    const position = lineCounter.linePos(error.code === 'BAD_INDENT' ? error.pos[1] : error.pos[0]);
    const firstLine = error.message.split('\n')[0] ?? error.message;
    return {
      ok: false,
      problem: diagnostic('SPEC_PARSE_ERROR', `Invalid YAML: ${firstLine}`, {
        file,
        line: position.line,
        column: position.col,
      }),
    };
  }
  // Aliases resolve to one shared value, never copies; how far they expand is bounded by shapeProblem.
  return { ok: true, value: document.toJS({ maxAliasCount: -1 }), syntax: 'yaml' };
}

function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Line and column of the deepest node on `path` that exists in the text
 * (a missing property is reported at the object that lacks it).
 */
/** A file's syntax tree with its line index: built once per file, on its first diagnostic. */
export interface TextIndex {
  root: Node | null;
  lineCounter: LineCounter;
}

export function indexText(text: string): TextIndex {
  const lineCounter = new LineCounter();
  return { root: parseDocument(text, { lineCounter, keepSourceTokens: false }).contents, lineCounter };
}

export function locateInText(text: string | TextIndex, path: readonly string[]): { line: number; column: number } | undefined {
  const { root, lineCounter } = typeof text === 'string' ? indexText(text) : text;
  let node: Node | null | undefined = root;
  let found: Node | null | undefined = node;
  let keyOffset: number | undefined;
  for (const token of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === token);
      if (!pair) break;
      keyOffset = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      node = pair.value as Node | null;
    } else if (isSeq(node)) {
      node = node.items[Number(token)] as Node | undefined;
      keyOffset = undefined;
    } else {
      break;
    }
    if (!node) break;
    found = node;
  }
  const offset = keyOffset ?? found?.range?.[0];
  if (offset === undefined) return undefined;
  const position = lineCounter.linePos(offset);
  return { line: position.line, column: position.col };
}
