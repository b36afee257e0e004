/**
 * Versioning (conventions §9). The URL segment is part of the routes' base
 * path (another version's path is simply not found); this middleware honours
 * `Accept: application/vnd.api+json;version=N` and answers an unknown N with 406.
 */
import type { Context } from 'koa';
import { errors } from './errors.js';

const VERSIONED_MEDIA_TYPE = /application\/vnd\.api\+json\s*;([^,]*)/gi;

export function checkAcceptedVersion(ctx: Context, current: number): void {
  const requested = requestedVersions(ctx.req.headers.accept ?? '');
  if (requested.length > 0 && !requested.includes(String(current))) {
    throw errors.notAcceptable(
      `Version ${requested.join(', ')} is not served; this service answers version ${current}.`,
    );
  }
}

/** The `version` parameters of every `application/vnd.api+json` entry in an Accept header. */
export function requestedVersions(accept: string): string[] {
  const versions: string[] = [];
  if (!accept.includes('vnd.api+json')) return versions; // the usual case, answered without a regular expression
  for (const [, parameters] of accept.matchAll(VERSIONED_MEDIA_TYPE)) {
    const version = /(?:^|;)\s*version\s*=\s*"?([^";\s]+)"?/i.exec(parameters ?? '')?.[1];
    if (version !== undefined) versions.push(version);
  }
  return versions;
}
