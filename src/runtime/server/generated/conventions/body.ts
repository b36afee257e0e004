/**
 * Reads a JSON request body: 415 for another media type, 413 past the size
 * limit (before reading, when Content-Length already says so), 400 for text
 * that is not JSON, 413 for JSON nested too deep or with too many members
 * (checked before validation: a validator, a store or a serializer that
 * recurses would fail on it). A client that hangs up mid-body gets no answer
 * and is no error of ours. The body is validated afterwards, with the parameters.
 */
import type { Context } from 'koa';
import { errors } from './errors.js';

export interface BodyRule {
  /** The media types the operation declares for its body. */
  contentTypes: string[];
  required: boolean;
  /** In bytes. */
  limit: number;
}

/** How much structure a parsed body may have, whatever its size in bytes. */
export interface BodyBounds {
  /** Nesting levels: `{"a":[1]}` has 2. */
  maxDepth: number;
  /** Object members and array elements, all levels together. */
  maxMembers: number;
}

/** `NO_BODY` when the request has none: validation reports it if the body is required. */
export const NO_BODY = Symbol('no body');

export async function readJsonBody(
  ctx: Context,
  rule: BodyRule,
  bounds: BodyBounds,
): Promise<unknown> {
  if (ctx.request.length === 0) return NO_BODY;
  const type = ctx.request.is('json', '+json');
  if (type === null) return NO_BODY; // Koa's answer when the request has no body at all
  if (type === false) throw errors.unsupportedMediaType(rule.contentTypes);
  const text = await readText(ctx, rule.limit);
  if (text.trim() === '') return NO_BODY;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw errors.badRequest(`The request body is not valid JSON: ${(error as Error).message}`);
  }
  checkBounds(body, bounds);
  return body;
}

/** 413 when the body nests deeper or holds more members than `bounds`; walked without recursion. */
export function checkBounds(body: unknown, { maxDepth, maxMembers }: BodyBounds): void {
  const pending: { value: unknown; depth: number }[] = [{ value: body, depth: 1 }];
  let members = 0;
  while (pending.length > 0) {
    const { value, depth } = pending.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > maxDepth)
      throw errors.bodyTooComplex(`The request body nests deeper than ${maxDepth} levels.`);
    const children = Array.isArray(value) ? value : Object.values(value);
    members += children.length;
    if (members > maxMembers)
      throw errors.bodyTooComplex(
        `The request body holds more than ${maxMembers} members and elements.`,
      );
    for (const child of children) pending.push({ value: child, depth: depth + 1 });
  }
}

/**
 * The body as text, or 413 past `limit`. Past the limit the rest is read and
 * dropped (up to a bound) before answering, so a client still sending gets to
 * read the 413 instead of a reset connection (RFC 9112 §9.6); past the bound,
 * or when Content-Length already says so, the connection is closed instead.
 */
function readText(ctx: Context, limit: number): Promise<string> {
  const bound = Math.max(4 * limit, 8 * 1024 * 1024);
  const tooLarge = (close: boolean) => {
    if (close) ctx.set('Connection', 'close');
    return errors.payloadTooLarge(limit);
  };
  if ((ctx.request.length ?? 0) > bound) return Promise.reject(tooLarge(true));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    ctx.req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > bound) {
        ctx.req.pause();
        reject(tooLarge(true));
      }
    });
    ctx.req.once('end', () =>
      size > limit ? reject(tooLarge(false)) : resolve(Buffer.concat(chunks).toString('utf8')),
    );
    // A client gone mid-body (an `aborted` error, or just `close`) is no failure of the service: no 500, nothing logged.
    ctx.req.once('error', (error) => reject(ctx.req.complete ? error : errors.clientGone()));
    ctx.req.once('close', () => reject(errors.clientGone())); // after `end`, a no-op
  });
}

/** Compares essences, case-insensitively; a pattern may be `type/*` or `*\/*`, parameters are ignored. */
export function mediaTypeMatches(mediaType: string, patterns: string[]): boolean {
  const [type, subtype] = essence(mediaType).split('/');
  return patterns.some((pattern) => {
    const [patternType, patternSubtype] = essence(pattern).split('/');
    if (patternType === '*') return patternSubtype === '*';
    return patternType === type && (patternSubtype === '*' || patternSubtype === subtype);
  });
}

/** `multipart/form-data; boundary=…` → `multipart/form-data`. */
export function essence(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}
