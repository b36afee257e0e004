/**
 * Where a spec's `$ref`s may lead: files inside the folders the user put the
 * spec in. A spec is untrusted input; a `$ref` to `../../.ssh/id_rsa` or
 * `/etc/passwd` would otherwise copy that file into the merged spec, the
 * types and the validators.
 */
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * The folders a spec's references may reach, as real paths: the spec's git
 * repository (the nearest ancestor folder with `.git`) or, outside one, the
 * spec's own folder tree; and `--ref-root` when given, which widens that.
 */
export function refRootsOf(specFile: string, refRoot?: string): string[] {
  const folder = dirname(resolve(specFile));
  const roots = [repositoryOf(folder) ?? folder];
  if (refRoot !== undefined) roots.push(resolve(refRoot));
  return roots.map(realLocation);
}

function repositoryOf(folder: string): string | undefined {
  for (let at = folder; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * The real path of a file that may not exist: its nearest existing
 * ancestor's real path (symlinks resolved), with the rest appended.
 */
export function realLocation(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realLocation(parent), basename(path));
  }
}

export function isInside(folder: string, path: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || (rest !== '..' && !rest.startsWith('..' + sep) && !isAbsolute(rest));
}

/** Whether a file may be read for a `$ref`: inside a root, symlinks followed. */
export function mayReference(roots: readonly string[], file: string): boolean {
  const real = realLocation(file);
  return roots.some((root) => isInside(root, real));
}

export type RefKind = 'local' | 'relative' | 'absolute' | 'remote';

/**
 * What a `$ref` names: a place in the same file (`#…`), a file relative to
 * the one holding it, an absolute path or `file:` URL (a place on one
 * machine), or another URL.
 */
export function refKind(ref: string): RefKind {
  if (ref.startsWith('#')) return 'local';
  if (/^file:/i.test(ref) || ref.startsWith('/') || ref.startsWith('\\') || /^[a-z]:[\\/]/i.test(ref)) return 'absolute';
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) return 'remote';
  return 'relative';
}
