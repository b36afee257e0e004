/**
 * Cross-origin requests from the browser apps CORS_ORIGINS names
 * (comma-separated origins, or `*` for any): preflights answered before
 * identity and the rate limit (a preflight carries no credential), and the
 * headers a client reads exposed to its scripts. None set: no origin but the
 * service's own may call it from a browser.
 */
import cors from '@koa/cors';
import type { Middleware } from 'koa';
import { releaseHeaders } from './answer-headers.js';

/** What a browser app reads of an answer besides the basics: the conventions' headers. */
export const EXPOSED_HEADERS = [
  'X-Request-Id',
  'ETag',
  'Last-Modified',
  'Location',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Content-Disposition',
];

/** The origins allowed: `*`, or each a scheme, a host and a port at most (`https://app.example.com`). */
export function corsOriginsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] | '*' {
  const text = (env.CORS_ORIGINS ?? '').trim();
  if (text === '') return [];
  if (text === '*') return '*';
  return text.split(',').map((entry) => {
    const origin = entry.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    // A pattern (`https://*.example.com`) is no origin: each is named.
    if (!parsed || parsed.origin !== origin || !/^[a-z0-9.:[\]-]+$/i.test(parsed.host))
      throw new Error(
        `CORS_ORIGINS names ${JSON.stringify(origin)}, which is not an origin such as https://app.example.com (a scheme and a host, no path, no trailing slash).`,
      );
    return origin;
  });
}

/** The CORS middleware for these origins; undefined where none is allowed. */
export function corsFor(origins: string[] | '*'): Middleware | undefined {
  if (origins !== '*' && origins.length === 0) return undefined;
  const allowed = new Set(origins === '*' ? [] : origins);
  const middleware = cors({
    // An origin not allowed gets no Access-Control-Allow-Origin: the browser then refuses the answer.
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      return origins === '*' || allowed.has(origin) ? origin : '';
    },
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    keepHeadersOnError: true,
  });
  // A preflight is answered here, by Koa: the conventions' waiting headers go with it (answer-headers.ts).
  return (ctx, next) => {
    if (ctx.method === 'OPTIONS') releaseHeaders(ctx);
    return middleware(ctx, next);
  };
}
