/** Reading servers (OpenAPI §4.8.5). */

/** The path part of a server URL (`http://host/api` → `/api`, `/api/` → `/api`). */
export function basePathOf(url: string): string {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return path.replace(/\/+$/, '');
}
