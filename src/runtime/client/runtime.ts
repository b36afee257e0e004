/**
 * The client's runtime: no dependencies, global `fetch` only, so it runs in
 * Node 20+ and browsers alike. Retries with backoff that honour
 * `Retry-After`, timeouts, typed errors, paging iterators, an opt-in
 * conditional-GET cache, form and file bodies, file downloads and server-sent
 * events. `./index.ts` binds it to the API's operations.
 */
import { encodeBody, isStream, type BodyEncoding } from './bodies.js';
import { parseEvents, type EventStreamState, type ServerSentEvent } from './events.js';
import { queryPairs, type QueryStyle } from './styles.js';

export type { BodyEncoding, Bytes } from './bodies.js';
export type { ServerSentEvent } from './events.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 2). */
  retries?: number;
  /** Backoff base and cap, in ms: full jitter over `min(cap, base * 2^n)` (defaults 250 and 8000). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Statuses worth another try (default 429, 502, 503); network errors always are. */
  statuses?: number[];
  /** Methods that may be retried (default the idempotent ones: GET, HEAD, OPTIONS, PUT, DELETE). */
  methods?: string[];
  /** The longest `Retry-After` to wait for; longer ones fail at once (default 60 s). */
  maxRetryAfterMs?: number;
}

export interface ClientOptions {
  /** The server's URL with the API's base path, e.g. `https://api.example.com/api/v1`. */
  baseUrl: string;
  /** A Bearer token, or a function that returns a fresh one for each request. */
  token?: string | (() => string | Promise<string>);
  /** Sent as the API key header. */
  apiKey?: string;
  fetch?: typeof fetch;
  /** Sent with every request. */
  headers?: Record<string, string>;
  /** Per attempt; default 30 s. */
  timeoutMs?: number;
  /** `false` turns retries off. */
  retry?: RetryOptions | false;
  /** Asks for this API version with `Accept: application/vnd.api+json;version=N`. */
  version?: number;
  /** Keep ETags and answer unchanged GETs from memory when the server says 304. */
  cache?: boolean;
  /** Around every attempt, in order (`onResponse` in reverse): see `Middleware`. */
  middleware?: Middleware[];
  /**
   * After a 401, a new Bearer token: the request is sent once more with it,
   * and later requests use it. Concurrent 401s share one refresh.
   */
  refreshToken?: () => string | Promise<string>;
}

/** What an operation is, for middleware: its method and path as the spec writes them. */
export interface MiddlewareContext {
  operation: { method: string; path: string };
}

/**
 * Hooks around each attempt (a retry is an attempt of its own). Each may
 * return a replacement (a Request with a header added, another Response), or
 * nothing to keep what it was given. `onError` sees a failure to get any
 * answer (the network, a timeout) and may answer instead.
 */
export interface Middleware {
  onRequest?(
    context: MiddlewareContext & { request: Request },
  ): Request | undefined | void | Promise<Request | undefined | void>;
  onResponse?(
    context: MiddlewareContext & { request: Request; response: Response },
  ): Response | undefined | void | Promise<Response | undefined | void>;
  onError?(
    context: MiddlewareContext & { request: Request; error: unknown },
  ): Response | undefined | void | Promise<Response | undefined | void>;
}

/** Per call: cancel, add headers, change the timeout. */
export interface CallOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export interface ErrorDetail {
  field: string;
  message: string;
  code?: string;
}

/** The API answered with an error envelope (or an error status). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly request_id: string | undefined;
  readonly details: ErrorDetail[];
  readonly headers: Headers;

  constructor(status: number, body: unknown, headers: Headers) {
    const error = (
      body as
        | {
            error?: {
              code?: string;
              message?: string;
              request_id?: string;
              details?: ErrorDetail[];
              errors?: ErrorDetail[];
            };
          }
        | undefined
    )?.error;
    super(error?.message ?? `The API answered ${status}.`);
    this.name = 'ApiError';
    this.status = status;
    this.code = error?.code ?? `HTTP_${status}`;
    this.request_id = error?.request_id ?? headers.get('x-request-id') ?? undefined;
    this.details = error?.details ?? error?.errors ?? [];
    this.headers = headers;
  }
}

/** The request never got an answer: connection refused, reset, DNS… */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super(`The request failed before an answer: ${(cause as Error)?.message ?? String(cause)}`, {
      cause,
    });
    this.name = 'NetworkError';
  }
}

