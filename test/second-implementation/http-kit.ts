/**
 * The plumbing of a second, independently written implementation of the REST
 * conventions (/work/shared/seed), on plain `node:http`: no Koa, nothing from
 * specforge's src/ or from generated code. Where the conventions leave a
 * choice, it makes its own (request ids, ETags, rate-limit bookkeeping, error
 * messages and per-field codes, `errors` for the per-field list, 404 for an
 * unknown URL version), so that a conformance suite that passes it tests the
 * conventions, not the generated code.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyProblems, problemWith, type Field, type Problem, type Rule } from './schema-check.js';

/** An answer the service refuses with: status, error code, message, per-field problems. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Problem[],
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new Refusal(404, 'RESOURCE_NOT_FOUND', `There is no ${what} here.`);
export const invalid = (details: Problem[]) => new Refusal(422, 'VALIDATION_ERROR', 'Some input is not acceptable; see details.', details);

export interface Call {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
}

export type Reply =
  | { status: 200 | 201; data: unknown; pagination?: object; lastModified?: string }
  | { status: 204 };

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Below the base path, OpenAPI-style: `/authors/{author_id}`. */
  path: string;
  params?: Record<string, Rule>;
  /** Scopes a credential must hold; 'public' takes none. */
  security: 'public' | string[];
  body?: { fields: Record<string, Field>; partial: boolean };
  handle(call: Call): Reply;
}

export interface ApiOptions {
  basePath: string;
  version: number;
  operations: Operation[];
  /** Bearer tokens and API keys, each with its scopes. */
  tokens: Record<string, string[]>;
  apiKeys: Record<string, string[]>;
  rateLimit: { limit: number; windowSeconds: number };
  bodyLimit: number;
}

/** What a test gives a server: its credentials, each with its scopes, and a rate limit of its own if it wants one. */
export interface ServerInputs {
  tokens: Record<string, string[]>;
  apiKeys: Record<string, string[]>;
  rateLimit?: { limit: number; windowSeconds: number };
}

/** Where the example APIs are served: the base path of their merged specs. */
export const EXAMPLE_BASE_PATH = '/api/v1';

/** An example API's server: version 1 at EXAMPLE_BASE_PATH, 100 requests a minute, bodies up to 1 MiB unless the test says otherwise. */
export function exampleApi(inputs: ServerInputs, operations: Operation[]): Server {
  return createApi({
    basePath: EXAMPLE_BASE_PATH,
    version: 1,
    operations,
    tokens: inputs.tokens,
    apiKeys: inputs.apiKeys,
    rateLimit: inputs.rateLimit ?? { limit: 100, windowSeconds: 60 },
    bodyLimit: 1024 * 1024,
  });
}

// ── request ids ─────────────────────────────────────────────────────────────

let served = 0;
const BOOT = randomBytes(3).toString('hex');
/** Its own shape of id: boot stamp, then a counter. */
const newRequestId = () => `si-${BOOT}-${(++served).toString(16).padStart(6, '0')}`;

// ── rate limit: fixed windows per caller, started by the caller's first request ──

interface Window {
  opensAt: number;
  used: number;
}

class RateBook {
  private readonly windows = new Map<string, Window>();
  constructor(private readonly limit: number, private readonly seconds: number) {}

  /** Counts the request; the headers to send and whether it is over the limit. */
  spend(caller: string, now = Date.now()): { headers: Record<string, string>; over: boolean; wait: number } {
    let window = this.windows.get(caller);
    if (!window || now >= window.opensAt + this.seconds * 1000) {
      window = { opensAt: now, used: 0 };
      this.windows.set(caller, window);
    }
    window.used++;
    const closes = window.opensAt + this.seconds * 1000;
    const over = window.used > this.limit;
    return {
      over,
      wait: Math.max(1, Math.ceil((closes - now) / 1000)),
      headers: {
        'X-RateLimit-Limit': String(this.limit),
        'X-RateLimit-Remaining': String(Math.max(0, this.limit - window.used)),
        'X-RateLimit-Reset': String(Math.ceil(closes / 1000)),
      },
    };
  }
}

