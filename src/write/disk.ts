/**
 * The only module that writes: reads the state of the output directory and
 * carries out a plan. Each file is written to a temporary name and renamed,
 * so an interrupted run never leaves a half-written file.
 *
 * Everything below --out may have been planted (a pull request can commit a
 * symbolic link, a manifest names the files to delete): every path is
 * checked to be a portable relative path, and every existing step on the way
 * to it is looked at without following links, before it is read or changed.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, copyFileSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { diagnostic, SpecforgeError, type Diagnostic } from '../diagnostics.js';
import { sha256, specHash, utf8 } from '../hash.js';
import { MANIFEST_PATH, originPath, parseManifest, serializeManifest, type Manifest } from './manifest.js';
import { isInside, outsideOutProblem } from './paths.js';
import { parseStorageModel, STORAGE_PATH } from './storage-record.js';
import type { StorageModel } from '../render/targets/server/storage.js';
import type { DiskState, Plan } from './plan.js';

export function readManifest(outDir: string): Manifest | undefined {
  refuseObstacles(outDir, [MANIFEST_PATH]);
  const file = join(outDir, MANIFEST_PATH);
  return existsSync(file) ? parseManifest(readFileSync(file, 'utf8'), file) : undefined;
}

/** The storage model the project's migrations were written for; undefined before the first. */
export function readStorageModel(outDir: string): StorageModel | undefined {
  refuseObstacles(outDir, [STORAGE_PATH]);
  const file = join(outDir, STORAGE_PATH);
  return existsSync(file) ? parseStorageModel(readFileSync(file, 'utf8'), file) : undefined;
}

/** The hash of a file's bytes; undefined where there is none. */
function fileHash(file: string): string | undefined {
  return existsSync(file) ? sha256(readFileSync(file)) : undefined;
}

/** A spec file's hash as the manifest records its inputs (line ends aside); undefined where there is none. */
export function specFileHash(file: string): string | undefined {
  return existsSync(file) ? specHash(readFileSync(file)) : undefined;
}

export function readDiskState(outDir: string, paths: Iterable<string>): DiskState {
  const all = [...paths];
  refuseObstacles(outDir, all);
  return new Map(all.map((path) => [path, fileHash(join(outDir, path))]));
}

/** The text of each file named (each checked as every path is); a file that is not there is left out. */
export function readTexts(outDir: string, paths: readonly string[]): Map<string, string> {
  refuseObstacles(outDir, paths);
  const texts = new Map<string, string>();
  for (const path of paths) {
    const file = join(outDir, path);
    if (existsSync(file)) texts.set(path, readFileSync(file, 'utf8'));
  }
  return texts;
}

/** Records `contents` as a scaffold's origin, and the manifest that says so. */
export function recordOrigin(outDir: string, scaffold: string, contents: string, manifest: Manifest): void {
  refuseObstacles(outDir, [originPath(scaffold), MANIFEST_PATH]);
  writeAtomically(join(outDir, originPath(scaffold)), contents);
  writeAtomically(join(outDir, MANIFEST_PATH), serializeManifest(manifest));
}

/**
 * Carries out the plan: its deletions first, in order (a file may give way
 * to a folder of the same name, or a folder to a file), then its writes, and
 * the manifest last. One at a time, in this thread: threads creating files in
 * the same folders wait on each other in the kernel (GitHub's 2,300 files took
 * 1.2 s through libuv's four, a third of that here). Every step on the way to
 * each file is looked at again as it is written; only making its folder is
 * done once.
 */
export async function applyPlan(outDir: string, plan: Plan, manifest: Manifest): Promise<void> {
  const actions = [...plan.actions, ...plan.origins];
  for (const action of actions) if (action.change === 'delete') carryOut(outDir, action);
  const made = new Set<string>(); // no deletion comes after the first write
  let yielded = performance.now();
  for (const action of actions) {
    if (action.change === 'delete') continue;
    carryOut(outDir, action, made);
    // The progress line's timer runs now and then on a large API.
    if (performance.now() - yielded > 250) {
      await new Promise(setImmediate);
      yielded = performance.now();
    }
  }
  refuseObstacles(outDir, [MANIFEST_PATH]);
  writeAtomically(join(outDir, MANIFEST_PATH), serializeManifest(manifest));
}

