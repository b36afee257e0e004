/**
 * `X-Request-Id` on every response: the caller's own, when it sent a
 * sensible one (so one id follows a request across services), or a new one:
 * this process's random prefix and its count of requests. Unique across
 * instances and restarts as a random UUID is, at the price of a counter
 * (a random UUID per request was 1% of a GET by id's CPU in a profile).
 */
import { randomBytes } from 'node:crypto';
import type { ParameterizedContext } from 'koa';
import { setAnswerHeader } from './answer-headers.js';
import type { ServiceState } from './state.js';

const SENSIBLE = /^[\w.:@/+=-]{1,128}$/;

/** 72 random bits: a prefix shared by two processes becomes likely only among some 10^11 of them. */
const PREFIX = `${randomBytes(9).toString('base64url')}-`;
let issued = 0;

/** A request id of this process's: never one it gave before. */
export function newRequestId(): string {
  return PREFIX + String(++issued);
}

export function assignRequestId(ctx: ParameterizedContext<ServiceState>): void {
  const given = ctx.req.headers['x-request-id'];
  ctx.state.requestId = typeof given === 'string' && SENSIBLE.test(given) ? given : newRequestId();
  setAnswerHeader(ctx, 'X-Request-Id', ctx.state.requestId);
}