/** Who is counted: a digest of the credential it sends, else its address. */
function callerOf(request: IncomingMessage): string {
  const credential = request.headers.authorization ?? request.headers['x-api-key'];
  if (typeof credential === 'string') return createHash('sha256').update(credential).digest('base64');
  return `addr:${request.socket.remoteAddress}`;
}

// ── answers ─────────────────────────────────────────────────────────────────

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

function sendRefusal(response: ServerResponse, requestId: string, refusal: Refusal): void {
  sendJson(response, refusal.status, {
    error: {
      code: refusal.code,
      message: refusal.message,
      request_id: requestId,
      // The per-field list under the other name the conventions give it.
      ...(refusal.details ? { errors: refusal.details } : {}),
    },
  });
}

/** Its own entity tag: an MD5 of what the answer shows, timestamp left out. */
function entityTag(data: unknown, pagination: unknown): string {
  return `"sb-${createHash('md5').update(JSON.stringify([data, pagination ?? null])).digest('hex')}"`;
}

function matchesAny(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

// ── versioning ──────────────────────────────────────────────────────────────

/** The version an Accept header asks for, if it names one. */
function acceptedVersion(accept: string | undefined): number | undefined {
  for (const range of (accept ?? '').split(',')) {
    const [type, ...parameters] = range.split(';').map((part) => part.trim());
    if (type?.toLowerCase() !== 'application/vnd.api+json') continue;
    for (const parameter of parameters) {
      const match = /^version=(\d+)$/i.exec(parameter);
      if (match) return Number(match[1]);
    }
  }
  return undefined;
}

// ── routing ─────────────────────────────────────────────────────────────────

function matchPath(template: string, path: string): Record<string, string> | undefined {
  const want = template.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let index = 0; index < want.length; index++) {
    const segment = want[index]!;
    const value = got[index]!;
    if (segment.startsWith('{')) {
      if (value === '') return undefined;
      try {
        params[segment.slice(1, -1)] = decodeURIComponent(value);
      } catch {
        return undefined;
      }
    } else if (segment !== value) return undefined;
  }
  return params;
}

/** A path parameter as its rule's type: digits are a number where an integer is wanted. */
const pathValue = (text: string, rule: Rule) => (rule.type === 'integer' && /^-?\d+$/.test(text) ? Number(text) : text);

// ── bodies ──────────────────────────────────────────────────────────────────

const JSON_MEDIA = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** The body's text; a Refusal 413 past the limit (read to its end, so the caller sees the answer). */
async function readBody(request: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(request.headers['content-length']);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  if (size > limit) throw tooLarge(limit);
  return Buffer.concat(chunks).toString('utf8');
}

const tooLarge = (limit: number) => new Refusal(413, 'PAYLOAD_TOO_LARGE', `Bodies are limited to ${limit} bytes.`);

async function bodyOf(request: IncomingMessage, operation: Operation, limit: number): Promise<unknown> {
  if (!operation.body) return undefined;
  if (!JSON_MEDIA.test(request.headers['content-type'] ?? ''))
    throw new Refusal(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
  const text = await readBody(request, limit);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Refusal(400, 'BAD_REQUEST', 'The body could not be read as JSON.');
  }
  const problems = bodyProblems(body, operation.body.fields, operation.body.partial);
  if (problems.length > 0) throw invalid(problems);
  return body;
}

// ── auth ────────────────────────────────────────────────────────────────────

const UNAUTHORIZED = new Refusal(401, 'UNAUTHORIZED', 'The access token is invalid or expired.');

