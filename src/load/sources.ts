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
import type { Origin } from './overlay.js';
import { sizeProblem } from './limits.js';
import { mayReference, refKind, refRootsOf } from './ref-root.js';
import { decodeText, indexText, locateInText, parseText, type TextIndex } from './parse.js';
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
  /** Bytes of every file read so far, against MAX_SPEC_BYTES. */
  private bytesRead = 0;

  /** The folders `$ref`s may reach (see ref-root.ts). */
  readonly refRoots: readonly string[];

  constructor(rootFile: string, options: { refRoot?: string } = {}) {
    this.root = resolve(rootFile);
    this.refRoots = refRootsOf(this.root, options.refRoot);
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
    const tooLarge = sizeProblem(path, statSync(path).size, this.bytesRead);
    if (tooLarge) return tooLarge;
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      return diagnostic('SPEC_READ_FAILED', `Cannot read ${path}: ${(error as Error).message}`, { file: path });
    }
    this.bytesRead += bytes.length;
    const decoded = decodeText(bytes, path);
    if (!decoded.ok) return decoded.problem;
    const text = decoded.text;
    const parsed = parseText(text, path);
    if (!parsed.ok) return parsed.problem;
    const file: SourceFile = { path, text, value: parsed.value, hash: specHash(bytes), syntax: parsed.syntax };
    this.files.set(path, file);
    return file;
  }

  /**
   * Reads every file reachable through external `$ref`s, and checks every
   * reference outside the root file (the root's own are checked once
   * bundled). A `$ref` that is absolute, remote or leads outside the ref
   * roots is a problem, and its target is never opened. Returns the
   * problems found, each at the `$ref` concerned.
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
        const kind = refKind(ref);
        if (kind === 'remote') {
          problems.push(diagnostic('SPEC_REMOTE_REF', `$ref "${ref}" is a URL; specforge reads local files only`, at()));
          continue;
        }
        if (kind === 'absolute') {
          problems.push(diagnostic('SPEC_REF_ABSOLUTE', `$ref "${ref}" is an absolute path or file: URL; nothing was read`, at()));
          continue;
        }
        const target = kind === 'local' ? file.path : resolve(dirname(file.path), percentDecode(ref.split('#')[0]!));
        // Checked before the file is even opened; a symlink counts where it leads.
        if (kind === 'relative' && !this.files.has(target) && !mayReference(this.refRoots, target)) {
          problems.push(diagnostic('SPEC_REF_OUTSIDE_ROOT', `$ref "${ref}" leads outside ${this.refRoots.join(' and ')}; nothing was read`, at()));
          continue;
        }
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

  /** The overlay applied to the bundle (see overlay.ts): its file, and where each place of the patched document came from. */
  private overlay: { file: string; origin: (tokens: readonly string[]) => Origin } | undefined;

  /** Reads the overlay file as any file of the spec (size, encoding, shape), so that it is an input too. */
  readOverlay(path: string): SourceFile | Diagnostic {
    if (!existsSync(path) || !statSync(path).isFile()) {
      const what = existsSync(path) ? 'is not a file' : 'does not exist';
      return diagnostic('OVERLAY_NOT_FOUND', `The overlay ${path} ${what}`, { file: path });
    }
    return this.read(path);
  }

  recordOverlay(file: string, origin: (tokens: readonly string[]) => Origin): void {
    this.overlay = { file, origin };
  }

  /** The overlay file applied, if one was. */
  get overlayFile(): string | undefined {
    return this.overlay?.file;
  }

  /** The file and the path inside it that a pointer into the bundled document comes from. */
  resolveBundled(pointer: string): { file: string; tokens: string[] } {
    let tokens = parsePointer(pointer);
    for (let length = tokens.length; length > 0 && this.moved.size > 0; length--) {
      const origin = this.moved.get(tokens.slice(0, length).join('/'));
      if (origin) return { file: origin.file, tokens: [...origin.tokens, ...tokens.slice(length)] };
    }
    if (this.overlay) {
      const origin = this.overlay.origin(tokens);
      if ('overlay' in origin) return { file: this.overlay.file, tokens: origin.overlay };
      tokens = origin.document;
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
