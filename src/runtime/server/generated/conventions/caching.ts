/**
 * Conditional reads (conventions §4 rule 3): a strong ETag over what the
 * response says about the resource (its `data` and `pagination`, not the
 * `meta.timestamp` of the moment), `If-None-Match` → 304 with no body,
 * `Last-Modified` from the resource's update time, and `Cache-Control`.
 */
import { hash } from 'node:crypto';
import type { Context } from 'koa';
import { setAnswerHeader } from './answer-headers.js';

/** A strong tag from the serialized representation, or a file's bytes (SHA-1: collisions by chance are not a concern here, speed is). */
export function entityTag(serialized: string | Uint8Array): string {
  return `"${hash('sha1', serialized, 'base64url')}"`;
}

/** RFC 9110 §13.1.2: `If-None-Match` compares weakly; `*` matches any current representation. */
export function matchesIfNoneMatch(header: string, tag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === tag);
}

/**
 * Sets the caching headers; true when the client's copy is current and the
 * answer is 304. `lastModified` is a time, or one already written as HTTP writes it.
 */
export function notModified(
  ctx: Context,
  options: { tag: string; cacheControl: string; lastModified?: Date | string },
): boolean {
  // Not Koa's ctx.set, which makes arrays and closures on every call.
  setAnswerHeader(ctx, 'ETag', options.tag);
  setAnswerHeader(ctx, 'Cache-Control', options.cacheControl);
  const { lastModified } = options;
  if (typeof lastModified === 'string') setAnswerHeader(ctx, 'Last-Modified', lastModified);
  else if (lastModified && !Number.isNaN(lastModified.getTime()))
    setAnswerHeader(ctx, 'Last-Modified', lastModified.toUTCString());
  // Node's own header, not Koa's ctx.get: no lower-casing and delegating on every GET.
  const ifNoneMatch = ctx.req.headers['if-none-match'];
  return (
    ifNoneMatch !== undefined && ifNoneMatch !== '' && matchesIfNoneMatch(ifNoneMatch, options.tag)
  );
}

/** The latest of the given times, skipping values that are not dates. */
export function latest(values: unknown[]): Date | undefined {
  let best: number | undefined;
  for (const value of values) {
    const time =
      typeof value === 'string' || value instanceof Date ? new Date(value).getTime() : NaN;
    if (!Number.isNaN(time) && (best === undefined || time > best)) best = time;
  }
  return best === undefined ? undefined : new Date(best);
}
