/**
 * The conventions every request passes before its route, in order: request
 * id, identity, rate limit, requested version; and, around everything after,
 * the error envelope. One middleware, so a request pays for one layer.
 * Every answer, errors included, says `X-Content-Type-Options: nosniff`: a
 * browser must not read an error's text as HTML.
 */
import type { Middleware, Next, ParameterizedContext } from 'koa';
import { identify, type Authenticate } from './auth.js';
import { countRequest, type RateLimitOptions } from './rate-limit.js';
import { requestScope } from './logging.js';
import { assignRequestId } from './request-id.js';
import { answerError, type ErrorLogger } from './respond.js';
import type { ServiceRoutes } from './service-routes.js';
import type { ServiceState } from './state.js';
import { checkAcceptedVersion } from './versioning.js';

export interface RequestConventions {
  authenticate: Authenticate;
  /** The headers API keys come in, as the spec's security schemes name them. */
  apiKeyHeaders: readonly string[];
  rateLimit: RateLimitOptions;
  /** The version the `Accept` header may ask for; undefined when the header mechanism is off. */
  acceptedVersion: number | undefined;
  log: ErrorLogger;
  /** Whether the request's asynchronous work knows its request id (`asyncContextFromEnv`). */
  asyncContext: boolean;
  /** The service's own addresses (health, spec, docs: service-routes.ts), answered before identity and the rate limit. */
  serviceRoutes?: ServiceRoutes;
}

export function requestConventions(options: RequestConventions): Middleware<ServiceState> {
  return async (ctx, next) => {
    assignRequestId(ctx);
    ctx.set('X-Content-Type-Options', 'nosniff');
    // What the request sets off, awaited or not, is then logged under its id (logging.ts).
    if (options.asyncContext)
      await requestScope.run({ requestId: ctx.state.requestId }, () =>
        answered(ctx, next, options),
      );
    else await answered(ctx, next, options);
  };
}

/** The conventions, the route, and the error envelope for whatever either throws. */
async function answered(
  ctx: ParameterizedContext<ServiceState>,
  next: Next,
  options: RequestConventions,
): Promise<void> {
  try {
    if (options.serviceRoutes && (await options.serviceRoutes(ctx))) return;
    // Each awaited only when it returns a promise: a request that needs none waits for none.
    const identifying = identify(ctx, options.authenticate, options.apiKeyHeaders);
    if (identifying) await identifying;
    // Counted before anything can refuse the request, so every answer carries the rate-limit headers.
    const counting = countRequest(ctx, options.rateLimit);
    if (counting) await counting;
    if (options.acceptedVersion !== undefined) checkAcceptedVersion(ctx, options.acceptedVersion);
    await next();
  } catch (caught) {
    answerError(ctx, caught, options.log);
  }
}
