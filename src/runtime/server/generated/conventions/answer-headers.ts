/**
 * The conventions' response headers (request id, nosniff, rate limit,
 * caching) and the JSON answer they go out with. Where nothing of the
 * user's runs around the routes (edge.ts), the headers wait in a list on
 * `ctx.state` and leave with the status in one `writeHead`, and the
 * operation writes its answer itself: Node then checks and joins the
 * headers once, with no table of them to fill, and Koa's `ctx.body` (which
 * sniffs the body's type and measures it again) is not needed. Under load
 * that made a GET by id a quarter faster. Anywhere else each header is set
 * on the response at once and Koa answers, as before: a user's middleware
 * may read or change them after `next()`.
 *
 * Whatever does not answer through `answerJson` (errors, the service's own
 * routes, CORS preflights) finds the waiting headers set on the response
 * before Koa answers (`releaseHeaders`, called by request.ts and cors.ts);
 * what writes its head early itself (an event stream) releases them first.
 */
import type { Context } from 'koa';
import type { ServiceState } from './state.js';

/** Any request's context: the conventions', a download's, an event stream's. */
type Answering = Pick<Context, 'res' | 'status' | 'body' | 'respond'> & {
  state: Pick<ServiceState, 'waitingHeaders'>;
};

/** What Koa makes of `ctx.type = 'application/json'`, set without looking the type up. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** Headers wait from here on, for `answerJson` (observe.ts: the first thing a request meets). */
export function gatherHeaders(ctx: Answering): void {
  ctx.state.waitingHeaders = [];
}

/** A header of the conventions: waiting, or set on the response at once. */
export function setAnswerHeader(ctx: Answering, name: string, value: string): void {
  const waiting = ctx.state.waitingHeaders;
  if (waiting) waiting.push(name, value);
  else ctx.res.setHeader(name, value);
}

/** The waiting headers, set on the response, for whatever answers next (Koa, a stream). */
export function releaseHeaders(ctx: Answering): void {
  const waiting = ctx.state.waitingHeaders;
  if (!waiting) return;
  ctx.state.waitingHeaders = undefined;
  if (ctx.res.headersSent) return;
  for (let index = 0; index < waiting.length; index += 2)
    ctx.res.setHeader(waiting[index]!, waiting[index + 1]!);
}

/** A JSON text in pieces, as they were made: texts, and bytes made once and kept (a page's). */
export type JsonParts = readonly (string | Buffer)[];

/** Answers `status` with a JSON text, or with no body (a 304). */
export function answerJson(ctx: Answering, status: number, json: JsonParts | undefined): void {
  const waiting = ctx.state.waitingHeaders;
  if (!waiting) {
    ctx.status = status;
    if (json === undefined) ctx.body = null;
    else {
      ctx.res.setHeader('Content-Type', JSON_TYPE);
      ctx.body = Buffer.concat(json.map((part) => (isText(part) ? Buffer.from(part) : part)));
    }
    return;
  }
  ctx.state.waitingHeaders = undefined;
  const { res } = ctx;
  // Texts alone go out as one: Node sends it with the head in one piece. Bytes (a page's, made
  // once) are written as they are, beside the texts: joining them would copy the page each time.
  const text = json?.every(isText) ? json.join('') : undefined;
  if (json !== undefined)
    waiting.push(
      'Content-Type',
      JSON_TYPE,
      'Content-Length',
      String(text === undefined ? byteLengthOf(json) : Buffer.byteLength(text)),
    );
  // Node leaves the body out of a HEAD's answer itself; Content-Length still says what GET sends.
  // A header Node refuses (a character HTTP does not allow) throws here, and Koa answers the error.
  res.writeHead(status, waiting);
  ctx.respond = false;
  if (json === undefined || text !== undefined) return void res.end(text);
  // Corked: the head and every part leave in one write (end uncorks).
  res.cork();
  for (let index = 0; index < json.length - 1; index++) res.write(json[index]);
  res.end(json[json.length - 1]);
}

const isText = (part: string | Buffer): part is string => typeof part === 'string';

function byteLengthOf(json: JsonParts): number {
  let length = 0;
  for (const part of json) length += isText(part) ? Buffer.byteLength(part) : part.length;
  return length;
}
