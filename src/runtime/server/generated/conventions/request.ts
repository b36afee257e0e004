/**
 * The conventions every request passes before its route, in order (after
 * its request id: observe.ts): the service's own addresses, identity, rate
 * limit, requested version; and, around everything after, the error
 * envelope. One middleware, so a request pays for one layer.
 */
import type { Middleware, Next, ParameterizedContext } from 'koa';
import { releaseHeaders } from './answer-headers.js';
import { identify, type Authenticate } from './auth.js';
import { countRequest, type RateLimitOptions } from './rate-limit.js';
import type { ErrorLogger } from './logging.js';
import { answerError } from './respond.js';
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
  /** The service's own addresses (health, spec, docs: service-routes.ts), answered before identity and the rate limit. */
  serviceRoutes?: ServiceRoutes;
}

export function requestConventions(options: RequestConventions): Middleware<ServiceState> {
  return (ctx, next) => answered(ctx, next, options);
}

/** The conventions, the route, and the error envelope for whatever either throws. */
async function answered(
  ctx: ParameterizedContext<ServiceState>,
  next: Next,
  options: RequestConventions,
): Promise<void> {
  try {
    const own = options.serviceRoutes?.(ctx);
    if (own === true || (own !== undefined && own !== false && (await own))) {
      ctx.state.route = ctx.path; // one of a few fixed paths
      return;
    }
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
  } finally {
    // Koa answers what answerJson did not: with the headers that waited for it.
    releaseHeaders(ctx);
  }
}