/** No answer within the timeout. */
export class TimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms.`);
    this.name = 'TimeoutError';
  }
}

export interface RateLimit {
  limit: number;
  remaining: number;
  /** Unix time, in seconds. */
  reset: number;
}

/** An answer in full: the data, the envelope around it, and what the headers say. */
export interface ApiResponse<Data, Envelope = unknown> {
  data: Data;
  envelope: Envelope;
  status: number;
  headers: Headers;
  requestId: string | undefined;
  rateLimit: RateLimit | undefined;
}

/** How an operation is called. */
export interface OperationSpec {
  method: string;
  /** As the spec writes it: `/authors/{author_id}`. */
  path: string;
  paging?: 'cursor' | 'offset';
  /** Query parameters not written the default way (`form`, exploded), by name. */
  styles?: Record<string, QueryStyle>;
  /** How the body travels where it is not JSON: a form, a multipart form with files, raw bytes. */
  body?: { encoding: BodyEncoding; mediaType?: string };
  /** The `Accept` header of an answer that is not JSON (a file's media type). */
  accept?: string;
}

type Params = Record<string, unknown> & { query?: object; body?: unknown } & CallOptions;

/** How one request is sent, beyond its operation and parameters. */
interface SendOptions {
  cacheKey?: string | undefined;
  /** The answer's media type, where it is not JSON; an API version does not replace it. */
  accept?: string;
  headers?: Record<string, string>;
  /** An answer read as a stream: the timeout covers only the wait for its headers. */
  streamed?: boolean;
  /** Aborts the request too: the caller stopped reading its events. */
  signal?: AbortSignal;
}

const IDEMPOTENT = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'];

export class Transport {
  private readonly fetch: typeof fetch;
  private readonly retry: Required<RetryOptions> | undefined;
  private readonly cached = new Map<string, { etag: string; envelope: unknown }>();
  /** The token `refreshToken` gave last, used in place of `token` from then on. */
  private refreshedToken: string | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(private readonly options: ClientOptions & { apiKeyHeader: string }) {
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.retry =
      options.retry === false
        ? undefined
        : {
            retries: 2,
            baseDelayMs: 250,
            maxDelayMs: 8000,
            statuses: [429, 502, 503],
            methods: IDEMPOTENT,
            maxRetryAfterMs: 60_000,
            ...options.retry,
          };
  }

  /** One operation as a function, with `.withResponse()`. */
  operation<P, Data>(spec: OperationSpec): Operation<P, Data> {
    const withResponse = (params?: P) => this.request<Data>(spec, (params ?? {}) as Params);
    return Object.assign(async (params?: P) => (await withResponse(params)).data, {
      withResponse,
    }) as Operation<P, Data>;
  }

  /** A list operation: the function, and iterators over its pages and items. */
  list<P, Item>(spec: OperationSpec): ListOperation<P, Item> {
    const single = this.operation<P, Item[]>(spec);
    const pages = (params?: P) => this.pages<Item>(spec, (params ?? {}) as Params);
    const all = async function* (params?: P) {
      for await (const page of pages(params)) yield* page.data;
    };
    return Object.assign(single, { pages, all }) as ListOperation<P, Item>;
  }

  /** An operation that takes `fields`: its array form travels comma-separated, and narrows the answer's type. */
  sparseOperation<P, Item, Selection extends Fieldset>(
    spec: OperationSpec,
  ): SparseOperation<P, Item, Selection> {
    return this.operation<P, Item>(withFields(spec)) as SparseOperation<P, Item, Selection>;
  }

  /** A list operation that takes `fields`, likewise. */
  sparseList<P, Item, Selection extends Fieldset>(
    spec: OperationSpec,
  ): SparseListOperation<P, Item, Selection> {
    return this.list<P, Item>(withFields(spec)) as SparseListOperation<P, Item, Selection>;
  }

  /** An operation whose answer is a file: a Blob, or (`parseAs: 'stream'`) its bytes as they arrive. */
  file<P>(spec: OperationSpec): FileOperation<P> {
    const withResponse = (params?: P & FileParams) => this.download(spec, (params ?? {}) as Params);
    return Object.assign(async (params?: P & FileParams) => (await withResponse(params)).data, {
      withResponse,
    }) as FileOperation<P>;
  }

  /** An operation whose answer is a `text/event-stream`: its events, reconnecting when it ends. */
  events<P, Data>(spec: OperationSpec, options: { json: boolean }): EventOperation<P, Data> {
    return ((params?: P & EventParams) =>
      this.eventStream<Data>(
        spec,
        (params ?? {}) as Params & EventParams,
        options.json,
      )) as EventOperation<P, Data>;
  }

  async request<Data>(spec: OperationSpec, params: Params): Promise<ApiResponse<Data>> {
    const url = this.urlOf(spec, params);
    const key = spec.method === 'GET' && this.options.cache ? url : undefined;
    return this.answer<Data>(await this.attempts(spec, url, params, { cacheKey: key }), key);
  }

  /** The file an operation answers with; an error status is still a JSON envelope. */
  async download(
    spec: OperationSpec,
    params: Params & FileParams,
  ): Promise<ApiResponse<Blob | ReadableStream<Uint8Array>, undefined>> {
    const streamed = params.parseAs === 'stream';
    const url = this.urlOf(spec, params);
    const response = await this.attempts(spec, url, params, {
      accept: spec.accept ?? '*/*',
      streamed,
    });
    if (!response.ok) throw await apiErrorOf(response);
    const data = streamed ? (response.body ?? emptyStream()) : await response.blob();
    return {
      ...responseOf(response.status, undefined, response.headers),
      data,
      envelope: undefined,
    };
  }

  /**
   * The events of a stream, across connections: one that ends or drops is
   * opened again after the server's `retry` (3 s by default), with the last
   * event ID it set. Stopping the iteration closes the connection.
   */
  async *eventStream<Data>(
    spec: OperationSpec,
    params: Params & EventParams,
    json: boolean,
  ): AsyncGenerator<ServerSentEvent<Data>, void, undefined> {
    const url = this.urlOf(spec, params);
    const state: EventStreamState = { lastEventId: params.lastEventId ?? '' };
    const stopped = new AbortController();
    // Only a GET is sent again by itself: another method may have done something each time.
    const reconnect = params.reconnect ?? spec.method === 'GET';
    try {
      for (;;) {
        try {
          const over = yield* this.connection<Data>(spec, url, params, state, json, stopped.signal);
          if (over) return;
        } catch (error) {
          if (!(error instanceof NetworkError) || !reconnect) throw error;
        }
        if (!reconnect) return;
        await sleep(state.retry ?? 3000, params.signal);
      }
    } finally {
      stopped.abort();
    }
  }

  /**
   * One connection's events; a connection that drops is a NetworkError. True
   * when the server says the stream is over: a 204 (the HTML standard's way to
   * stop a client reconnecting).
   */
  private async *connection<Data>(
    spec: OperationSpec,
    url: string,
    params: Params,
    state: EventStreamState,
    json: boolean,
    signal: AbortSignal,
  ): AsyncGenerator<ServerSentEvent<Data>, boolean, undefined> {
    const headers: Record<string, string> = { 'cache-control': 'no-cache' };
    if (state.lastEventId !== '') headers['last-event-id'] = state.lastEventId;
    const response = await this.attempts(spec, url, params, {
      accept: 'text/event-stream',
      headers,
      streamed: true,
      signal,
    });
    if (!response.ok) throw await apiErrorOf(response);
    if (response.status === 204) return true;
    if (!/^text\/event-stream\s*(;|$)/i.test(response.headers.get('content-type') ?? '')) {
      await response.body?.cancel();
      throw invalid(response, 'The answer is not an event stream.');
    }
    const events = parseEvents(response.body ?? emptyStream(), state);
    try {
      for (;;) {
        const next = await events.next().catch((error: unknown) => {
          throw params.signal?.aborted ? params.signal.reason : new NetworkError(error);
        });
        if (next.done) return false;
        yield eventOf<Data>(next.value, json, response);
      }
    } finally {
      await events.return(undefined);
    }
  }

  /** Sends until the answer is final: network errors and retryable statuses are tried again as the policy allows. */
  private async attempts(
    spec: OperationSpec,
    url: string,
    params: Params,
    options: SendOptions,
  ): Promise<Response> {
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      const tokenBefore = this.refreshedToken;
      try {
        response = await this.send(spec, url, params, options);
      } catch (error) {
        if (error instanceof NetworkError && this.mayRetry(spec.method, params, attempt)) {
          await sleep(this.backoff(attempt), params.signal);
          continue;
        }
        throw error;
      }
      // Once per call, whatever the method: the server refused the credential before acting.
      if (
        response.status === 401 &&
        this.options.refreshToken &&
        !refreshed &&
        !isStream(params.body)
      ) {
        refreshed = true;
        await response.body?.cancel();
        // Another call's refresh since this one was sent: its token is new enough.
        if (this.refreshedToken === tokenBefore) await this.refresh();
        attempt--;
        continue;
      }
      if (
        this.mayRetry(spec.method, params, attempt) &&
        this.retry!.statuses.includes(response.status)
      ) {
        const wait = retryAfter(response.headers) ?? this.backoff(attempt);
        if (wait <= this.retry!.maxRetryAfterMs) {
          await response.body?.cancel();
          await sleep(wait, params.signal);
          continue;
        }
      }
      return response;
    }
  }

  /** A new token from `refreshToken`: one refresh at a time, shared by the calls that wait for it. */
  private refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        this.refreshedToken = await this.options.refreshToken!();
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  /** Every page of a list, following `pagination` until its end. */
  async *pages<Item>(
    spec: OperationSpec,
    params: Params,
  ): AsyncGenerator<ApiResponse<Item[]>, void, undefined> {
    let query = { ...(params.query as Record<string, unknown> | undefined) };
    for (;;) {
      const page = await this.request<Item[]>(spec, { ...params, query });
      yield page;
      const pagination =
        (page.envelope as { pagination?: Record<string, unknown> }).pagination ?? {};
      if (spec.paging === 'offset') {
        const current = Number(pagination.page ?? query.page ?? 1);
        if (page.data.length === 0 || current >= Number(pagination.total_pages ?? 0)) return;
        query = { ...query, page: current + 1 };
      } else {
        if (pagination.has_more !== true || typeof pagination.cursor !== 'string') return;
        query = { ...query, cursor: pagination.cursor };
      }
    }
  }

  /** A body that is a stream was read by the first attempt: it cannot be sent again. */
  private mayRetry(method: string, params: Params, attempt: number): boolean {
    return (
      this.retry !== undefined &&
      attempt < this.retry.retries &&
      this.retry.methods.includes(method) &&
      !isStream(params.body)
    );
  }

  /** Full jitter (AWS's "exponential backoff and jitter"). */
  private backoff(attempt: number): number {
    const { baseDelayMs, maxDelayMs } = this.retry!;
    return Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
  }

  private urlOf(spec: OperationSpec, params: Params): string {
    const path = spec.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined || value === null)
        throw new TypeError(`${spec.method} ${spec.path}: the path parameter ${name} is missing.`);
      return encodeURIComponent(String(value));
    });
    const query = Object.entries(params.query ?? {})
      .flatMap(([name, value]) => queryPairs(name, value, spec.styles?.[name]))
      .join('&');
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}${query ? `?${query}` : ''}`;
  }

  private async send(
    spec: OperationSpec,
    url: string,
    params: Params,
    options: SendOptions,
  ): Promise<Response> {
    const headers: Record<string, string> = {
      accept: options.accept ?? 'application/json',
      ...options.headers,
      ...this.options.headers,
      ...params.headers,
    };
    if (this.options.version !== undefined && options.accept === undefined)
      headers.accept = `application/vnd.api+json;version=${this.options.version}`;
    const token =
      this.refreshedToken ??
      (typeof this.options.token === 'function' ? await this.options.token() : this.options.token);
    if (token) headers.authorization = `Bearer ${token}`;
    if (this.options.apiKey) headers[this.options.apiKeyHeader] = this.options.apiKey;
    const cached = options.cacheKey === undefined ? undefined : this.cached.get(options.cacheKey);
    if (cached) headers['if-none-match'] = cached.etag;
    const body =
      params.body === undefined
        ? undefined
        : encodeBody(params.body, spec.body?.encoding ?? 'json', spec.body?.mediaType);
    if (body?.contentType !== undefined) headers['content-type'] = body.contentType;
    // A multipart form's type carries its boundary, which only fetch knows: no caller's type in its way.
    else if (body)
      for (const name of Object.keys(headers))
        if (name.toLowerCase() === 'content-type') delete headers[name];
    const timeoutMs = params.timeoutMs ?? this.options.timeoutMs ?? 30_000;
    const timeout = deadline(timeoutMs, options.streamed === true);
    const signals = [params.signal, options.signal].filter((signal) => signal !== undefined);
    const signal =
      signals.length > 0 ? AbortSignal.any([...signals, timeout.signal]) : timeout.signal;
    // A stream is sent as it is read (`duplex: 'half'`, which fetch requires of a stream body).
    const init: RequestInit & { duplex?: 'half' } = {
      method: spec.method,
      headers,
      signal,
      ...(body ? { body: body.body as NonNullable<RequestInit['body']> } : {}),
      ...(isStream(body?.body) ? { duplex: 'half' } : {}),
    };
    const middleware = this.options.middleware ?? [];
    const context = { operation: { method: spec.method, path: spec.path } };
    // Without middleware, fetch gets the URL and its init as they are: no Request to build.
    let request: Request | undefined;
    if (middleware.length > 0) {
      request = new Request(url, init);
      for (const each of middleware)
        request = (await each.onRequest?.({ ...context, request })) ?? request;
    }
    let response: Response | undefined;
    try {
      response = await (request ? this.fetch(request) : this.fetch(url, init));
    } catch (error) {
      for (const each of middleware) {
        response = (await each.onError?.({ ...context, request: request!, error })) ?? undefined;
        if (response) break;
      }
      if (response) return response;
      if (timeout.signal.aborted && !params.signal?.aborted) throw new TimeoutError(timeoutMs);
      if (params.signal?.aborted) throw error; // the caller cancelled: their reason, as thrown
      if (options.signal?.aborted) throw error; // the caller stopped reading the events
      throw new NetworkError(error);
    } finally {
      timeout.clear();
    }
    for (let index = middleware.length - 1; index >= 0; index--)
      response =
        (await middleware[index]!.onResponse?.({ ...context, request: request!, response })) ??
        response;
    return response;
  }

  private async answer<Data>(
    response: Response,
    cacheKey: string | undefined,
  ): Promise<ApiResponse<Data>> {
    const headers = response.headers;
    if (response.status === 304 && cacheKey !== undefined && this.cached.has(cacheKey)) {
      const envelope = this.cached.get(cacheKey)!.envelope;
      return responseOf<Data>(304, envelope, headers);
    }
    if (!response.ok) throw await apiErrorOf(response);
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw invalid(response, 'The answer is not JSON.');
    }
    const etag = headers.get('etag');
    if (cacheKey !== undefined && etag) this.cached.set(cacheKey, { etag, envelope: body });
    return responseOf<Data>(response.status, body, headers);
  }
}

