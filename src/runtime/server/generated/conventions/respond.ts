/**
 * Whatever a later step or a handler throws leaves as the error envelope
 * with the request id. Unexpected errors are logged here (with the request
 * id, never a credential: see logging.ts) and answered as a 500 that reveals
 * nothing. A 503 is not: a dependency that does not answer is logged where
 * it is found out, once per outage (rate-limit-redis.ts), not per request.
 */
import type { ParameterizedContext } from 'koa';
import { ApiError, asApiError, ERROR_CODES } from './errors.js';
import type { ErrorLogger } from './logging.js';
import type { ServiceState } from './state.js';

export function answerError(
  ctx: ParameterizedContext<ServiceState>,
  caught: unknown,
  log: ErrorLogger,
): void {
  const error = asApiError(caught);
  const outage = caught instanceof ApiError && error.status === ERROR_CODES.unavailable.status;
  if (error.status >= 500 && !outage)
    log({ requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, error: caught });
  ctx.status = error.status;
  ctx.set(error.headers);
  ctx.body = error.toEnvelope(ctx.state.requestId);
}
