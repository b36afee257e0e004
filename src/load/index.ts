/**
 * Stage 1 — load: read the spec and every file it references, bundle them
 * into one document (swagger-parser), and validate it (beside the next
 * stages). Any problem ends the run with diagnostics that name the file,
 * the pointer and the line.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diagnostic, parsePointer, percentDecode, SpecforgeError, type Diagnostic } from '../diagnostics.js';
import type { OpenApiDocument } from '../openapi/document.js';
import { hoistInlinedFiles } from './hoist.js';
import { valueBudget } from './limits.js';
import { applyOverlay, readOverlay } from './overlay.js';
import { compiledWorker, runOnWorker } from '../threads.js';
import { SourceSet } from './sources.js';
import { findBrokenRefs, validateOpenApi } from './validate.js';

export interface LoadedSpec {
  document: OpenApiDocument;
  sources: SourceSet;
  /** Warnings the load went on past (an overlay target that selects nothing), placed in their files. */
  warnings: Diagnostic[];
  /**
   * Validation against the OpenAPI schema, running on another thread while
   * the next stages work (1 s on GitHub's spec). Rejects with its problems;
   * nothing may be written before it settles.
   */
  validated: Promise<void>;
}

export interface LoadOptions {
  /** A folder `$ref`s may reach besides the spec's own tree or repository (`--ref-root`). */
  refRoot?: string;
  /** An OpenAPI Overlay file applied to the bundle before it is checked (`--overlay`). */
  overlay?: string;
}

export async function loadSpec(file: string, options: LoadOptions = {}): Promise<LoadedSpec> {
  const sources = new SourceSet(file, options);
  stopOn(sources, sources.crawl());
  const root = sources.get(sources.root)!.value;
  stopOn(sources, checkKind(root, sources.root));

  const severalFiles = sources.all.length > 1; // the spec's own: the overlay, read next, is not bundled
  const bundled = severalFiles ? await bundle(sources, root as OpenApiDocument) : (root as OpenApiDocument);
  // Everything after sees the patched document: the ref check, validation, the lint, the merge.
  const { document, warnings } = options.overlay === undefined ? { document: bundled, warnings: [] } : overlaid(sources, bundled, options.overlay);
  // A target that selected nothing may be why the spec is still invalid: its warning goes with the errors.
  const stop = (problems: Diagnostic[]) => {
    if (problems.length > 0) throw new SpecforgeError([...warnings, ...placeAll(sources, problems)]);
  };
  stop(findBrokenRefs(document));
  // Validation sees the bundle before hoisting, so every problem's pointer leads back to its file.
  const validated = validateBeside(document).then(stop);
  validated.catch(() => {}); // awaited by the caller; no unhandled rejection meanwhile
  if (severalFiles) hoistInlinedFiles(document, sources);
  return { document, sources, validated, warnings };
}

/**
 * The bundle with the overlay's actions applied (see overlay.ts). The
 * overlay file joins the spec's sources, so it is an input like them, and a
 * problem at a place an update put in the document is placed in the overlay.
 */
function overlaid(sources: SourceSet, bundled: OpenApiDocument, overlayPath: string): { document: OpenApiDocument; warnings: Diagnostic[] } {
  const file = sources.readOverlay(resolve(overlayPath));
  if ('code' in file) throw new SpecforgeError(placeAll(sources, [file]));
  const overlay = readOverlay(file.value, file.path);
  if (Array.isArray(overlay)) throw new SpecforgeError(placeAll(sources, overlay));
  // Updates may add as many values as the texts of the spec and the overlay could hold.
  const texts = sources.all.reduce((length, source) => length + source.text.length, 0);
  const result = applyOverlay(bundled, overlay, valueBudget(texts));
  sources.recordOverlay(file.path, result.origin);
  const placed = placeAll(sources, result.problems);
  if (placed.some((problem) => problem.severity === 'error')) throw new SpecforgeError(placed);
  return { document: result.document as OpenApiDocument, warnings: placed };
}

function validateBeside(bundled: OpenApiDocument): Promise<Diagnostic[]> {
  const script = compiledWorker(new URL('./validate-worker.js', import.meta.url));
  if (!script) return validateOpenApi(structuredClone(bundled)); // a copy now: hoisting follows
  return runOnWorker<Diagnostic[]>(script, bundled, 'validation'); // copied at once, before hoisting
}

