/**
 * The file plan: a pure decision, for every output path, of what a run does
 * to it. Generated files are rewritten, scaffolds created once; a generated
 * file someone edited, or a file we never wrote, is a conflict unless forced.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import type { FileKind, OutputFile } from '../render/index.js';
import { sha256, utf8 } from '../hash.js';
import { originPath, SPECFORGE_DIR, type FileRecord, type Manifest } from './manifest.js';
import { byPath, byText } from '../order.js';

export type Change =
  | 'create' // not on disk
  | 'update' // on disk as we last wrote it, content changed
  | 'unchanged' // on disk with the new content already
  | 'overwrite' // edited by hand (or not ours), overwritten because of --force (a backup is kept)
  | 'keep' // a scaffold that exists: it belongs to the user
  | 'skip' // a scaffold the user deleted after it was created: it stays deleted (--force recreates it)
  | 'delete' // generated last time, no longer produced
  | 'conflict'; // would overwrite or delete someone's work

export interface Action {
  path: string;
  /** `origin`: a scaffold's origin under .specforge/scaffolds/, specforge's own record. */
  kind: FileKind | 'origin';
  change: Change;
  contents?: string;
  /** `contents` in UTF-8, encoded once for its hash and its write (GitHub's 54 MB: about 0.2 s each time). */
  bytes?: Uint8Array;
  sha256?: string;
  /** Where the file on disk is copied before it is overwritten or deleted: someone's work is in it. */
  backupTo?: string;
}

/** Backups live here, one per content (`<path>.<hash>`), so a second --force never replaces the first. */
export const BACKUP_DIR = `${SPECFORGE_DIR}/backup`;

function backupPath(path: string, diskHash: string): string {
  return `${BACKUP_DIR}/${path}.${diskHash.slice(0, 12)}`;
}

export interface Plan {
  actions: Action[];
  /** What changes among the scaffolds' origins: bookkeeping, like the manifest, so kept apart from the files a run reports. */
  origins: Action[];
  conflicts: Diagnostic[];
  files: Manifest['files'];
}

/** Hash of each relevant path as it is on disk; undefined where there is no file. */
export type DiskState = ReadonlyMap<string, string | undefined>;

export interface PlanInput {
  files: readonly OutputFile[];
  previous: Manifest | undefined;
  disk: DiskState;
  force: boolean;
  outDir: string;
  /** The text of each scaffold originsToRecover names: a file still as specforge created it is its own origin. */
  untouched?: ReadonlyMap<string, string>;
}

export function planWrite({ files, previous, disk, force, outDir, untouched }: PlanInput): Plan {
  const actions: Action[] = [];
  const origins: Action[] = [];
  const conflicts: Diagnostic[] = [];
  const produced = new Set(files.map((file) => file.path));
  const manifestFiles: Manifest['files'] = {};

  for (const file of files) {
    const bytes = utf8(file.contents);
    const hash = sha256(bytes);
    const onDisk = disk.get(file.path);
    const recorded = previous?.files[file.path]?.sha256;
    let change: Change;
    if (onDisk === undefined) change = file.kind === 'scaffold' && recorded !== undefined && !force ? 'skip' : 'create';
    else if (file.kind === 'scaffold') change = 'keep';
    else if (onDisk === hash) change = 'unchanged';
    else if (onDisk === recorded) change = 'update';
    else change = force ? 'overwrite' : 'conflict';
    if (change === 'conflict') conflicts.push(conflictFor({ path: file.path, ours: recorded !== undefined, outDir, verb: 'overwrite' }));
    const backup = change === 'overwrite' ? { backupTo: backupPath(file.path, onDisk!) } : {};
    const written = change === 'create' || change === 'update' || change === 'overwrite';
    actions.push({ path: file.path, kind: file.kind, change, contents: file.contents, ...(written ? { bytes } : {}), sha256: hash, ...backup });
    if (file.kind === 'generated') manifestFiles[file.path] = { kind: file.kind, sha256: hash };
    else {
      const origin = scaffoldOrigin({ file, hash, change, recorded, originOnDisk: disk.get(originPath(file.path)), untouched: untouched?.get(file.path) });
      manifestFiles[file.path] = origin.record;
      if (origin.write) origins.push(origin.write);
    }
  }

  for (const [path, entry] of Object.entries(previous?.files ?? {})) {
    if (produced.has(path)) continue;
    if (entry.kind === 'scaffold') {
      // Scaffolds are never deleted; the origin of one the spec no longer produces has nothing left to compare with.
      const at = originPath(path);
      if (disk.get(at) !== undefined) origins.push({ path: at, kind: 'origin', change: 'delete' });
      continue;
    }
    const onDisk = disk.get(path);
    if (onDisk === undefined) continue;
    const edited = onDisk !== entry.sha256;
    if (edited && !force) {
      conflicts.push(conflictFor({ path, ours: true, outDir, verb: 'delete' }));
      actions.push({ path, kind: 'generated', change: 'conflict' });
    } else {
      actions.push({ path, kind: 'generated', change: 'delete', ...(edited ? { backupTo: backupPath(path, onDisk) } : {}) });
    }
  }
  actions.sort(byPath);
  return { actions, origins: origins.sort(byPath), conflicts, files: manifestFiles };
}

