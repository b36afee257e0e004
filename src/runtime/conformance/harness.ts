/**
 * The conformance suite's harness, the same for every API: where the service
 * runs, how to call it with which credential, the test data it creates (and
 * deletes afterwards), and `check()`, which turns a check into a jest test or
 * a skipped one that says why.
 *
 * Environment:
 *   BASE_URL            the service to test, base path included (http://127.0.0.1:3000/api/v1);
 *                       unset: the generated service is started in-process on a loopback port
 *   API_TOKEN           a Bearer credential with every scope
 *   API_TOKEN_LIMITED   a valid Bearer credential with no scopes (for the 403 checks)
 *   API_KEY             an API key with every scope (for the API key checks)
 *   API_KEY_LIMITED     a valid API key with no scopes (403 checks of operations that take only API keys)
 *   CONFORMANCE_SKIP_RATE_LIMIT=1   skips the checks that spend the rate-limit window
 *   CONFORMANCE_RUNS    random runs per property-based check (default 25; ./properties.ts)
 *   CONFORMANCE_STEPS   steps of a random sequence, at most (default 12)
 *   CONFORMANCE_SEED, CONFORMANCE_PATH   replay a failing run: a failure prints both
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, test } from '@jest/globals';
import { pino, type Logger } from 'pino';

import type {
  ApiPlan,
  Json,
  JsonObject,
  OperationPlan as PlannedOperation,
  QueryValue,
  ResourcePlan,
  UploadPlan,
} from './plan.js';

export type { Json, JsonObject, ResourcePlan };

/** An operation of the plan, with its id. */
export type OperationPlan = PlannedOperation & { operationId: string };

/** What the files of one jest worker share, from ./environment.cjs; without it, this file's own. */
type WorkerGlobal = { specforgeConformanceWorker?: Map<string, unknown> };
const WORKER =
  (globalThis as WorkerGlobal).specforgeConformanceWorker ?? new Map<string, unknown>();

/**
 * `make()`'s value, made once per jest worker. jest keeps every test file's
 * modules alive until its worker ends (ESM), so whatever is large — the
 * service, the plan, the response schemas — is loaded once, not per file.
 */
export function perWorker<T>(key: string, make: () => T): T {
  if (!WORKER.has(key)) WORKER.set(key, make());
  return WORKER.get(key) as T;
}

/** What the suite knows of the API, from the merged spec. */
export const API = perWorker(
  'api',
  () => JSON.parse(readFileSync(new URL('./api.json', import.meta.url), 'utf8')) as ApiPlan,
);

export function operation(operationId: string): OperationPlan {
  const plan = API.operations[operationId];
  if (!plan)
    throw new Error(`The suite knows no operation ${operationId}: regenerate it from the spec.`);
  return { operationId, ...plan };
}

export function resourceOf(plan: OperationPlan): ResourcePlan {
  const resource = plan.resource === undefined ? undefined : API.resources[plan.resource];
  if (!resource) throw new Error(`${plan.operationId} acts on no resource the suite knows.`);
  return resource;
}

/** Which credential a request carries: one with every scope, one with none, a made-up one, or none. */
export type Auth =
  'full' | 'limited' | 'invalid' | 'none' | 'apiKey' | 'limitedApiKey' | 'invalidApiKey';

export interface Credentials {
  token?: string;
  limitedToken?: string;
  apiKey?: string;
  limitedApiKey?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The body as sent: a file's bytes are compared as they are. */
  bytes: Uint8Array;
  text: string;
  /** The parsed JSON body; undefined when empty or not JSON. */
  body: any;
}

export interface RequestOptions {
  path?: Record<string, string | number>;
  /** An array is sent the OpenAPI default way (`form`, exploded): the name once per value. */
  query?: Record<string, QueryValue>;
  /** `name=value` pairs already written as their parameters' styles say (`filter[status]=open`), sent as they are. */
  encodedQuery?: string[];
  body?: unknown;
  /** Sent as is, instead of `body` as JSON; a form with its own boundary in its Content-Type. */
  rawBody?: string | Uint8Array<ArrayBuffer> | FormData;
  contentType?: string;
  headers?: Record<string, string>;
  auth?: Auth;
  /** The base URL to use instead of the service's (versioning checks). */
  baseUrl?: string;
  /** Answer a 429 as it comes instead of waiting for the window (rate-limit checks). */
  acceptRateLimited?: boolean;
}

