/**
 * The work done on the whole merged spec (its types, its YAML text) is done
 * on one worker thread, which gets the document once, while the other
 * targets render here: loading openapi-typescript and TypeScript alone takes
 * 0.5 s, and GitHub's 13 MB spec takes 0.7 s to write as YAML. Without a
 * compiled worker (the TypeScript sources, under Jest) each is done here.
 */
import type { OpenApiDocument } from '../../openapi/document.js';
import { serializeSpec } from '../../openapi/serialize.js';
import { compiledWorker, runOnWorker, startEarly } from '../../threads.js';
import type { FilePart } from '../target.js';

export interface DocumentWork {
  /** openapi-typescript's declarations, in parts (types-print.ts). */
  types: FilePart[];
  /** The merged spec as YAML. */
  yaml: string;
}

const WORKER = compiledWorker(new URL('./document-worker.js', import.meta.url));

/** One job per document: both targets that need it share its answer. */
const jobs = new WeakMap<OpenApiDocument, Promise<DocumentWork>>();

function mergedSpecJob(script: string, document: OpenApiDocument): Promise<DocumentWork> {
  let job = jobs.get(document);
  if (!job) jobs.set(document, (job = runOnWorker<DocumentWork>(script, document, 'merged spec')));
  return job;
}

/** Starts the worker now, so its modules load while the spec is read; the returned function ends it if unused. */
export function startDocumentWorker(): () => void {
  return WORKER ? startEarly(WORKER) : () => {};
}

export async function typesOf(document: OpenApiDocument): Promise<FilePart[]> {
  if (WORKER) return (await mergedSpecJob(WORKER, document)).types;
  const { printTypes } = await import('./types-print.js');
  // A copy, as the worker's is: openapi-typescript adds to the document it is given.
  return [...printTypes(structuredClone(document))];
}

export async function yamlOf(document: OpenApiDocument): Promise<string> {
  return WORKER ? (await mergedSpecJob(WORKER, document)).yaml : serializeSpec(document, 'yaml');
}
