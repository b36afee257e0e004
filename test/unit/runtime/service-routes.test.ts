/**
 * The service's own addresses (service-routes.ts) and CORS (cors.ts), on a
 * Koa app with the request conventions: what each answers, that they come
 * before identity and the rate limit, and the settings' refusals.
 */
import Koa from 'koa';
import { pino } from 'pino';
import { corsFor, corsOriginsFromEnv, EXPOSED_HEADERS } from '../../../src/runtime/server/generated/conventions/cors.js';
import { observeRequests } from '../../../src/runtime/server/generated/conventions/observe.js';
import { MemoryRateLimitStore } from '../../../src/runtime/server/generated/conventions/rate-limit.js';
import { requestConventions } from '../../../src/runtime/server/generated/conventions/request.js';
import { docsPathFromEnv, serviceRoutes } from '../../../src/runtime/server/generated/conventions/service-routes.js';
import { listen, type Listening } from '../../loopback.js';

const SPEC = 'openapi: 3.1.0\ninfo: { title: T, version: "1" }\npaths: { /things: {} }\n';
let ready: () => Promise<void> = async () => {};
let served: Listening;

beforeAll(async () => {
  const app = new Koa();
  app.use(observeRequests({ logger: pino({ level: 'silent' }), asyncContext: false }));
  const cors = corsFor(['https://app.example']);
  app.use(cors!);
  app.use(
    requestConventions({
      authenticate: () => undefined,
      apiKeyHeaders: ['X-API-Key'],
      rateLimit: { limit: 1, windowSeconds: 60, store: new MemoryRateLimitStore() },
      acceptedVersion: undefined,
      log: () => {},
      serviceRoutes: serviceRoutes({ ready: () => ready(), spec: async () => SPEC, docsPath: '/docs', readyTimeoutMs: 100 }),
    }),
  );
  app.use((ctx) => {
    ctx.body = { data: 'api' };
  });
  served = await listen(app as never);
});
afterAll(() => served.close());

const get = (path: string, init: RequestInit = {}) => fetch(`${served.base}${path}`, init);

test('/healthz, /readyz and the spec answer as often as asked, never counted by the rate limit', async () => {
  for (let index = 0; index < 3; index++) {
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/readyz')).status).toBe(200);
  }
  expect(await (await get('/openapi.json')).json()).toEqual({ openapi: '3.1.0', info: { title: 'T', version: '1' }, paths: { '/things': {} } });
  expect(await (await get('/openapi.yaml')).text()).toBe(SPEC);
  const api = await get('/things');
  expect(api.headers.get('x-ratelimit-remaining')).toBe('0');
});

test('/readyz: 503 SERVICE_UNAVAILABLE saying what is not ready, and when it takes too long', async () => {
  ready = async () => {
    throw new Error('the database is behind its migrations');
  };
  const refused = await get('/readyz');
  expect(refused.status).toBe(503);
  expect(((await refused.json()) as { error: unknown }).error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'Not ready: the database is behind its migrations' });
  ready = () => new Promise(() => {});
  expect(((await (await get('/readyz')).json()) as { error: { message: string } }).error.message).toBe('Not ready: no answer within 100 ms');
  ready = async () => {};
});

test('only GET and HEAD; only the page and the assets it names under /docs', async () => {
  expect((await get('/healthz', { method: 'HEAD' })).status).toBe(200);
  expect((await get('/healthz', { method: 'POST' })).status).not.toBe(200);
  expect(await (await get('/docs')).text()).toContain('<script src="/docs/init.js"></script>');
  expect((await get('/docs/swagger-ui.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
  for (const path of ['/docs/package.json', '/docs/%2e%2e/package.json', '/docs/__proto__', '/docs/constructor']) expect((await get(path)).status).not.toBe(200);
});

test('CORS: the allowed origin, the exposed headers; a preflight never reaches the conventions', async () => {
  const preflight = await get('/things', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'PUT' } });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
  expect(preflight.headers.get('x-request-id')).not.toBeNull(); // every answer has one (observe.ts)
  expect(preflight.headers.get('x-ratelimit-remaining')).toBeNull();
  const answer = await get('/healthz', { headers: { origin: 'https://app.example' } });
  expect(answer.headers.get('access-control-expose-headers')).toBe(EXPOSED_HEADERS.join(','));
  const other = await get('/healthz', { headers: { origin: 'https://other.example' } });
  expect(other.headers.get('access-control-allow-origin')).toBeNull();
});

test('CORS_ORIGINS and DOCS_PATH are read strictly', () => {
  expect(corsOriginsFromEnv({})).toEqual([]);
  expect(corsOriginsFromEnv({ CORS_ORIGINS: '*' })).toBe('*');
  expect(corsOriginsFromEnv({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' })).toEqual(['https://a.example', 'http://localhost:5173']);
  for (const bad of ['a.example', 'https://a.example/', 'https://a.example/app', 'https://*.example'])
    expect(() => corsOriginsFromEnv({ CORS_ORIGINS: bad })).toThrow(/is not an origin/);
  expect(corsFor([])).toBeUndefined();
  expect(docsPathFromEnv({})).toBe('/docs');
  expect(docsPathFromEnv({ DOCS_PATH: 'off' })).toBeUndefined();
  expect(docsPathFromEnv({ DOCS_PATH: '/api/reference' })).toBe('/api/reference');
  for (const bad of ['docs', '/docs/', '/do cs', '/docs"><script>']) expect(() => docsPathFromEnv({ DOCS_PATH: bad })).toThrow(/DOCS_PATH=/);
});
