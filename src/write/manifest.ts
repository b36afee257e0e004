/**
 * `.specforge/manifest.json`: what the last run generated, with content
 * hashes, and a fingerprint of its inputs. It is how a regeneration tells a
 * file we wrote from one a person edited, and how an unchanged spec is
 * recognised without running the pipeline.
 */
import { diagnostic, SpecforgeError } from '../diagnostics.js';
import type { FileKind } from '../render/index.js';
import { byKey } from '../order.js';
import { outsideOutProblem, pathProblem } from './paths.js';

/** specforge's own folder below --out: the manifest, the scaffolds' origins and the backups. */
export const SPECFORGE_DIR = '.specforge';
export const MANIFEST_PATH = `${SPECFORGE_DIR}/manifest.json`;
export const MANIFEST_VERSION = 1;

/**
 * A scaffold's origin: the rendering specforge last recorded for it (when it
 * created it, or when the user accepted a later one), kept to show what a
 * regeneration would change in it. Named after the scaffold, whose path the
 * manifest check has already held to a portable path inside --out.
 */
export function originPath(scaffold: string): string {
  return `${SPECFORGE_DIR}/scaffolds/${scaffold}`;
}

export interface Manifest {
  manifestVersion: number;
  generator: string;
  /** The spec's files, relative to the root spec's directory, with their hashes. */
  inputs: { path: string; sha256: string }[];
  /** Hash of everything else that shapes the output: templates, generator version. */
  settings: string;
  files: Record<string, FileRecord>;
  /**
   * The --templates folder the output was generated with, relative to --out and `/`-separated (portable
   * across checkouts); absent for the built-in templates. A run without it would revert what they customise.
   */
  templates?: string;
  /**
   * The overlay applied to the spec (one of `inputs`, named the same way); absent for none. A run with
   * another overlay, or none, generates something else even where every input is unchanged.
   */
  overlay?: string;
  /** The spec's operations and the handler file that implements each, to report what a regeneration added or removed. */
  operations?: Record<string, OperationRecord>;
}

export interface FileRecord {
  kind: FileKind;
  /** A generated file's hash as written; a scaffold's origin's (see originPath): the user's file is theirs to change. */
  sha256: string;
  /** A scaffold's latest rendering, where it differs from its origin: drift to report until the user accepts it. */
  rendered?: string;
}

export interface OperationRecord {
  method: string;
  path: string;
  /** The handler file (a scaffold) that implements it. */
  handler: string;
}

const isHash = (value: unknown) => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);

/** What is wrong with a manifest's shape, if anything: every field later read is checked here. */
function shapeProblem(value: Manifest): string | undefined {
  if (typeof value.generator !== 'string' || typeof value.settings !== 'string') return '`generator` and `settings` must be strings';
  if (!Array.isArray(value.inputs) || !value.inputs.every((input) => typeof input?.path === 'string' && isHash(input.sha256))) {
    return '`inputs` must list { path, sha256 }';
  }
  for (const [index, input] of value.inputs.entries()) {
    // Relative to the spec's folder, so `..` may lead out of it: such an input is not read (see isUpToDate).
    const problem = pathProblem(input.path, { upward: true });
    if (problem) return `inputs[${index}].path ${quoted(input.path)} ${problem}`;
  }
  for (const key of ['templates', 'overlay'] as const) {
    const path: unknown = value[key];
    if (path === undefined) continue;
    const problem = typeof path === 'string' ? pathProblem(path, { upward: true }) : 'is not a string';
    if (problem) return `${key} ${quoted(String(path))} ${problem}`;
  }
  if (typeof value.files !== 'object' || value.files === null) return '`files` must be an object';
  for (const [path, entry] of Object.entries(value.files)) {
    if ((entry?.kind !== 'generated' && entry?.kind !== 'scaffold') || !isHash(entry.sha256)) return `files[${quoted(path)}] must be { kind, sha256 }`;
    if (entry.rendered !== undefined && (entry.kind !== 'scaffold' || !isHash(entry.rendered))) return `files[${quoted(path)}].rendered must be a scaffold's hash`;
    const problem = outputPathProblem(path);
    if (problem) return `files[${quoted(path)}] ${problem}`;
  }
  if (value.operations !== undefined) {
    if (typeof value.operations !== 'object' || value.operations === null) return '`operations` must be an object';
    for (const [id, entry] of Object.entries(value.operations)) {
      if (typeof entry?.method !== 'string' || typeof entry.path !== 'string' || typeof entry.handler !== 'string') {
        return `operations[${quoted(id)}] must be { method, path, handler }`;
      }
      const problem = outputPathProblem(entry.handler);
      if (problem) return `operations[${quoted(id)}].handler ${quoted(entry.handler)} ${problem}`;
    }
  }
  return undefined;
}

/** Why `path` may not name a file specforge writes below --out: not portable and inside, or in specforge's own folder. */
function outputPathProblem(path: string): string | undefined {
  const problem = outsideOutProblem(path);
  if (problem) return problem;
  // Backups and the manifest are specforge's own: no entry may make a run delete or replace them.
  if (path.split('/')[0] === SPECFORGE_DIR) return `is inside ${SPECFORGE_DIR}/, which holds specforge's own files`;
  return undefined;
}

/** An entry's name as JSON writes it: control characters and quotes escaped, so a message cannot carry terminal escapes. */
const quoted = (text: string) => JSON.stringify(text);


export function serializeManifest(manifest: Manifest): string {
  const files = Object.fromEntries(Object.entries(manifest.files).sort(byKey));
  return JSON.stringify({ ...manifest, files }, null, 2) + '\n';
}

export function parseManifest(text: string, file: string): Manifest {
  try {
    const value = JSON.parse(text) as Manifest;
    if (value.manifestVersion !== MANIFEST_VERSION) throw new Error(`unknown manifest version ${String(value.manifestVersion)}`);
    const problem = shapeProblem(value);
    if (problem) throw new Error(problem);
    return value;
  } catch (error) {
    throw new SpecforgeError([
      diagnostic('MANIFEST_INVALID', `Cannot read the manifest: ${(error as Error).message}`, { file }),
    ]);
  }
}