/** Throws the problems, each placed in its source file. */
export function stopOn(sources: SourceSet, problems: Diagnostic[]): void {
  if (problems.length === 0) return;
  throw new SpecforgeError(placeAll(sources, problems));
}

/**
 * Gives each diagnostic its file, line and column: a pointer into a named
 * file is looked up there; a pointer alone is into the bundled document.
 * One pass over each file, however many problems it has.
 */
export function placeAll(sources: SourceSet, problems: readonly Diagnostic[]): Diagnostic[] {
  const origins = problems.map((problem) =>
    problem.line !== undefined || problem.pointer === undefined
      ? undefined
      : problem.file
        ? { file: problem.file, tokens: parsePointer(problem.pointer) }
        : sources.resolveBundled(problem.pointer),
  );
  const placed = [...problems];
  const byFile = new Map<string, number[]>();
  origins.forEach((origin, i) => {
    if (!origin) return;
    const indexes = byFile.get(origin.file) ?? [];
    indexes.push(i);
    byFile.set(origin.file, indexes);
  });
  for (const [file, indexes] of byFile) {
    const locations = sources.locateMany(file, indexes.map((i) => origins[i]!.tokens));
    indexes.forEach((problemIndex, n) => (placed[problemIndex] = { ...problems[problemIndex]!, ...locations[n] }));
  }
  return placed.map((problem) => ({ file: sources.root, ...problem }));
}

function checkKind(root: unknown, file: string): Diagnostic[] {
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    return [diagnostic('SPEC_NOT_OBJECT', 'The document is not a mapping', { file, pointer: '#' })];
  }
  const document = root as Record<string, unknown>;
  if (document.swagger !== undefined) {
    return [diagnostic('SPEC_SWAGGER_2', `This is a Swagger ${String(document.swagger)} document`, { file, pointer: '#/swagger' })];
  }
  if (typeof document.openapi !== 'string' || !/^3\.[01]\.\d+/.test(document.openapi)) {
    const found = document.openapi === undefined ? 'no `openapi` field' : `openapi: ${JSON.stringify(document.openapi)}`;
    return [diagnostic('SPEC_UNSUPPORTED_VERSION', `Expected OpenAPI 3.0.x or 3.1.x, found ${found}`, { file, pointer: '#/openapi' })];
  }
  return [];
}

async function bundle(sources: SourceSet, root: OpenApiDocument): Promise<OpenApiDocument> {
  try {
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    return (await SwaggerParser.bundle(sources.root, structuredClone(root) as never, fromSourcesOnly(sources) as never)) as unknown as OpenApiDocument;
  } catch (error) {
    // json-schema-ref-parser's errors (resolver, parser, missing pointer) are about the input;
    // anything else is ours.
    const { message, source, code } = error as { message?: string; source?: string; code?: unknown };
    if (typeof code !== 'string' || !code.startsWith('E')) throw error;
    throw new SpecforgeError([diagnostic('SPEC_REF_NOT_FOUND', String(message), { file: source ?? sources.root })]);
  }
}

/**
 * Bundler options under which it reads nothing itself: every file comes from
 * the crawl (which checked each `$ref` against the ref roots, and the file's
 * size, encoding and shape), already parsed. A file the crawl did not read
 * is an error, never a read.
 */
function fromSourcesOnly(sources: SourceSet): object {
  const fileOf = (url: string) => {
    const path = url.startsWith('file:') ? fileURLToPath(url) : percentDecode(url);
    const file = sources.get(resolve(path));
    if (!file) throw Object.assign(new Error(`${path} was not among the files the spec was checked for`), { code: 'ENOTCRAWLED' });
    return file;
  };
  const crawled = { order: 1, canRead: true, read: ({ url }: { url: string }) => fileOf(url).text };
  const parsed = { order: 1, canParse: true, parse: ({ url }: { url: string }) => structuredClone(fileOf(url).value) };
  return {
    resolve: { file: false, http: false, crawled },
    parse: { json: false, yaml: false, text: false, binary: false, parsed },
  };
}