/** An item the suite created (or found): its id, the path parameters that address it, its fields. */
export interface Item {
  resource: string;
  id: string | number;
  path: Record<string, string | number>;
  /** Its fields, flat: `attributes` merged in for the typed shape. */
  fields: JsonObject;
}

export interface Check<A = undefined> {
  run(suite: Suite, plan: OperationPlan, argument: A): Promise<void>;
  /** Why it cannot run here, if it cannot. */
  skip?(suite: Suite, plan: OperationPlan, argument: A): string | undefined;
}

export interface Suite {
  baseUrl: string;
  inProcess: boolean;
  credentials: Credentials;
  request(plan: OperationPlan, options?: RequestOptions): Promise<Answer>;
  send(method: string, path: string, options?: RequestOptions): Promise<Answer>;
  /** A new item of the resource, in `scope` (its parents' path parameters) or under a new parent item. */
  create(
    resource: string,
    overrides?: JsonObject,
    scope?: Record<string, string | number>,
  ): Promise<Item>;
  /** The resource's sample body, its plain strings made unique to this call. */
  sampleBody(resource: string): JsonObject;
  /** An item created some other way (a check's own POST), to delete afterwards. */
  track(item: Item): void;
  /** The path parameters of a new parent item: a collection of the resource that starts empty. */
  scopeFor(resource: string): Promise<Record<string, string | number>>;
  /** Why an item of the resource cannot be had (created or found), if it cannot. */
  unavailable(resource: string): string | undefined;
  /** Resources the API cannot create, with (up to three) items found in them when the suite started. */
  found: Record<string, Item[]>;
  /** X-RateLimit-Limit as the probe (see ConnectOptions) saw it. */
  rateLimit?: number;
  check<A>(name: string, definition: Check<A>, operationId: string, argument?: A): void;
}

export interface ConnectOptions {
  /** In-process only: the service's rate limit (by default high enough for the whole suite). */
  rateLimit?: { limit: number; windowSeconds: number };
  /**
   * An operation to call once at the start, to learn the service's rate limit
   * (`suite.rateLimit`). Such a file then looks for no existing items: with a
   * small limit, those requests would spend the window many times over.
   */
  probe?: string;
}

const STARTED = {
  token: 'conformance-token',
  limitedToken: 'conformance-limited',
  apiKey: 'conformance-key',
  limitedApiKey: 'conformance-limited-key',
};

/**
 * Connects to BASE_URL, or to the generated service in-process: one per jest
 * worker, shared by its files (a file with a rate limit of its own starts its
 * own). What a file's tests create is deleted after them.
 */
export async function connect(options: ConnectOptions = {}): Promise<Suite> {
  const target = process.env.BASE_URL ? external(process.env.BASE_URL) : await inProcess(options);
  const suite = new HttpSuite(target.baseUrl, target.inProcess, target.credentials);
  if (!options.probe) await suite.discover();
  if (options.probe) {
    const limit = (await suite.request(operation(options.probe))).headers.get('x-ratelimit-limit');
    if (limit !== null && /^\d+$/.test(limit)) suite.rateLimit = Number(limit);
  }
  afterAll(async () => {
    await suite.cleanup();
    if (target.ownServer) await closeServer(target.ownServer);
  });
  return suite;
}

interface Target {
  baseUrl: string;
  credentials: Credentials;
  /** The suite started the service (with credentials and parents of its own). */
  inProcess: boolean;
  /** A service this file started for itself, closed after its tests. */
  ownServer?: Server;
}

/** The credentials the environment gives. */
const INPUTS = {
  token: 'API_TOKEN',
  limitedToken: 'API_TOKEN_LIMITED',
  apiKey: 'API_KEY',
  limitedApiKey: 'API_KEY_LIMITED',
} as const;

