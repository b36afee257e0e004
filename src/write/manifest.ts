/**
 * `.specforge/manifest.json`: what the last run generated, with content
 * hashes, and a fingerprint of its inputs. It is how a regeneration tells a
 * file we wrote from one a person edited, and how an unchanged spec is
 * recognised without running the pipeline.
 */
import { createHash } from 'node:crypto';
import { diagnostic, SpecforgeError } from '../diagnostics.js';
import type { FileKind } from '../render/index.js';

export const MANIFEST_PATH = '.specforge/manifest.json';
export const MANIFEST_VERSION = 1;

export interface Manifest {
  manifestVersion: number;
  generator: string;
  /** The spec's files, relative to the root spec's directory, with their hashes. */
  inputs: { path: string; sha256: string }[];
  /** Hash of everything else that shapes the output: templates, generator version. */
  settings: string;
  files: Record<string, { kind: FileKind; sha256: string }>;
}

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

export function serializeManifest(manifest: Manifest): string {
  const files = Object.fromEntries(Object.entries(manifest.files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify({ ...manifest, files }, null, 2) + '\n';
}

export function parseManifest(text: string, file: string): Manifest {
  try {
    const value = JSON.parse(text) as Manifest;
    if (value.manifestVersion !== MANIFEST_VERSION || typeof value.files !== 'object') throw new Error('unknown manifest version');
    return value;
  } catch (error) {
    throw new SpecforgeError([
      diagnostic('MANIFEST_INVALID', `Cannot read the manifest: ${(error as Error).message}`, { file }),
    ]);
  }
}
