/**
 * --out: the one folder a run may change. It is resolved once, here (a link
 * the user gave is followed, and no link below it ever is), and refused where
 * generating would spill the project over something that is not its own.
 */
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, parse, resolve } from 'node:path';
import { fail } from '../diagnostics.js';
import { MANIFEST_PATH } from './manifest.js';

/** The real path of `--out`, or a diagnostic (OUTPUT_TARGET_REFUSED) saying why it may not be written to. */
export function outputFolder(out: string, spec: string): string {
  const refuse = (why: string): never => fail('OUTPUT_TARGET_REFUSED', `--out ${JSON.stringify(out)} ${why}; refusing to generate into it`, { file: out });
  if (out.trim() === '') refuse('is empty (it would mean the current folder)');
  if (/^[A-Za-z]:[\\/]*$/.test(out)) refuse('is the root of a drive');
  const folder = realPath(out);
  if (folder === parse(folder).root) refuse('is the root of the file system');
  if (existsSync(folder) && !statSync(folder).isDirectory()) refuse('is not a folder');
  if (homeFolders().includes(folder)) refuse('is your home folder');
  const specFile = realPath(spec);
  if (folder === dirname(specFile) && !emptyButFor(folder, basename(specFile)) && !existsSync(join(folder, MANIFEST_PATH))) {
    refuse('is the folder that holds the spec, and other files; only an empty folder or one specforge generated is written to');
  }
  return folder;
}

/** `path` resolved with every link in it followed, as far as it exists (the rest appended as given). */
function realPath(path: string): string {
  const absolute = resolve(path);
  if (existsSync(absolute)) return realpathSync(absolute);
  const parent = dirname(absolute);
  return parent === absolute ? absolute : join(realPath(parent), basename(absolute));
}

/** os.homedir() and $HOME, which may differ (a sudo, a container). */
function homeFolders(): string[] {
  return [homedir(), process.env.HOME].filter((home): home is string => Boolean(home)).map(realPath);
}

function emptyButFor(folder: string, name: string): boolean {
  return readdirSync(folder).every((entry) => entry === name);
}
