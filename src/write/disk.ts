/**
 * The only module that writes: reads the state of the output directory and
 * carries out a plan. Each file is written to a temporary name and renamed,
 * so an interrupted run never leaves a half-written file.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sha256 } from '../hash.js';
import { MANIFEST_PATH, parseManifest, serializeManifest, type Manifest } from './manifest.js';
import type { DiskState, Plan } from './plan.js';


export function readManifest(outDir: string): Manifest | undefined {
  const file = join(outDir, MANIFEST_PATH);
  return existsSync(file) ? parseManifest(readFileSync(file, 'utf8'), file) : undefined;
}

export function readDiskState(outDir: string, paths: Iterable<string>): DiskState {
  const state = new Map<string, string | undefined>();
  for (const path of paths) {
    const file = join(outDir, path);
    state.set(path, existsSync(file) ? sha256(readFileSync(file)) : undefined);
  }
  return state;
}

export function applyPlan(outDir: string, plan: Plan, manifest: Manifest): void {
  for (const action of plan.actions) {
    const file = join(outDir, action.path);
    if (action.backupTo !== undefined) backup(file, join(outDir, action.backupTo));
    switch (action.change) {
      case 'overwrite':
      case 'create':
      case 'update':
        writeAtomically(file, action.contents!);
        break;
      case 'delete':
        unlinkSync(file);
        removeEmptyParents(outDir, dirname(file));
        break;
      default:
        break;
    }
  }
  writeAtomically(join(outDir, MANIFEST_PATH), serializeManifest(manifest));
}

/** Keeps a copy of a file about to be overwritten or deleted by --force: nothing a person wrote is lost. */
function backup(file: string, target: string): void {
  mkdirSync(dirname(target), { recursive: true });
  if (!existsSync(target)) copyFileSync(file, target); // the name is per content: an existing copy is this one
}

export function writeAtomically(file: string, contents: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.specforge-${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  try {
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

function removeEmptyParents(outDir: string, directory: string): void {
  let current = directory;
  while (current.startsWith(outDir) && current !== outDir && readdirSync(current).length === 0) {
    rmdirSync(current);
    current = dirname(current);
  }
}