function authorize(request: IncomingMessage, operation: Operation, options: ApiOptions): void {
  if (operation.security === 'public') return;
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const key = request.headers['x-api-key'];
  const scopes =
    bearer !== undefined ? options.tokens[bearer] : typeof key === 'string' ? options.apiKeys[key] : undefined;
  if (!scopes) throw UNAUTHORIZED;
  const lacking = operation.security.filter((scope) => !scopes.includes(scope));
  if (lacking.length > 0) throw new Refusal(403, 'FORBIDDEN', `This credential may not do that: it lacks ${lacking.join(', ')}.`);
}

// ── the server ──────────────────────────────────────────────────────────────

export interface RunningApi {
  server: Server;
  /** Origin and base path: `http://127.0.0.1:<port>/api/v1`. */
  baseUrl: string;
  close(): Promise<void>;
}

export function createApi(options: ApiOptions): Server {
  const rates = new RateBook(options.rateLimit.limit, options.rateLimit.windowSeconds);
  return createServer((request, response) => {
    const sent = request.headers['x-request-id'];
    const requestId = typeof sent === 'string' && sent.length > 0 && sent.length <= 200 ? sent : newRequestId();
    response.setHeader('X-Request-Id', requestId);
    const spent = rates.spend(callerOf(request));
    for (const [name, value] of Object.entries(spent.headers)) response.setHeader(name, value);
    if (spent.over) {
      response.setHeader('Retry-After', String(spent.wait));
      return sendRefusal(response, requestId, new Refusal(429, 'RATE_LIMITED', `Slow down: try again in ${spent.wait} s.`));
    }
    answer(request, response, options).catch((error: unknown) => {
      if (response.headersSent) return response.destroy();
      sendRefusal(response, requestId, error instanceof Refusal ? error : new Refusal(500, 'INTERNAL_ERROR', 'Something went wrong on our side.'));
    });
  });
}

async function answer(request: IncomingMessage, response: ServerResponse, options: ApiOptions): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const asked = acceptedVersion(request.headers.accept);
  if (asked !== undefined && asked !== options.version)
    throw new Refusal(406, 'NOT_ACCEPTABLE', `Version ${asked} is not served; this is version ${options.version}.`);
  if (!url.pathname.startsWith(`${options.basePath}/`)) throw notFound('such path');
  const path = url.pathname.slice(options.basePath.length);
  const onPath = options.operations.flatMap((operation) => {
    const params = matchPath(operation.path, path);
    return params ? [{ operation, params }] : [];
  });
  if (onPath.length === 0) throw notFound('such path');
  const found = onPath.find(({ operation }) => operation.method === request.method);
  if (!found) {
    response.setHeader('Allow', onPath.map(({ operation }) => operation.method).join(', '));
    throw new Refusal(405, 'METHOD_NOT_ALLOWED', `${request.method} is not served on this path.`);
  }
  const { operation, params } = found;
  authorize(request, operation, options);
  const pathProblems = Object.entries(operation.params ?? {}).flatMap(([name, rule]) => problemWith(`path.${name}`, pathValue(params[name]!, rule), rule) ?? []);
  if (pathProblems.length > 0) throw invalid(pathProblems);
  const body = await bodyOf(request, operation, options.bodyLimit);
  const reply = operation.handle({ params, query: url.searchParams, body });
  if (reply.status === 204) {
    response.writeHead(204);
    return void response.end();
  }
  const shown = { data: reply.data, ...(reply.pagination ? { pagination: reply.pagination } : {}) };
  if (request.method === 'GET') {
    const etag = entityTag(reply.data, reply.pagination);
    response.setHeader('ETag', etag);
    response.setHeader('Cache-Control', 'no-cache');
    if (reply.lastModified) response.setHeader('Last-Modified', new Date(reply.lastModified).toUTCString());
    if (matchesAny(request.headers['if-none-match'], etag)) {
      response.writeHead(304);
      return void response.end();
    }
  }
  sendJson(response, reply.status, { ...shown, meta: { timestamp: new Date().toISOString() } });
}

/** Listens on a loopback port chosen by the system. */
export async function listen(server: Server, basePath: string): Promise<RunningApi> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