/** The error an answer other than 2xx stands for, with its envelope when the body is JSON. */
async function apiErrorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: the status alone says what went wrong
  }
  return new ApiError(response.status, body, response.headers);
}

/** A successful status whose body is not what the operation answers. */
function invalid(response: Response, message: string): ApiError {
  return new ApiError(
    response.status,
    { error: { code: 'INVALID_RESPONSE', message } },
    response.headers,
  );
}

/** An event as the operation yields it: its data parsed when the operation's events carry JSON. */
function eventOf<Data>(
  event: ServerSentEvent<string>,
  json: boolean,
  response: Response,
): ServerSentEvent<Data> {
  if (!json) return event as ServerSentEvent<Data>;
  try {
    return { ...event, data: JSON.parse(event.data) as Data };
  } catch {
    const after = event.id === undefined ? '' : ` (last event ID ${event.id})`;
    throw invalid(response, `An event's data is not JSON${after}: ${event.data.slice(0, 100)}`);
  }
}

/**
 * One attempt's timeout. An answer read as a stream is timed only until its
 * headers are in (`clear`): a download or an event stream is not cut later.
 */
function deadline(ms: number, untilHeaders: boolean): { signal: AbortSignal; clear(): void } {
  if (!untilHeaders) return { signal: AbortSignal.timeout(ms), clear: () => undefined };
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')),
    ms,
  );
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/** The body of an answer that has none (a 204). */
function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}