function credentialsFromEnv(): Credentials {
  return Object.fromEntries(
    Object.entries(INPUTS).flatMap(([key, name]) =>
      process.env[name] ? [[key, process.env[name]]] : [],
    ),
  ) as Credentials;
}

function external(baseUrl: string): Target {
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    credentials: credentialsFromEnv(),
    inProcess: false,
  };
}

/**
 * The service's modules, from this folder. Named by variables, so the suite
 * also type-checks where it is written (specforge's src/runtime), with no
 * service beside it.
 */
const SERVICE_AUTH = '../../src/auth.js';
const SERVICE_APP = '../../src/generated/app.js';
const SERVICE_STORE = '../../src/store/index.js';

/** What the suite needs of the generated `createApp`. */
type CreateApp = (options: {
  authenticate: unknown;
  cursorSecret: string;
  rateLimit: { limit: number; windowSeconds: number };
  logError: (entry: { requestId: string; method: string; path: string; error: unknown }) => void;
  logger: Logger;
}) => { listen(port: number, host: string): Server };

/** High enough for the whole suite. */
const UNLIMITED = { limit: 1_000_000, windowSeconds: 60 };

/** The generated service's credentials: the environment's, or the suite's own. */
async function inProcess(options: ConnectOptions): Promise<Target> {
  const credentials: Credentials = process.env.API_TOKEN ? credentialsFromEnv() : STARTED;
  // jest ties each console to its file: the shared service reports to the file being run.
  perWorker('console', () => ({ current: console })).current = console;
  if (options.rateLimit) {
    const own = await startService(options.rateLimit);
    return { ...own, credentials, inProcess: true, ownServer: own.server };
  }
  const { baseUrl } = await perWorker('service', () => startService(UNLIMITED));
  return { baseUrl, credentials, inProcess: true };
}

/**
 * The generated service with its own `src/auth.ts`, on a loopback port.
 * Unless API_TOKEN says otherwise, the default auth is given credentials of
 * the suite's own.
 */
