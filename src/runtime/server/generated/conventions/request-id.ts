/**
 * `X-Request-Id` on every response: the caller's own, when it sent a
 * sensible one (so one id follows a request across services), or a new one.
 */
import { randomUUID } from 'node:crypto';
import type { ParameterizedContext } from 'koa';
import { setAnswerHeader } from './answer-headers.js';
import type { ServiceState } from './state.js';

const SENSIBLE = /^[\w.:@/+=-]{1,128}$/;

export function assignRequestId(ctx: ParameterizedContext<ServiceState>): void {
  const given = ctx.req.headers['x-request-id'];
  ctx.state.requestId = typeof given === 'string' && SENSIBLE.test(given) ? given : randomUUID();
  setAnswerHeader(ctx, 'X-Request-Id', ctx.state.requestId);
}