/** `fields` as an array travels as one comma-separated value (`form`, not exploded). */
function withFields(spec: OperationSpec): OperationSpec {
  return { ...spec, styles: { ...spec.styles, fields: { style: 'form', explode: false } } };
}

function responseOf<Data>(status: number, envelope: unknown, headers: Headers): ApiResponse<Data> {
  const limit = headers.get('x-ratelimit-limit');
  return {
    data: (envelope as { data?: Data } | undefined)?.data as Data,
    envelope,
    status,
    headers,
    requestId: headers.get('x-request-id') ?? undefined,
    rateLimit:
      limit === null
        ? undefined
        : {
            limit: Number(limit),
            remaining: Number(headers.get('x-ratelimit-remaining')),
            reset: Number(headers.get('x-ratelimit-reset')),
          },
  };
}

/** `Retry-After` in ms: seconds, or an HTTP date. */
function retryAfter(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Waits, unless the signal aborts first; a long-lived signal keeps no listener of a finished wait. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** The call's parameters: optional where none of them is required. */
export type Args<P> = {} extends P ? [params?: P] : [params: P];

export type Operation<P, Data> = ((...params: Args<P>) => Promise<Data>) & {
  /** The same call, answering with the envelope, status and headers too. */
  withResponse(...params: Args<P>): Promise<ApiResponse<Data>>;
};

/** How a file answer is read: whole, as a Blob (the default), or as a stream of its bytes. */
type FileParams = { parseAs?: 'blob' | 'stream' };

/** An operation whose answer is a file; `withResponse` adds its status and headers (no envelope). */
export type FileOperation<P> = {
  (...params: Args<P & { parseAs?: 'blob' }>): Promise<Blob>;
  (params: P & { parseAs: 'stream' }): Promise<ReadableStream<Uint8Array>>;
  withResponse(...params: Args<P & { parseAs?: 'blob' }>): Promise<ApiResponse<Blob, undefined>>;
  withResponse(
    params: P & { parseAs: 'stream' },
  ): Promise<ApiResponse<ReadableStream<Uint8Array>, undefined>>;
};

/** Where a stream of events resumes, and whether it reconnects when it ends (by default it does). */
type EventParams = { lastEventId?: string; reconnect?: boolean };

/** An operation whose answer is a stream of server-sent events, iterated with `for await`. */
export type EventOperation<P, Data> = (
  ...params: Args<P & EventParams>
) => AsyncGenerator<ServerSentEvent<Data>, void, undefined>;

export type ListOperation<P, Item> = Operation<P, Item[]> & {
  /** Every page, in order, until the last. */
  pages(...params: Args<P>): AsyncGenerator<ApiResponse<Item[]>, void, undefined>;
  /** Every item of every page. */
  all(...params: Args<P>): AsyncGenerator<Item, void, undefined>;
};

/** Where an item keeps the fields `fields` names: at its top level, or (typed shape) in `attributes`. */
export type ResourceShape = 'flat' | 'typed';

/**
 * What a `fields` answer keeps of an item whatever it names: `required`, the
 * fields its response schema requires (a union of names, `never` for none),
 * and the item's `shape`.
 */
export interface Fieldset {
  required: string;
  shape: ResourceShape;
}

/** The names `fields` may list: the item's fields (a typed item's attributes) and `id`. */
export type FieldName<Item, Shape extends ResourceShape> =
  Extract<keyof (Shape extends 'typed' ? AttributesOf<Item> : Item), string> | 'id';

type AttributesOf<Item> = Item extends { attributes?: infer Attributes }
  ? NonNullable<Attributes>
  : never;

/**
 * An item as a `fields` answer carries it: the fields `Names` lists, those
 * its schema requires and `id` (a typed item's `id` and `type`, with only
 * those attributes).
 */
export type Selected<
  Item,
  Names extends string,
  Selection extends Fieldset,
> = Selection['shape'] extends 'typed'
  ? {
      [Key in keyof Item]: Key extends 'attributes'
        ? Pick<
            NonNullable<Item[Key]>,
            Extract<Names | Selection['required'], keyof NonNullable<Item[Key]>>
          >
        : Item[Key];
    }
  : Pick<Item, Extract<Names | Selection['required'] | 'id', keyof Item>>;

type QueryOf<P> = P extends { query?: infer Query } ? NonNullable<Query> : never;

/** The parameters with `fields` as an array of names. */
export type WithFields<P, Names extends string> = Omit<P, 'query'> & {
  query: Omit<QueryOf<P>, 'fields'> & { fields: readonly Names[] };
};

/** A read that takes `fields`: called with an array of names, its answer's type has only what the service sends. */
export type SparseOperation<P, Item, Selection extends Fieldset> = Operation<P, Item> & {
  <Names extends FieldName<Item, Selection['shape']>>(
    params: WithFields<P, Names>,
  ): Promise<Selected<Item, Names, Selection>>;
  withResponse<Names extends FieldName<Item, Selection['shape']>>(
    params: WithFields<P, Names>,
  ): Promise<ApiResponse<Selected<Item, Names, Selection>>>;
};

/** A list that takes `fields`, likewise for its pages and items. */
export type SparseListOperation<P, Item, Selection extends Fieldset> = ListOperation<P, Item> & {
  <Names extends FieldName<Item, Selection['shape']>>(
    params: WithFields<P, Names>,
  ): Promise<Selected<Item, Names, Selection>[]>;
  withResponse<Names extends FieldName<Item, Selection['shape']>>(
    params: WithFields<P, Names>,
  ): Promise<ApiResponse<Selected<Item, Names, Selection>[]>>;
  pages<Names extends FieldName<Item, Selection['shape']>>(
    params: WithFields<P, Names>,
  ): AsyncGenerator<ApiResponse<Selected<Item, Names, Selection>[]>, void, undefined>;
  all<Names extends FieldName<Item, Selection['shape']>>(
    params: WithFields<P, Names>,
  ): AsyncGenerator<Selected<Item, Names, Selection>, void, undefined>;
};
