/**
 * The client's runtime: no dependencies, global `fetch` only, so it runs in
 * Node 20+ and browsers alike. Retries with backoff that honour
 * `Retry-After`, timeouts, typed errors, paging iterators and an opt-in
 * conditional-GET cache. `./index.ts` binds it to the API's operations.
 */
import { queryPairs, type QueryStyle } from './styles.js';

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
}

type Params = Record<string, unknown> & { query?: object; body?: unknown } & CallOptions;

const IDEMPOTENT = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'];

export class Transport {
  private readonly fetch: typeof fetch;
  private readonly retry: Required<RetryOptions> | undefined;
  private readonly cached = new Map<string, { etag: string; envelope: unknown }>();

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
    const withResponse = (params: P) => this.request<Data>(spec, params as Params);
    return Object.assign(async (params: P) => (await withResponse(params)).data, { withResponse });
  }

  /** A list operation: the function, and iterators over its pages and items. */
  list<P, Item>(spec: OperationSpec): ListOperation<P, Item> {
    const single = this.operation<P, Item[]>(spec);
    const pages = (params: P) => this.pages<Item>(spec, params as Params);
    const all = async function* (params: P) {
      for await (const page of pages(params)) yield* page.data;
    };
    return Object.assign(single, { pages, all });
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

  async request<Data>(spec: OperationSpec, params: Params): Promise<ApiResponse<Data>> {
    const url = this.urlOf(spec, params);
    const key = spec.method === 'GET' && this.options.cache ? url : undefined;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.send(spec.method, url, params, key);
      } catch (error) {
        if (error instanceof NetworkError && this.mayRetry(spec.method, attempt)) {
          await sleep(this.backoff(attempt), params.signal);
          continue;
        }
        throw error;
      }
      if (this.mayRetry(spec.method, attempt) && this.retry!.statuses.includes(response.status)) {
        const wait = retryAfter(response.headers) ?? this.backoff(attempt);
        if (wait <= this.retry!.maxRetryAfterMs) {
          await response.body?.cancel();
          await sleep(wait, params.signal);
          continue;
        }
      }
      return this.answer<Data>(response, key);
    }
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

  private mayRetry(method: string, attempt: number): boolean {
    return (
      this.retry !== undefined &&
      attempt < this.retry.retries &&
      this.retry.methods.includes(method)
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
    method: string,
    url: string,
    params: Params,
    cacheKey: string | undefined,
  ): Promise<Response> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.options.headers,
      ...params.headers,
    };
    if (this.options.version !== undefined)
      headers.accept = `application/vnd.api+json;version=${this.options.version}`;
    const token =
      typeof this.options.token === 'function' ? await this.options.token() : this.options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (this.options.apiKey) headers[this.options.apiKeyHeader] = this.options.apiKey;
    const cached = cacheKey === undefined ? undefined : this.cached.get(cacheKey);
    if (cached) headers['if-none-match'] = cached.etag;
    const hasBody = params.body !== undefined;
    if (hasBody) headers['content-type'] = 'application/json';
    const timeoutMs = params.timeoutMs ?? this.options.timeoutMs ?? 30_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = params.signal ? AbortSignal.any([params.signal, timeout]) : timeout;
    try {
      return await this.fetch(url, {
        method,
        headers,
        signal,
        ...(hasBody ? { body: JSON.stringify(params.body) } : {}),
      });
    } catch (error) {
      if (timeout.aborted && !params.signal?.aborted) throw new TimeoutError(timeoutMs);
      if (params.signal?.aborted) throw error; // the caller cancelled: their reason, as thrown
      throw new NetworkError(error);
    }
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
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      if (response.ok)
        throw new ApiError(
          response.status,
          { error: { code: 'INVALID_RESPONSE', message: 'The answer is not JSON.' } },
          headers,
        );
    }
    if (!response.ok) throw new ApiError(response.status, body, headers);
    const etag = headers.get('etag');
    if (cacheKey !== undefined && etag) this.cached.set(cacheKey, { etag, envelope: body });
    return responseOf<Data>(response.status, body, headers);
  }
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

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

export type Operation<P, Data> = ((params: P) => Promise<Data>) & {
  /** The same call, answering with the envelope, status and headers too. */
  withResponse(params: P): Promise<ApiResponse<Data>>;
};

export type ListOperation<P, Item> = Operation<P, Item[]> & {
  /** Every page, in order, until the last. */
  pages(params: P): AsyncGenerator<ApiResponse<Item[]>, void, undefined>;
  /** Every item of every page. */
  all(params: P): AsyncGenerator<Item, void, undefined>;
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
