/**
 * The outermost middleware: every request, answered by the API, the
 * service's own addresses or a CORS preflight, gets its request id, runs in
 * its request scope and trace span, and leaves one access line: method,
 * route template (never the path, which may carry what the caller typed),
 * status, duration, request id, principal id, trace id. The line is written
 * once the answer is sent (or the connection dropped), so a stream's
 * duration is the whole stream's.
 */
import type { Middleware, ParameterizedContext } from 'koa';
import { gatherHeaders, setAnswerHeader } from './answer-headers.js';
import { accessWriterOf, type AccessLine, type Logger } from './logger.js';
import { requestScope } from './logging.js';
import { assignRequestId } from './request-id.js';
import type { ServiceState } from './state.js';
import { traceIdOf, validTraceId, type Tracing } from './tracing.js';

export interface ObserveOptions {
  logger: Logger;
  /** Whether the request's asynchronous work knows its request id (`asyncContextFromEnv`). */
  asyncContext: boolean;
  /** Spans where OpenTelemetry is installed (tracing.ts). */
  tracing?: Tracing | undefined;
  /** Whether the conventions' headers wait to go out with the answer (answer-headers.ts): only where no middleware of the user's can look at them. */
  gatherHeaders?: boolean;
}

export function observeRequests(options: ObserveOptions): Middleware<ServiceState> {
  const { tracing } = options;
  const access = options.logger.isLevelEnabled('info');
  const writeAccess = accessWriterOf(options.logger);
  return (ctx, next) => {
    const started = performance.now();
    if (options.gatherHeaders) gatherHeaders(ctx);
    assignRequestId(ctx);
    // Every answer, errors and preflights included: a browser must not read an error's text as HTML.
    setAnswerHeader(ctx, 'X-Content-Type-Options', 'nosniff');
    const span = tracing?.start(ctx.method, ctx.path, ctx.headers);
    // A span of no SDK (the API's no-op) has no trace: the caller's is logged then.
    const traceparent = ctx.req.headers.traceparent;
    const traceId =
      validTraceId(span?.ids.traceId) ??
      traceIdOf(typeof traceparent === 'string' && traceparent !== '' ? traceparent : undefined);
    // 'close' comes once per response: `on` spares the wrapper `once` makes.
    ctx.res.on('close', () => {
      const status = ctx.res.headersSent ? ctx.res.statusCode : 499;
      span?.finish(ctx.state.route, status);
      if (access) writeAccess(accessLine(ctx, status, performance.now() - started, traceId));
    });
    const answer = span ? () => span.within(next) : next;
    // What the request sets off, awaited or not, is then logged under its id (logging.ts).
    return options.asyncContext
      ? requestScope.run({ requestId: ctx.state.requestId }, answer)
      : answer();
  };
}

/** The access line's fields: nothing a caller sent but the method and a valid trace id. */
function accessLine(
  ctx: ParameterizedContext<ServiceState>,
  status: number,
  durationMs: number,
  traceId: string | undefined,
): AccessLine {
  const line: AccessLine = {
    requestId: ctx.state.requestId,
    method: ctx.method,
    route: ctx.state.route ?? '(none)',
    status,
    durationMs: Math.round(durationMs * 100) / 100,
  };
  if (ctx.state.principal) line.principal = ctx.state.principal.id;
  if (traceId) line.traceId = traceId;
  return line;
}
