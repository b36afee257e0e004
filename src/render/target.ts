/** What every target receives, and what it produces. */
import type { StorageModel } from './targets/server/storage.js';
import type { ApiModel } from '../model/index.js';
import type { OpenApiDocument } from '../openapi/document.js';
import type { Renderer } from './handlebars.js';
import { diagnostic, SpecforgeError } from '../diagnostics.js';
import { printJson } from './json-print.js';

export type FileKind = 'generated' | 'scaffold';

/** How the format stage treats a file: prettier's parser, or left as rendered. */
export type FileFormat = 'typescript' | 'json' | 'as-is';

/**
 * A piece of a large file that can be formatted on its own, so the format
 * stage can spread one big file over several cores: `statements` is
 * top-level code; `nested` is code wrapped in `depth` levels of declaration
 * (`interface X {` / `schemas: {` …) that are dropped once it is formatted,
 * so its members come out exactly as prettier indents them in place;
 * `verbatim` is kept as it is.
 */
export type FilePart =
  | { text: string; as: 'statements' | 'verbatim' }
  | { text: string; as: 'nested'; depth: number };

interface FileBase {
  /** Relative to the output directory, `/`-separated. */
  path: string;
  kind: FileKind;
  format: FileFormat;
}

/** A file as it is written: its final contents. */
export interface OutputFile extends FileBase {
  contents: string;
}

/**
 * A file as a target produces it: its contents, or the parts that make them
 * up, yielded one by one (so the format stage can start on the first while
 * the target still prints the next).
 */
export type RenderedFile = OutputFile | (FileBase & { parts: Iterable<FilePart> });

/** Runtime modules by path relative to `src/runtime/`, e.g. `client/runtime.ts`. */
export type RuntimeSet = ReadonlyMap<string, { source: string; file: string }>;

export interface RenderInput {
  document: OpenApiDocument;
  model: ApiModel;
  renderer: Renderer;
  runtime: RuntimeSet;
  /** The spec's file name, for the do-not-edit banner. */
  specName: string;
  /** The storage model the project's migrations bring a database to (its `migrations/storage.json`), when it has one. */
  previousStorage?: StorageModel | undefined;
}

export interface Target {
  name: string;
  /** Its files; a file still being made elsewhere (a worker) may come as a promise. */
  render(input: RenderInput): Promise<(RenderedFile | Promise<RenderedFile>)[]>;
}

/** How a file is formatted follows from its name: TypeScript (and JavaScript), JSON, or as written. */
export function formatOf(path: string): FileFormat {
  if (/\.(ts|js)$/.test(path)) return 'typescript';
  return path.endsWith('.json') ? 'json' : 'as-is';
}

/** A file printed by one template, formatted as its name says. */
export function templateFile(renderer: Renderer, template: string, path: string, view: object, kind: FileKind): OutputFile {
  const { text, inForm } = renderer.render(template, view);
  const format = formatOf(path);
  return { path, contents: text, kind, format: inForm || (format === 'json' && isPrintedJson(text)) ? 'as-is' : format };
}

/**
 * JSON a template wrote exactly as printJson prints its value: prettier's
 * form (prettier leaves its own output as it is), whoever wrote the template.
 */
function isPrintedJson(text: string): boolean {
  try {
    return printJson(JSON.parse(text)) === text;
  } catch {
    return false;
  }
}

/**
 * A file written from its data: JSON in prettier's form, printed directly
 * where it can be (no format pass), so it reads like a hand-written one.
 */
export function jsonFile(path: string, value: object, kind: FileKind): OutputFile {
  const printed = printJson(value);
  if (printed !== undefined) return { path, contents: printed, kind, format: 'as-is' };
  return { path, contents: `${JSON.stringify(value, null, 2)}\n`, kind, format: 'json' };
}

/** A file of lines (an ignore list), as given. */
export function linesFile(path: string, lines: readonly string[], kind: FileKind): OutputFile {
  return { path, contents: `${lines.join('\n')}\n`, kind, format: 'as-is' };
}

/** `src/runtime/` mirrors a generated project's folders, area by area: `server/store/memory.ts` → `src/store/memory.ts`. */
const RUNTIME_AREAS: Record<string, string> = { server: 'src', client: 'src/client', conformance: 'test/conformance' };

/** Where a runtime module (its path under `src/runtime/`) lands in a generated project. */
export function runtimeOutputPath(module: string): string {
  const [area, ...rest] = module.split('/');
  const folder = RUNTIME_AREAS[area!];
  if (folder === undefined || rest.length === 0) throw new Error(`${module} is in no runtime area`);
  return [folder, ...rest].join('/');
}

/**
 * A runtime module copied as it is: its source is kept prettier-formatted
 * with the pinned options (test/unit/runtime checks), so the copy needs no
 * formatting and stays byte-identical to the source after the banner.
 */
export function runtimeFile(runtime: RuntimeSet, module: string, kind: FileKind): OutputFile {
  const found = runtime.get(module);
  if (!found) throw new SpecforgeError([diagnostic('TEMPLATE_ERROR', `No runtime module ${module}`)]);
  return { path: runtimeOutputPath(module), contents: found.source, kind, format: 'as-is' };
}
