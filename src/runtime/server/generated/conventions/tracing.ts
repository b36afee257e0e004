/**
 * OpenTelemetry, where the project has `@opentelemetry/api` installed: a
 * server span around every request, the child of the caller's `traceparent`,
 * named by its route template. Without an SDK registered the API records
 * nothing; with one (`node --import ./telemetry.js dist/main.js`) the spans
 * are exported. Without the package, nothing is loaded and the access line
 * still carries the caller's trace id (`traceIdOf`).
 */
import type { IncomingHttpHeaders } from 'node:http';

/** The parts of `@opentelemetry/api` used here: the service does not depend on it. */
interface SpanContext {
  traceId: string;
  spanId: string;
}
interface Span {
  spanContext(): SpanContext;
  setAttribute(key: string, value: string | number): unknown;
  updateName(name: string): unknown;
  setStatus(status: { code: number }): unknown;
  end(): void;
}
interface OpenTelemetryApi {
  context: {
    active(): unknown;
    with<T>(context: unknown, run: () => T): T;
  };
  propagation: {
    extract(context: unknown, carrier: IncomingHttpHeaders): unknown;
  };
  trace: {
    getTracer(name: string): {
      startSpan(
        name: string,
        options: { kind: number; attributes: Record<string, string> },
        context: unknown,
      ): Span;
    };
    setSpan(context: unknown, span: Span): unknown;
    /** The global provider: a proxy for the SDK's, once one is registered. */
    getTracerProvider(): { getDelegate?(): unknown };
  };
  /** Its delegate without an SDK is the API's no-op provider. */
  ProxyTracerProvider?: new () => { getDelegate(): unknown };
  SpanKind: { SERVER: number };
  SpanStatusCode: { ERROR: number };
}

/**
 * Opens a request's span; `finish` names it by its route and ends it with
 * the status. None while no SDK is registered: the API's spans would record
 * nothing, and the access line then carries the caller's trace id.
 */
export interface Tracing {
  start(
    method: string,
    path: string,
    headers: IncomingHttpHeaders,
  ):
    | {
        ids: SpanContext;
        within<T>(run: () => T): T;
        finish(route: string | undefined, status: number): void;
      }
    | undefined;
}

/** The installed API, or undefined (a variable specifier: the project need not have it). */
async function installedApi(): Promise<OpenTelemetryApi | undefined> {
  const specifier = '@opentelemetry/api';
  try {
    return (await import(specifier)) as OpenTelemetryApi;
  } catch {
    return undefined;
  }
}

export function tracingWith(api: OpenTelemetryApi, name: string): Tracing {
  const tracer = api.trace.getTracer(name);
  const noSdk = api.ProxyTracerProvider && new api.ProxyTracerProvider().getDelegate();
  return {
    start(method, path, headers) {
      // An SDK may be registered at any time: asked on every request (a property read).
      if (noSdk !== undefined && api.trace.getTracerProvider().getDelegate?.() === noSdk)
        return undefined;
      const parent = api.propagation.extract(api.context.active(), headers);
      const span = tracer.startSpan(
        method,
        {
          kind: api.SpanKind.SERVER,
          attributes: { 'http.request.method': method, 'url.path': path },
        },
        parent,
      );
      const active = api.trace.setSpan(parent, span);
      return {
        ids: span.spanContext(),
        within: (run) => api.context.with(active, run),
        finish(route, status) {
          if (route !== undefined) {
            span.updateName(`${method} ${route}`);
            span.setAttribute('http.route', route);
          }
          span.setAttribute('http.response.status_code', status);
          if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
  };
}

/** `@opentelemetry/api` where installed: looked for once, as the service starts. */
const openTelemetry = await installedApi();

/** Spans named for the service, where `@opentelemetry/api` is installed. */
export function tracingFor(service: string): Tracing | undefined {
  return openTelemetry && tracingWith(openTelemetry, service);
}

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;

/** The trace id of a valid W3C `traceparent`. */
export function traceIdOf(traceparent: string | undefined): string | undefined {
  return validTraceId(traceparent === undefined ? undefined : TRACEPARENT.exec(traceparent)?.[1]);
}

/** The id, unless it is none (all zeros: what the API's no-op span reports). */
export function validTraceId(traceId: string | undefined): string | undefined {
  return traceId === undefined || /^0+$/.test(traceId) ? undefined : traceId;
}
