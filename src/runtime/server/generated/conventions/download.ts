/**
 * A file answer: the bytes or the stream a handler returns, sent as they are
 * (no envelope) with the headers a download needs: its media type, length,
 * `Content-Disposition`, and the caching headers of a conditional GET. Bytes
 * in memory get a strong ETag from their content; a stream only the one its
 * handler gives, as hashing it would mean reading it all first.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Context } from 'koa';
import { entityTag, notModified } from './caching.js';
import { errors } from './errors.js';
import { mediaTypeMatches } from './body.js';
import type { AnswerRule } from './operation.js';

export interface FileAnswer {
  body: Buffer | Uint8Array | string | NodeJS.ReadableStream | ReadableStream<Uint8Array>;
  /** Default: the one media type the response declares, else `application/octet-stream`. */
  mediaType?: string;
  /** In bytes, exactly: a stream's Content-Length. */
  size?: number;
  /** Sent as `Content-Disposition`; the client saves the file under it. */
  filename?: string;
  /** Default: `attachment` (saved, not shown). */
  disposition?: 'inline' | 'attachment';
  /** A stream's strong ETag, quoted (bytes in memory get theirs from their content). */
  etag?: string;
  lastModified?: Date;
}

export interface FileRule {
  status: number;
  /** The media types the success response declares. */
  mediaTypes: string[];
  cacheControl: string;
}

export async function sendFile(ctx: Context, answer: FileAnswer, rule: FileRule): Promise<void> {
  const body = bodyOf(answer.body);
  let mediaType: string;
  try {
    mediaType = mediaTypeOf(answer, rule.mediaTypes);
  } catch (error) {
    if (!Buffer.isBuffer(body)) body.destroy(); // refused unread: its file descriptor is closed
    throw error;
  }
  const tag = Buffer.isBuffer(body) ? entityTag(body) : answer.etag;
  if ((ctx.method === 'GET' || ctx.method === 'HEAD') && conditional(ctx, answer, rule, tag)) {
    if (!Buffer.isBuffer(body)) body.destroy(); // never read: its file descriptor is closed
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  ctx.status = rule.status;
  ctx.set('Content-Type', mediaType);
  if (answer.filename !== undefined || answer.disposition !== undefined)
    ctx.set(
      'Content-Disposition',
      contentDisposition(answer.disposition ?? 'attachment', answer.filename ?? ''),
    );
  if (ctx.method === 'HEAD' && !Buffer.isBuffer(body)) {
    body.destroy();
    // An empty stream in its place: Koa sends no body for HEAD, and claims no length for a stream.
    ctx.body = Readable.from([]);
  } else ctx.body = body;
  if (!Buffer.isBuffer(body) && answer.size !== undefined) ctx.length = answer.size;
}

/**
 * RFC 6266: `attachment; filename="…"`, plus RFC 8187's `filename*` for a
 * name the quoted form cannot carry (non-ASCII, or `%`, which some clients
 * decode); control characters become `_`, quotes and backslashes are escaped.
 */
export function contentDisposition(disposition: 'inline' | 'attachment', filename: string): string {
  if (filename === '') return disposition;
  const safe = filename.replace(/[\u0000-\u001f\u007f]/g, '_');
  const fallback = safe.replace(/[^\u0020-\u007e]|%/g, '_').replace(/["\\]/g, '\\$&');
  const header = `${disposition}; filename="${fallback}"`;
  return /[^\u0020-\u007e]|%/.test(safe) ? `${header}; filename*=UTF-8''${extValue(safe)}` : header;
}

/** RFC 8187 §3.2: UTF-8 bytes, percent-encoded but for `attr-char`s (a lone surrogate becomes U+FFFD). */
function extValue(text: string): string {
  let encoded = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9!#$&+\-.^_`|~]/.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/** The answer's media type, which the response must declare: another is the handler's mistake (a 500). */
function mediaTypeOf(answer: FileAnswer, declared: string[]): string {
  const only = declared.length === 1 && !declared[0]!.includes('*') ? declared[0] : undefined;
  const mediaType = answer.mediaType ?? only ?? 'application/octet-stream';
  if (declared.length > 0 && !mediaTypeMatches(mediaType, declared))
    throw new Error(
      `The handler answered ${mediaType}, which the operation's response does not declare (${declared.join(', ')}).`,
    );
  return mediaType;
}

/** Bytes as a Buffer (Koa would send any other Uint8Array as JSON), a stream as a Node stream. */
function bodyOf(body: FileAnswer['body']): Buffer | Readable {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array)
    return Buffer.isBuffer(body)
      ? body
      : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ReadableStream)
    return Readable.fromWeb(body as WebReadableStream<Uint8Array>);
  return body instanceof Readable ? body : new Readable().wrap(body);
}

/** Sets the caching headers; true when the client's copy is current and the answer is 304. */
function conditional(
  ctx: Context,
  answer: FileAnswer,
  rule: FileRule,
  tag: string | undefined,
): boolean {
  const lastModified = answer.lastModified ? { lastModified: answer.lastModified } : {};
  if (tag !== undefined)
    return notModified(ctx, { tag, cacheControl: rule.cacheControl, ...lastModified });
  ctx.set('Cache-Control', rule.cacheControl);
  if (answer.lastModified && !Number.isNaN(answer.lastModified.getTime()))
    ctx.set('Last-Modified', answer.lastModified.toUTCString());
  return false;
}

/** A route's answer that is a file: `undefined` from the handler is a 404. */
export function fileAnswer(rule: FileRule): AnswerRule {
  return {
    send: async (ctx: Context, result: unknown) => {
      if (result === undefined) throw errors.notFound();
      await sendFile(ctx, result as FileAnswer, rule);
    },
  };
}
