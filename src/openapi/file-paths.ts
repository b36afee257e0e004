/**
 * Which path holds an item's file, for the default store: read by the model's
 * uploads (render/targets/uploads.ts) and by the lint
 * (LINT_MEDIA_NOT_SERVED), so both name the same operations.
 */

/** A file GET, or a bytes PUT, at or below an item's path. */
export interface FileRoute {
  path: string;
  method: 'get' | 'put';
}

/**
 * The path whose file the store keeps for each item (`/documents/{id}/content`):
 * the only one with a file GET or a bytes PUT, else the only one with both;
 * none where that is ambiguous (two files per item are not modelled).
 */
export function filePathOf(routes: FileRoute[]): string | undefined {
  const paths = [...new Set(routes.map((route) => route.path))];
  if (paths.length <= 1) return paths[0];
  const has = (path: string, method: FileRoute['method']) => routes.some((route) => route.path === path && route.method === method);
  const both = paths.filter((path) => has(path, 'get') && has(path, 'put'));
  return both.length === 1 ? both[0] : undefined;
}

/** The item's path, or a path of fixed segments below it. */
export function isAtOrBelowItem(path: string, itemPath: string): boolean {
  return path === itemPath || (path.startsWith(`${itemPath}/`) && !path.slice(itemPath.length).includes('{'));
}
