/**
 * The shape of every path specforge writes, deletes, backs up or reads below
 * a folder it was given. Paths come from the spec (through the renderers) and
 * from `.specforge/manifest.json`, which a pull request can carry: both are
 * untrusted, so each is checked here before it is joined to a folder.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Why `path` is not a portable relative path, or undefined when it is one:
 * `/`-separated, no empty, `.` or `..` segment, nothing a platform reads as a
 * root, a drive or a stream (`/…`, `\`, `C:`, `:`), no control characters.
 * `upward` lets it start with `..` segments (a spec's files, relative to its folder).
 */
export function pathProblem(path: string, { upward = false }: { upward?: boolean } = {}): string | undefined {
  if (path === '') return 'is empty';
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'contains a control character';
  if (path.includes('\\')) return 'contains a backslash';
  if (path.startsWith('/')) return 'is absolute';
  if (/^[A-Za-z]:/.test(path)) return 'starts with a drive letter';
  if (path.includes(':')) return 'contains a colon';
  const segments = path.split('/');
  const firstDown = upward ? segments.findIndex((segment) => segment !== '..') : 0;
  if (firstDown < 0) return 'names no file';
  for (const segment of segments.slice(firstDown)) {
    if (segment === '') return 'has an empty segment';
    if (segment === '.' || segment === '..') return `has a \`${segment}\` segment`;
  }
  return undefined;
}

/** pathProblem for a path meant to lie inside --out, as the end of a sentence that names it. */
export function outsideOutProblem(path: string): string | undefined {
  const problem = pathProblem(path);
  return problem === undefined ? undefined : `is not a path inside --out: it ${problem}`;
}

/** `path` is `folder` or lies below it (both absolute, or resolved against the same cwd); not a prefix test: `/x/out2` is not in `/x/out`. */
export function isInside(folder: string, path: string): boolean {
  const way = relative(resolve(folder), resolve(path));
  return !isAbsolute(way) && way.split(sep)[0] !== '..';
}