async function startService(
  rateLimit: NonNullable<ConnectOptions['rateLimit']>,
): Promise<{ baseUrl: string; server: Server }> {
  if (!process.env.API_TOKEN) {
    process.env.API_TOKENS = `${STARTED.token}:${API.scopes.join(' ')},${STARTED.limitedToken}`;
    process.env.API_KEYS = `${STARTED.apiKey}:${API.scopes.join(' ')},${STARTED.limitedApiKey}`;
  }
  // A throwaway database of the worker's own, never the one DATABASE_URL names for the service:
  // the suite writes and deletes. CONFORMANCE_DATABASE_URL names another one to run against.
  process.env.DATABASE_URL = process.env.CONFORMANCE_DATABASE_URL || 'memory:';
  // Loaded once per worker, too: the rate-limit file's service of its own reuses them.
  const { authenticate, createApp, storeReady } = await perWorker('service modules', async () => ({
    ...((await import(SERVICE_AUTH)) as { authenticate: unknown }),
    ...((await import(SERVICE_APP)) as { createApp: CreateApp }),
    ...((await import(SERVICE_STORE)) as { storeReady?: () => Promise<void> }),
  }));
  // The suite's own PGlite opens now (it takes seconds), as the file loads: not in the first
  // check, whose 30 s are the check's own (opening took 5 to 8 s of the first check here). A
  // database the caller names is the caller's to have migrated, by whatever means: not asserted.
  if (!process.env.CONFORMANCE_DATABASE_URL) await storeReady?.();
  const consoles = perWorker('console', () => ({ current: console }));
  const app = createApp({
    authenticate,
    cursorSecret: 'conformance',
    rateLimit,
    logError: ({ requestId, method, path, error }) =>
      consoles.current.error(`[${requestId}] ${method} ${path} failed:`, error),
    // No access lines among the suite's output: its errors go to logError above.
    logger: pino({ level: 'silent' }),
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  // Nor may its idle connections keep the run alive: jest runs no afterAll in a file whose
  // tests are all skipped, and a worker's shared service is never closed.
  server.unref();
  server.on('connection', (socket) => socket.unref());
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}${API.basePath}`, server };
}

async function closeServer(server: Server): Promise<void> {
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeAllConnections();
  await closed;
}

/** Longest wait for a rate-limit window, when the service under test spends it. */
const MAX_RATE_LIMIT_WAIT_S = 65;

class HttpSuite implements Suite {
  found: Record<string, Item[]> = {};
  rateLimit?: number;
  private readonly created: { item: Item; remove: OperationPlan }[] = [];
  private creates = 0;

  constructor(
    readonly baseUrl: string,
    readonly inProcess: boolean,
    readonly credentials: Credentials,
  ) {}

  check<A>(name: string, definition: Check<A>, operationId: string, argument?: A): void {
    const plan = operation(operationId);
    const reason = definition.skip?.(this, plan, argument as A) ?? credentialMissing(this, plan);
    if (reason) test.skip(`${name} (skipped: ${reason})`, () => {});
    else test(name, () => definition.run(this, plan, argument as A));
  }

  request(plan: OperationPlan, options: RequestOptions = {}): Promise<Answer> {
    const required = Object.entries(plan.requiredQuery ?? {})
      .filter(([name]) => options.query?.[name] === undefined)
      .flatMap(([, pairs]) => pairs);
    return this.send(plan.method, fillPath(plan.path, options.path ?? {}), {
      ...options,
      encodedQuery: [...required, ...(options.encodedQuery ?? [])],
      auth: options.auth ?? authFor(this, plan),
    });
  }

  async send(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const url = new URL(`${options.baseUrl ?? this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {}))
      if (Array.isArray(value))
        for (const each of value) url.searchParams.append(name, String(each));
      else url.searchParams.set(name, String(value));
    if (options.encodedQuery?.length)
      url.search = [url.search.slice(1), ...options.encodedQuery].filter(Boolean).join('&');
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.authHeaders(options.auth ?? 'none'),
      ...options.headers,
    };
    let body: string | Uint8Array<ArrayBuffer> | FormData | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !(body instanceof FormData))
      headers['content-type'] = options.contentType ?? 'application/json';
    for (;;) {
      const response = await fetch(url, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
      });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const text = new TextDecoder().decode(bytes);
      const wait = Number(response.headers.get('retry-after'));
      // A real service's limit would otherwise fail whichever check comes after the window is spent.
      if (
        response.status === 429 &&
        !options.acceptRateLimited &&
        wait > 0 &&
        wait <= MAX_RATE_LIMIT_WAIT_S
      ) {
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        continue;
      }
      return {
        status: response.status,
        headers: response.headers,
        bytes,
        text,
        body: parseJson(text),
      };
    }
  }

  async create(
    resource: string,
    overrides: JsonObject = {},
    scope?: Record<string, string | number>,
  ): Promise<Item> {
    const plan = API.resources[resource]!;
    const create = operation(creatingOperation(plan)!);
    const path = scope ?? (await this.scopeFor(resource));
    const body = { ...this.sampleBody(resource), ...overrides };
    const answer = await this.request(
      create,
      plan.upload ? { path, ...uploadOf(plan.upload, body) } : { path, body },
    );
    if (answer.status !== create.status)
      throw new Error(
        `Could not create test data: ${create.method} ${create.path} answered ${excerpt(answer)}`,
      );
    const item = itemOf(resource, answer.body?.data, path, body);
    this.track(item);
    // An answer of the id alone (or of nothing but the key it was written with) shows none of its fields.
    return isScalar(answer.body?.data) || Object.keys(item.fields).length === 0
      ? this.withFields(item)
      : item;
  }

  /** The item with the fields its read answers: a create that answers only the new id shows none. */
  private async withFields(item: Item): Promise<Item> {
    const read = API.resources[item.resource]!.operations.read;
    if (!read) return item;
    const plan = operation(read);
    const answer = await this.request(plan, { path: item.path });
    if (answer.status !== plan.status)
      throw new Error(`Could not read the item just created: ${read} answered ${excerpt(answer)}`);
    return { ...item, fields: flatten(API.resources[item.resource]!, answer.body?.data) };
  }

  sampleBody(resource: string): JsonObject {
    const plan = API.resources[resource]!;
    const count = ++this.creates;
    const key =
      plan.keyField && plan.keys ? { [plan.keyField]: plan.keys[count % plan.keys.length]! } : {};
    return { ...(plan.sample as JsonObject), ...varied(plan, count), ...key };
  }

  track(item: Item): void {
    const remove = API.resources[item.resource]!.operations.delete;
    if (remove) this.created.push({ item, remove: operation(remove) });
  }

  async scopeFor(resource: string): Promise<Record<string, string | number>> {
    const plan = API.resources[resource]!;
    if (!plan.parent) return plan.scope ?? {};
    const parentPlan = API.resources[plan.parent]!;
    const parent = createsItems(parentPlan)
      ? await this.create(plan.parent)
      : this.found[plan.parent]?.[0];
    if (!parent)
      throw new Error(
        `No ${plan.parent} item to put ${resource} under: ${this.unavailable(plan.parent)}.`,
      );
    return { ...scopeUnder(parent, plan), ...plan.scope };
  }

  unavailable(resource: string): string | undefined {
    const plan = API.resources[resource]!;
    if (plan.unbuilt)
      return `the suite cannot build a valid ${plan.unbuilt.join(' or ')} for ${resource} from the schema (give it an example)`;
    if (plan.scope && !this.inProcess)
      return `its parent (${Object.keys(plan.scope).join(', ')}) is no resource of the API: the suite knows no real id of it`;
    if (createsItems(plan)) {
      const missing = credentialMissing(this, operation(creatingOperation(plan)!));
      if (missing) return `creating ${resource} items needs a credential: ${missing}`;
      return plan.parent ? this.unavailable(plan.parent) : undefined;
    }
    if (this.found[resource]?.length) return undefined;
    return `${whyNoCreate(plan, resource)} and the service has none`;
  }

  /** An item of each resource the API cannot create, so reads of it can be tried. */
  async discover(): Promise<void> {
    for (const [name, resource] of Object.entries(API.resources)) {
      if (createsItems(resource) || !resource.operations.list || !resource.idParam) continue;
      const list = operation(resource.operations.list);
      if (resource.parent) continue; // under an item of another resource: none to list under yet
      const scope = resource.scope ?? {};
      // A list reached by a path with ids the plan does not give (paths that share a resource's key): nothing to list.
      if (!fillsPath(list.path, scope)) continue;
      const answer = await this.request(list, { path: scope, query: { limit: 3 } });
      const data: unknown[] =
        answer.status === 200 && Array.isArray(answer.body?.data) ? answer.body.data : [];
      // An item a closed answer shows without its id cannot be addressed.
      const addressable = data.filter((item) => itemIdOf(resource, item) !== undefined);
      this.found[name] = addressable.map((item) => itemOf(name, item, scope));
    }
  }

  /** Deletes what the suite created, children before their parents; says what it could not. */
  async cleanup(): Promise<void> {
    const left: string[] = [];
    for (const { item, remove } of this.created.reverse()) {
      const answer = await this.request(remove, { path: item.path }).catch(() => undefined);
      // 404: already gone (a check deleted it, or its parent took it along).
      if (!answer || (answer.status >= 300 && answer.status !== 404))
        left.push(`${item.resource} ${item.id}${answer ? ` (${answer.status})` : ''}`);
    }
    if (left.length > 0)
      console.warn(`The conformance suite could not delete what it created: ${left.join(', ')}`);
  }

  private authHeaders(auth: Auth): Record<string, string> {
    const { token, limitedToken, apiKey, limitedApiKey } = this.credentials;
    switch (auth) {
      case 'full':
        return token
          ? { authorization: `Bearer ${token}` }
          : apiKey
            ? { [API.apiKeyHeader.toLowerCase()]: apiKey }
            : {};
      case 'limited':
        return limitedToken ? { authorization: `Bearer ${limitedToken}` } : {};
      case 'invalid':
        return { authorization: 'Bearer not-a-valid-token-0000' };
      case 'apiKey':
        return apiKey ? { [API.apiKeyHeader.toLowerCase()]: apiKey } : {};
      case 'limitedApiKey':
        return limitedApiKey ? { [API.apiKeyHeader.toLowerCase()]: limitedApiKey } : {};
      case 'invalidApiKey':
        return { [API.apiKeyHeader.toLowerCase()]: 'not-a-valid-key-0000' };
      case 'none':
        return {};
    }
  }
}

