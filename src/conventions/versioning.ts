/**
 * Versioning (conventions §9): the `/v<N>` segment after the optional `/api`
 * prefix. A spec that already carries a version segment (in its servers or
 * in every path) keeps it, and its N wins. Otherwise the segment is added
 * where the spec asks for it (`versioning.version`) or leaves the conventions'
 * place for it (a base path ending in `/api`, or every path under `/api`).
 * A spec with neither describes URLs its clients already call (GitHub's
 * `https://api.github.com/repos/…`, whose info.version is 23.0.2): moving
 * them under a `/v<N>` taken from info.version would break every one of them,
 * so it is versioned by the Accept header alone.
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

/** Whether the spec asks for the URL segment itself: a `versioning.version`, or URL versioning named. */
export function asksForVersionSegment(extension: unknown): boolean {
  const versioning = (extension as { versioning?: { version?: number; mechanism?: string } } | undefined)?.versioning;
  return versioning?.version !== undefined || versioning?.mechanism === 'url' || versioning?.mechanism === 'both';
}

/** Adds the URL segment where it belongs; returns whether the URLs carry one. */
export function applyVersionSegment(
  document: OpenApiDocument,
  { mechanism, version, asked }: { mechanism: VersioningMechanism; version: number; asked: boolean },
): boolean {
  if (mechanism !== 'url' && mechanism !== 'both') return false;
  if (declaredVersion(document) !== undefined) return true;
  const paths = Object.keys(document.paths ?? {});
  const underApi = paths.length > 0 && paths.every((path) => /^\/api(\/|$)/.test(path));
  const servers = document.servers?.length ? document.servers : [{ url: '' }];
  const apiBase = servers.every((server) => /\/api\/*$/.test(basePathOf(server.url)));
  if (!asked && !underApi && !apiBase) return false;
  // Where the paths themselves start with /api, the segment goes after it (/api/v1/books).
  if (underApi) {
    document.paths = Object.fromEntries(
      Object.entries(document.paths!).map(([path, item]) => [path.replace(/^\/api/, `/api/v${version}`), item]),
    );
    return true;
  }
  document.servers = servers.map((server) => ({ ...server, url: `${server.url.replace(/\/+$/, '')}/v${version}` }));
  return true;
}
