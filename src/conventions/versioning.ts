/**
 * Versioning (conventions §9): the `/v<N>` segment after the optional `/api`
 * prefix. A spec that already carries a version segment (in its servers or
 * in every path) keeps it, and its N wins; otherwise the segment is appended
 * to the servers' base path.
 */
import type { VersioningMechanism } from '../config.js';
import type { OpenApiDocument } from '../openapi/document.js';
import { basePathOf } from '../openapi/servers.js';

const VERSION_SEGMENT = /\/v(\d+)(?=\/|$)/;

/** The version a spec already shows in its servers or paths, if any. */
export function declaredVersion(document: OpenApiDocument): number | undefined {
  for (const server of document.servers ?? []) {
    const match = VERSION_SEGMENT.exec(basePathOf(server.url));
    if (match) return Number(match[1]);
  }
  const paths = Object.keys(document.paths ?? {});
  const versions = new Set(paths.map((path) => VERSION_SEGMENT.exec(path)?.[1]));
  const [only] = versions;
  return versions.size === 1 && only !== undefined && paths.length > 0 ? Number(only) : undefined;
}

export function applyVersionSegment(document: OpenApiDocument, mechanism: VersioningMechanism, version: number): void {
  if (mechanism !== 'url' && mechanism !== 'both') return;
  if (declaredVersion(document) !== undefined) return;
  // Where the paths themselves start with /api, the segment goes after it (/api/v1/books).
  const paths = Object.keys(document.paths ?? {});
  if (paths.length > 0 && paths.every((path) => /^\/api(\/|$)/.test(path))) {
    document.paths = Object.fromEntries(
      Object.entries(document.paths!).map(([path, item]) => [path.replace(/^\/api/, `/api/v${version}`), item]),
    );
    return;
  }
  const servers = document.servers?.length ? document.servers : [{ url: '' }];
  document.servers = servers.map((server) => ({ ...server, url: `${server.url.replace(/\/+$/, '')}/v${version}` }));
}