/** The credential an operation is called with: the Bearer token where it takes one, else the API key. */
function authFor(suite: Suite, plan: OperationPlan): Auth {
  if (plan.security.public) return 'none';
  if (plan.security.schemes.includes('bearer') && suite.credentials.token) return 'full';
  if (plan.security.schemes.includes('apiKey') && suite.credentials.apiKey) return 'apiKey';
  return 'full';
}

export function credentialMissing(suite: Suite, plan: OperationPlan): string | undefined {
  if (plan.security.public) return undefined;
  const { token, apiKey } = suite.credentials;
  if (plan.security.schemes.includes('bearer') && token) return undefined;
  if (plan.security.schemes.includes('apiKey') && apiKey) return undefined;
  if (plan.security.schemes.length === 0)
    return 'it takes no credential the suite can send (only Bearer and API key headers)';
  return `set ${plan.security.schemes.map((scheme) => (scheme === 'bearer' ? 'API_TOKEN' : 'API_KEY')).join(' or ')}`;
}

/**
 * A child's parent parameters from its parent item's path: by position, as
 * the child's path may name them differently (`/owners/{id}` and
 * `/owners/{owner_id}/pets`); the last ones where it names only those (`/books/{book_id}/reviews`).
 */
function scopeUnder(parent: Item, child: ResourcePlan): Record<string, string | number> {
  const parentPlan = API.resources[parent.resource]!;
  const values = (
    child.parentItemParams ?? [
      ...parentPlan.parentParams,
      ...(parentPlan.idParam ? [parentPlan.idParam] : []),
    ]
  ).map((name) => parent.path[name]!);
  return Object.fromEntries(child.parentParams.map((name, index) => [name, values[index]!]));
}