interface OriginInput {
  file: OutputFile;
  hash: string;
  change: Change;
  /** The origin's hash as the last manifest recorded it. */
  recorded: string | undefined;
  originOnDisk: string | undefined;
  /** The user's file, where it is still as created and its origin is not intact. */
  untouched: string | undefined;
}

/**
 * A scaffold's origin after this run, with the write that records it where one
 * is needed. A scaffold created now gets its rendering as origin; a kept one
 * keeps an intact origin, and `rendered` says when this run's rendering differs
 * (drift). A kept one without an intact origin (generated before origins were
 * kept, or its record lost) takes its own text if still as created, else this
 * rendering: what it drifted from is unknown, and a guess would be a false report.
 */
function scaffoldOrigin({ file, hash, change, recorded, originOnDisk, untouched }: OriginInput): { record: FileRecord; write?: Action } {
  // Deleted by the user: no drift to report, the origin stays as it is for a --force that brings the file back.
  if (change === 'skip') return { record: { kind: 'scaffold', sha256: recorded! } };
  const record = (origin: string): FileRecord => ({ kind: 'scaffold', sha256: origin, ...(origin === hash ? {} : { rendered: hash }) });
  if (change === 'keep' && recorded !== undefined && originOnDisk === recorded) return { record: record(recorded) };
  const contents = (change === 'keep' ? untouched : undefined) ?? file.contents;
  const origin = sha256(contents);
  if (originOnDisk === origin) return { record: record(origin) };
  const path = originPath(file.path);
  return { record: record(origin), write: { path, kind: 'origin', change: originOnDisk === undefined ? 'create' : 'update', contents, sha256: origin } };
}

/** Every path a plan looks at: the files produced, those the last run recorded, and the scaffolds' origins. */
export function pathsToRead(files: readonly OutputFile[], previous: Manifest | undefined): string[] {
  const recorded = Object.entries(previous?.files ?? {});
  const scaffolds = [...files.filter((file) => file.kind === 'scaffold').map((file) => file.path), ...recorded.filter(([, entry]) => entry.kind === 'scaffold').map(([path]) => path)];
  return [...new Set([...files.map((file) => file.path), ...recorded.map(([path]) => path), ...scaffolds.map(originPath)])];
}

/** Kept scaffolds whose origin is not intact but which are still as created: planWrite wants their text (PlanInput.untouched). */
export function originsToRecover(files: readonly OutputFile[], previous: Manifest | undefined, disk: DiskState): string[] {
  return files
    .filter((file) => file.kind === 'scaffold')
    .map((file) => file.path)
    .filter((path) => {
      const recorded = previous?.files[path]?.sha256;
      return recorded !== undefined && disk.get(path) === recorded && disk.get(originPath(path)) !== recorded;
    });
}

/** Scaffolds whose latest rendering differs from their origin and that are still there (one the user deleted is not drift). */
export function driftedScaffolds(files: Manifest['files'], disk: DiskState): string[] {
  return Object.entries(files)
    .filter(([path, entry]) => entry.rendered !== undefined && disk.get(path) !== undefined)
    .map(([path]) => path)
    .sort(byText);
}

/** `ours`: the manifest records the file, so a difference is a hand edit; else the file was never ours. */
function conflictFor({ path, ours, outDir, verb }: { path: string; ours: boolean; outDir: string; verb: 'overwrite' | 'delete' }): Diagnostic {
  return ours
    ? diagnostic('OUTPUT_HAND_EDITED', `${path} was edited by hand; refusing to ${verb} it`, { file: `${outDir}/${path}` })
    : diagnostic('OUTPUT_NOT_OURS', `${path} exists and was not written by specforge; refusing to ${verb} it`, { file: `${outDir}/${path}` });
}

export type Finding = { path: string; problem: 'missing' | 'stale' | 'hand-edited' | 'orphaned' | 'not generated by specforge' };

/** What `specforge check` reports: every way the files on disk differ from a fresh run. */
export function findDrift({ files, previous, disk }: Omit<PlanInput, 'force' | 'outDir'>): Finding[] {
  const findings: Finding[] = [];
  const produced = new Set(files.map((file) => file.path));
  for (const file of files) {
    if (file.kind === 'scaffold') continue; // the user's: any content is right
    const onDisk = disk.get(file.path);
    const recorded = previous?.files[file.path]?.sha256;
    if (onDisk === undefined) findings.push({ path: file.path, problem: 'missing' });
    else if (onDisk === sha256(file.contents)) continue;
    else if (recorded === undefined) findings.push({ path: file.path, problem: 'not generated by specforge' });
    else findings.push({ path: file.path, problem: onDisk === recorded ? 'stale' : 'hand-edited' });
  }
  for (const [path, entry] of Object.entries(previous?.files ?? {})) {
    if (!produced.has(path) && entry.kind === 'generated' && disk.get(path) !== undefined) findings.push({ path, problem: 'orphaned' });
  }
  return findings.sort(byPath);
}