function carryOut(outDir: string, action: Plan['actions'][number], made?: Set<string>): void {
  // Checked again as each is carried out: deletions may have changed what lies on the way.
  refuseObstacles(outDir, [action.path, ...(action.backupTo === undefined ? [] : [action.backupTo])]);
  const file = join(outDir, action.path);
  if (action.backupTo !== undefined) backup(file, join(outDir, action.backupTo));
  switch (action.change) {
    case 'overwrite':
    case 'create':
    case 'update':
      writeAtomically(file, action.bytes ?? action.contents!, made);
      break;
    case 'delete':
      unlinkSync(file);
      removeEmptyParents(outDir, dirname(file));
      break;
    default:
      break;
  }
}

/** Stops the run, naming each, if any path is not a plain file (or nothing yet) reached through plain folders below outDir. */
function refuseObstacles(outDir: string, paths: readonly string[]): void {
  const found = new Map<string, Diagnostic>(); // one per obstacle: a linked folder stands in the way of many files
  for (const path of paths) {
    const problem = obstacle(outDir, path);
    if (problem) found.set(problem.message, problem);
  }
  if (found.size > 0) throw new SpecforgeError([...found.values()]);
}

/**
 * What stands in the way of reading or replacing `path` below outDir: a path
 * that is not portable or leaves outDir, a symbolic link at any step, a file
 * where a folder should be, or anything but a plain file at the end.
 */
function obstacle(outDir: string, path: string): Diagnostic | undefined {
  const problem = outsideOutProblem(path);
  if (problem) return diagnostic('OUTPUT_PATH_INVALID', `${JSON.stringify(path)} ${problem}`, { file: outDir });
  const segments = path.split('/');
  let current = outDir;
  for (const [index, segment] of segments.entries()) {
    current = join(current, segment);
    const stat = lstatSync(current, { throwIfNoEntry: false });
    if (stat === undefined) return undefined; // nothing further exists
    const at = segments.slice(0, index + 1).join('/');
    if (stat.isSymbolicLink()) {
      return diagnostic('OUTPUT_SYMLINK', `${at} is a symbolic link; specforge never reads, writes or deletes through a link inside --out`, { file: current });
    }
    const last = index === segments.length - 1;
    if (last ? !stat.isFile() : !stat.isDirectory()) {
      return diagnostic('OUTPUT_NOT_OURS', `${at} is in the way of ${path}: it is not a ${last ? 'file' : 'folder'}`, { file: current });
    }
  }
  return undefined;
}

/** Keeps a copy of a file about to be overwritten or deleted by --force: nothing a person wrote is lost. */
function backup(file: string, target: string): void {
  mkdirSync(dirname(target), { recursive: true });
  try {
    copyFileSync(file, target, constants.COPYFILE_EXCL);
  } catch (error) {
    // The name is per content: an existing copy is this one, and is never replaced.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * Writes through a fresh temporary file beside the target, then renames it:
 * the name is unpredictable and created exclusively, so nothing planted at a
 * name we might use is written through, and a rename replaces a link rather
 * than following it.
 */
export function writeAtomically(file: string, contents: string | Uint8Array, made?: Set<string>): void {
  makeFolder(dirname(file), made);
  const temporary = temporaryBeside(file);
  const descriptor = openSync(temporary, 'wx');
  try {
    try {
      writeFileSync(descriptor, typeof contents === 'string' ? utf8(contents) : contents);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Makes a folder and those above it, once per run where the run keeps a record of what it made. */
function makeFolder(folder: string, made: Set<string> | undefined): void {
  if (made?.has(folder)) return;
  mkdirSync(folder, { recursive: true });
  made?.add(folder);
}

/** A fresh, unpredictable name beside the file, for writing it through. */
function temporaryBeside(file: string): string {
  return join(dirname(file), `.${basename(file)}.${randomBytes(12).toString('hex')}.specforge.tmp`);
}

/** Removes the folders a deletion left empty, up to (never including, never beyond) outDir. */
function removeEmptyParents(outDir: string, directory: string): void {
  let current = resolve(directory);
  while (current !== resolve(outDir) && isInside(outDir, current) && readdirSync(current).length === 0) {
    rmdirSync(current);
    current = dirname(current);
  }
}