/** The plain string fields of a body, made unique to this create: a unique constraint must not refuse test data. */
function varied(plan: ResourcePlan, count: number): JsonObject {
  const suffix = `-${RUN}${count.toString(36)}`;
  return Object.fromEntries(
    (plan.variable ?? []).flatMap(({ name, maxLength }) => {
      const value = (plan.sample as JsonObject)[name];
      return typeof value === 'string' && suffix.length < maxLength
        ? [[name, `${value.slice(0, maxLength - suffix.length)}${suffix}`]]
        : [];
    }),
  );
}

/** Tells this run's data apart from another's. */
const RUN = Date.now().toString(36).slice(-5);

/** Whether `values` names every parameter of the path. */
function fillsPath(path: string, values: Record<string, unknown>): boolean {
  return [...path.matchAll(/\{([^}]+)\}/g)].every(([, name]) => values[name!] !== undefined);
}

export function fillPath(path: string, values: Record<string, string | number>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`No value for the path parameter ${name} of ${path}.`);
    return encodeURIComponent(String(value));
  });
}

/**
 * Whether the suite can make items of a resource: a create whose body it can
 * build and whose answer names the new item (the item, or its id alone).
 */
export function createsItems(plan: ResourcePlan): boolean {
  const create = creatingOperation(plan);
  return (
    create !== undefined &&
    plan.sample !== undefined &&
    operation(create).hasData &&
    !operation(create).unbuilt
  );
}

/** The operation that creates a resource's items: its JSON create, else its upload. */
export function creatingOperation(plan: ResourcePlan): string | undefined {
  return plan.operations.create ?? plan.upload?.operationId;
}

/** Every byte value, then some of the seed's own: a download must give back exactly these. */
export function uploadedBytes(seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(256 + 64);
  for (let index = 0; index < 256; index++) bytes[index] = 255 - index;
  for (let index = 256; index < bytes.length; index++) bytes[index] = (seed * 31 + index * 7) % 256;
  return bytes;
}

/**
 * The request that uploads `fields` with the plan's files, the main one made
 * of `main`: a form as a browser sends it (arrays as repeated fields,
 * objects as JSON text), or the file alone as the body.
 */
export function uploadOf(
  upload: UploadPlan,
  fields: JsonObject,
  main: Uint8Array<ArrayBuffer> = uploadedBytes(0),
): Pick<RequestOptions, 'rawBody' | 'contentType'> {
  const [first, ...others] = upload.files;
  if (upload.body === 'file') return { rawBody: main, contentType: first!.mediaType };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields))
    for (const each of Array.isArray(value) ? value : [value])
      form.append(name, typeof each === 'object' ? JSON.stringify(each) : String(each));
  const blob = (bytes: Uint8Array<ArrayBuffer>, type: string) => new Blob([bytes], { type });
  form.append(first!.name, blob(main, first!.mediaType), `${first!.name}.bin`);
  for (const file of others)
    form.append(
      file.name,
      blob(new TextEncoder().encode(file.name), file.mediaType),
      `${file.name}.bin`,
    );
  return { rawBody: form };
}

/** Why the suite cannot make items of a resource. */
export function whyNoCreate(plan: ResourcePlan, resource: string): string {
  const create = creatingOperation(plan);
  if (!create) return `the API cannot create ${resource} items`;
  if (plan.sample === undefined)
    return `the suite cannot build a valid ${resource} body from the schema${plan.defeat ? `: ${plan.defeat}` : ' (give its fields examples)'}`;
  const { unbuilt, defeat } = operation(create);
  if (unbuilt)
    return `the suite cannot build a valid ${unbuilt.join(' or ')} for creating ${resource} items from the schema${defeat ? `: ${defeat}` : ''}`;
  return `creating ${resource} items answers no body: the suite cannot learn a new item's id`;
}

/** An item from what its create (or a list) answered (the item, or its id alone), with the path parameters that address it. */
export function itemOf(
  resource: string,
  data: unknown,
  scope: Record<string, string | number>,
  written?: Json,
): Item {
  const plan = API.resources[resource]!;
  const id = itemIdOf(plan, data, written);
  if (id === undefined)
    throw new Error(`A ${resource} item without an id: ${JSON.stringify(data)}`);
  return {
    resource,
    id,
    path: { ...scope, ...(plan.idParam ? { [plan.idParam]: id } : {}) },
    fields: flatten(plan, data),
  };
}

/** What addresses an item: its id, or the field its path names it by (as answered, else as written). */
export function itemIdOf(
  plan: ResourcePlan,
  data: unknown,
  written?: Json,
): string | number | undefined {
  if (isScalar(data)) return data;
  // A key is what was written there, where the answer does not show it (a create that answers `{}`).
  const id =
    itemKeyOf(plan, flatten(plan, data)) ??
    (plan.keyField ? (written as JsonObject | undefined)?.[plan.keyField] : undefined);
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** What addresses an item with these (flat) fields: its key field where it has one, else its id. */
export function itemKeyOf(plan: ResourcePlan, fields: JsonObject): Json | undefined {
  return fields[plan.keyField ?? 'id'];
}

/** An answer that is the new id alone. */
const isScalar = (data: unknown): data is string | number =>
  typeof data === 'string' || typeof data === 'number';

/** The fields of an item: `attributes` merged in for the typed shape. */
export function flatten(plan: ResourcePlan, data: unknown): JsonObject {
  if (typeof data !== 'object' || data === null) return {};
  const item = data as JsonObject;
  if (plan.shape !== 'typed') return item;
  const attributes =
    typeof item.attributes === 'object' && item.attributes !== null
      ? (item.attributes as JsonObject)
      : {};
  return { ...attributes, id: item.id ?? null };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An answer in a failure message: its status and the start of its body. */
export function excerpt(answer: Answer): string {
  return `${answer.status} ${answer.text.length > 400 ? `${answer.text.slice(0, 400)}…` : answer.text}`;
}
