/**
 * What operators and front-end developers reach for first, on the generated
 * bookshop service: liveness and readiness outside auth and the rate limit,
 * the merged spec as JSON and YAML, the API reference page (rendered in
 * headless Chromium, a screenshot kept in reports/), and CORS for the
 * origins CORS_ORIGINS names.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import yaml from 'js-yaml';
import { EXAMPLES, ROOT, scratchDir } from '../helpers.js';
import { compile, generateService, linkDependencies, startService, type RunningService } from '../service.js';
import { launchChromium, requireChromium } from '../chromium.js';

const scratch = scratchDir();
const project = join(scratch.dir, 'bookshop');
const TOKEN = 'operability-token';
const APP = 'https://app.example.com';
const ENV = { API_TOKENS: TOKEN, STORE: 'memory', CURSOR_SECRET: 'test', RATE_LIMIT: '3', CORS_ORIGINS: `${APP}, http://localhost:5173` };

let service: RunningService;
const others: RunningService[] = [];

beforeAll(async () => {
  await generateService(join(EXAMPLES, 'bookshop/openapi.yaml'), project);
  linkDependencies(project);
  writeFileSync(join(project, 'src/extended.ts'), EXTENDED);
  expect(await compile(project)).toBe('');
  service = await startService(project, ENV);
});
afterAll(async () => {
  await Promise.all([service?.stop(), ...others.map((other) => other.stop())]);
  scratch.cleanup();
});

const get = (path: string, init: RequestInit = {}) => fetch(`${service.origin}${path}`, init);

/** An entry point of a user's own: middleware before everything, and a route outside the spec, without touching generated code. */
const EXTENDED = `import { authenticate } from './auth.js';
import { createApp, handlers } from './generated/app.js';
import { errors } from './generated/conventions/errors.js';
import { serve } from './generated/conventions/serve.js';

const app = createApp({
  authenticate,
  // A read that takes a second, past a limit of 200 ms: 503, while the rest answers.
  handlers: { ...handlers, authors: { ...handlers.authors, getAuthor: () => new Promise((resolve) => setTimeout(() => resolve(undefined), 1000)) } },
  handlerTimeoutMs: 200,
  before: [async (ctx, next) => { await next(); ctx.set('X-Served-By', 'extended'); }],
  middleware: [
    async (ctx, next) => {
      if (ctx.path === '/api/v1/whoami') { ctx.body = { principal: ctx.state.principal?.id ?? null }; return; }
      if (ctx.path === '/api/v1/gone') throw errors.notFound('Gone for good.');
      // A fault whose message repeats the caller's credentials, as careless code does.
      if (ctx.path === '/api/v1/boom') throw new Error(\`boom: authorization: \${ctx.get('authorization')}, x-api-key=\${ctx.get('x-api-key')}\`);
      await next();
    },
  ],
});
const server = await serve(app, { port: 0, host: '127.0.0.1' });
const address = server.address();
console.log(\`listening on http://127.0.0.1:\${typeof address === 'object' && address ? address.port : 0}/api/v1\`);
`;

describe('health', () => {
  test('/healthz and /readyz answer without a credential, and spend no rate-limit window', async () => {
    for (let index = 0; index < 5; index++) {
      const [live, ready] = await Promise.all([get('/healthz'), get('/readyz')]);
      expect([live.status, ready.status]).toEqual([200, 200]);
      expect(await live.json()).toEqual({ status: 'ok' });
      expect(ready.headers.get('x-ratelimit-remaining')).toBeNull();
      expect(live.headers.get('x-request-id')).toMatch(/./);
    }
    const api = await fetch(`${service.baseUrl}/authors`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(api.status).toBe(200);
    expect(api.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  test('/readyz is 503 in the error envelope while the shared rate-limit store does not answer; /healthz stays 200', async () => {
    const unready = await startService(project, { ...ENV, REDIS_URL: 'redis://127.0.0.1:1', REDIS_TIMEOUT_MS: '100' });
    others.push(unready);
    const ready = await fetch(`${unready.origin}/readyz`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { error: { code: string; message: string; request_id: string } };
    expect(body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('Redis') });
    expect(body.error.request_id).toBe(ready.headers.get('x-request-id'));
    expect((await fetch(`${unready.origin}/healthz`)).status).toBe(200);
  });
});

describe('the spec and its reference', () => {
  test('/openapi.json and /openapi.yaml serve the merged spec', async () => {
    const json = await get('/openapi.json');
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const spec = (await json.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths)).toContain('/authors');
    const text = await (await get('/openapi.yaml')).text();
    expect(yaml.load(text)).toEqual(spec);
  });

  test('/docs is a page of its own assets only, under a strict Content-Security-Policy; nothing else of the package is served', async () => {
    const page = await get('/docs');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('/docs/swagger-ui-bundle.js');
    expect(html).not.toMatch(/https?:\/\//);
    expect((await get('/docs/swagger-ui-bundle.js')).status).toBe(200);
    for (const path of ['/docs/package.json', '/docs/..%2fpackage.json', '/docs/index.html'])
      expect((await get(path)).status).toBe(404);
  });

  test('DOCS_PATH moves the page, or turns it off; a bad value stops the start with one line', async () => {
    const moved = await startService(project, { ...ENV, DOCS_PATH: '/reference' });
    others.push(moved);
    expect((await fetch(`${moved.origin}/reference`)).status).toBe(200);
    expect((await fetch(`${moved.origin}/docs`)).status).toBe(404);
    const off = await startService(project, { ...ENV, DOCS_PATH: 'off' });
    others.push(off);
    expect((await fetch(`${off.origin}/docs`)).status).toBe(404);
    expect((await fetch(`${off.origin}/openapi.json`)).status).toBe(200);
    await expect(startService(project, { ...ENV, DOCS_PATH: '/docs"><script>' })).rejects.toThrow(/DOCS_PATH=.* is neither off nor a path/);
  });
});

describe('configuration', () => {
  test('ENV_FILE (else .env) is read at start; a variable already set wins over the file', async () => {
    const file = join(scratch.dir, 'good.env');
    writeFileSync(file, 'DOCS_PATH=/from-file\nRATE_LIMIT=7\n');
    const configured = await startService(project, { ...ENV, RATE_LIMIT: '5', ENV_FILE: file });
    others.push(configured);
    expect((await fetch(`${configured.origin}/from-file`)).status).toBe(200);
    expect((await fetch(`${configured.baseUrl}/authors`, { headers: { authorization: `Bearer ${TOKEN}` } })).headers.get('x-ratelimit-limit')).toBe('5');
  });

  test('a .env with bad values stops the start: exit 1, every mistake on a line of its own, no stack', async () => {
    const file = join(scratch.dir, 'bad.env');
    writeFileSync(file, 'BODY_MAX_DEPTH=deep\nLOG_LEVEL=loud\nDOCS_AUTH=maybe\nCORS_ORIGINS=https://app.example.com/\n');
    const { CORS_ORIGINS: _set, ...unset } = ENV; // the file's CORS_ORIGINS counts only where the variable is not set
    const started = startService(project, { ...unset, ENV_FILE: file });
    const failure = await started.then(
      () => '',
      (error: Error) => error.message,
    );
    expect(failure).toContain('the service exited (1) before listening');
    expect(failure).toMatch(/configuration is wrong:\n {2}BODY_MAX_DEPTH=deep is not a whole number of at least 1\.\n/);
    for (const line of ['  LOG_LEVEL=loud is not one of fatal, error, warn, info, debug, trace, silent.', '  DOCS_AUTH=maybe is neither true nor false.']) expect(failure).toContain(line);
    expect(failure).toMatch(/\n {2}CORS_ORIGINS/);
    expect(failure).not.toMatch(/\n\s+at /);
    await expect(startService(project, { ...ENV, ENV_FILE: join(scratch.dir, 'missing.env') })).rejects.toThrow('ENV_FILE=' + join(scratch.dir, 'missing.env') + ': no such file.');
  });
});

describe('logs', () => {
  test('one JSON access line per request, an error with its stack; no line of the run holds a token or an API key', async () => {
    const KEY = 'operability-api-key-4711';
    const logged = await startService(project, { ...ENV, RATE_LIMIT: '100', API_TOKENS: `${TOKEN}:catalog:write`, API_KEYS: KEY }, 'dist/extended.js');
    others.push(logged);
    const bearer = { authorization: `Bearer ${TOKEN}` };
    const created = await fetch(`${logged.baseUrl}/authors`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ann', country: 'GB' }) });
    expect(created.status).toBe(201);
    // (The extended entry's getAuthor is slow on purpose: the list is read instead.)
    expect((await fetch(`${logged.baseUrl}/authors`, { headers: { 'x-api-key': KEY } })).status).toBe(200);
    expect((await fetch(`${logged.baseUrl}/authors`, { headers: { authorization: 'Bearer not-a-token-999' } })).status).toBe(401);
    const boom = await fetch(`${logged.baseUrl}/boom`, { headers: { ...bearer, 'x-api-key': KEY, 'x-request-id': 'boom-1' } });
    expect(boom.status).toBe(500);
    expect(await boom.text()).not.toContain(TOKEN);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await logged.stop()).toBe(0);

    const lines = logged.output().split('\n').filter(Boolean);
    for (const line of lines) for (const secret of [TOKEN, KEY, 'not-a-token-999']) expect(line).not.toContain(secret);
    const entries = lines.filter((line) => !line.startsWith('listening on')).map((line) => JSON.parse(line) as Record<string, unknown>);
    const access = entries.filter((entry) => entry.msg === 'request');
    expect(access.map(({ method, route, status }) => `${method} ${route} ${status}`)).toEqual([
      'POST /api/v1/authors 201',
      'GET /api/v1/authors 200',
      'GET /api/v1/authors 401',
      'GET (none) 500',
    ]);
    expect(access[0]).toMatchObject({ level: 30, requestId: created.headers.get('x-request-id'), principal: expect.any(String) });
    expect(access[1]).toMatchObject({ principal: expect.any(String) });
    expect(access[2]).not.toHaveProperty('principal');
    for (const entry of access) expect(entry.durationMs).toEqual(expect.any(Number));
    const failed = entries.find((entry) => entry.msg === 'request failed');
    expect(failed).toMatchObject({ level: 50, requestId: 'boom-1', method: 'GET', path: '/api/v1/boom' });
    expect(failed!.error).toMatch(/^Error: boom: authorization: \[redacted\], x-api-key=\[redacted\]\n\s+at /);
    expect(entries.some((entry) => entry.msg === 'SIGTERM: finishing requests in flight, then stopping.')).toBe(true);
  });

  test('LOG_LEVEL=warn: no access lines, errors still', async () => {
    const quiet = await startService(project, { ...ENV, LOG_LEVEL: 'warn' }, 'dist/extended.js');
    others.push(quiet);
    expect((await fetch(`${quiet.origin}/healthz`)).status).toBe(200);
    expect((await fetch(`${quiet.baseUrl}/boom`)).status).toBe(500);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const messages = quiet.output().split('\n').filter((line) => line.startsWith('{')).map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toEqual(['request failed']);
  });
});

/** An SDK a user would register with `node --import`: spans as JSON lines in a file. */
const telemetry = (spans: string) => `import { appendFileSync } from 'node:fs';
import { propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
const exporter = {
  export(finished, done) {
    for (const span of finished)
      appendFileSync(${JSON.stringify(spans)}, JSON.stringify({ name: span.name, kind: span.kind, traceId: span.spanContext().traceId, parentSpanId: span.parentSpanContext?.spanId, attributes: span.attributes, status: span.status.code }) + '\\n');
    done({ code: 0 });
  },
  shutdown: async () => {},
};
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
`;

describe('OpenTelemetry', () => {
  test("with an SDK registered, each request is a server span named by its route, the child of the caller's traceparent", async () => {
    const spans = join(scratch.dir, 'spans.jsonl');
    const setup = join(project, 'telemetry.mjs');
    writeFileSync(setup, telemetry(spans));
    const traced = await startService(project, { ...ENV, RATE_LIMIT: '100', NODE_OPTIONS: `--import=${pathToFileURL(setup).href}` });
    others.push(traced);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;
    expect((await fetch(`${traced.baseUrl}/authors`, { headers: { authorization: `Bearer ${TOKEN}`, traceparent } })).status).toBe(200);
    expect((await fetch(`${traced.baseUrl}/authors/00000000-0000-4000-8000-000000000000`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [listed, missing] = readFileSync(spans, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(listed).toMatchObject({ name: 'GET /api/v1/authors', kind: 1, traceId, parentSpanId: '00f067aa0ba902b7', attributes: { 'http.request.method': 'GET', 'http.route': '/api/v1/authors', 'http.response.status_code': 200 } });
    expect(missing).toMatchObject({ name: 'GET /api/v1/authors/{author_id}', attributes: { 'http.response.status_code': 404 } });
    expect(missing!.traceId).not.toBe(traceId);
    expect(missing!.parentSpanId).toBeUndefined();
    // The access line names the same trace.
    const access = traced.output().split('\n').filter((line) => line.includes('"msg":"request"')).map((line) => JSON.parse(line) as { traceId: string });
    expect(access.map((line) => line.traceId)).toEqual([traceId, missing!.traceId]);
  });
});

describe('DOCS_AUTH', () => {
  test('the spec and /docs need a valid credential; health does not', async () => {
    const guarded = await startService(project, { ...ENV, DOCS_AUTH: 'true' });
    others.push(guarded);
    for (const path of ['/openapi.json', '/openapi.yaml', '/docs', '/docs/init.js']) {
      const refused = await fetch(`${guarded.origin}${path}`);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
      expect((await fetch(`${guarded.origin}${path}`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await fetch(`${guarded.origin}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    }
    expect((await fetch(`${guarded.origin}/healthz`)).status).toBe(200);
    expect((await fetch(`${guarded.origin}/readyz`)).status).toBe(200);
  });
});

describe('extension points', () => {
  test("createApp's before and middleware: a route outside the spec, after identity and inside the error envelope", async () => {
    const extended = await startService(project, ENV, 'dist/extended.js');
    others.push(extended);
    const who = await fetch(`${extended.baseUrl}/whoami`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(who.status).toBe(200);
    expect(await who.json()).toEqual({ principal: expect.any(String) });
    expect(who.headers.get('x-served-by')).toBe('extended');
    expect(who.headers.get('x-ratelimit-limit')).toBe('3');
    const gone = await fetch(`${extended.baseUrl}/gone`);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: { message: string; request_id: string } }).error).toMatchObject({ message: 'Gone for good.', request_id: gone.headers.get('x-request-id') });
    expect((await fetch(`${extended.baseUrl}/authors`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  test('a handler past its time is answered 503 SERVICE_UNAVAILABLE in the envelope, with Retry-After', async () => {
    const extended = await startService(project, { ...ENV, RATE_LIMIT: '100' }, 'dist/extended.js');
    others.push(extended);
    const started = Date.now();
    const slow = await fetch(`${extended.baseUrl}/authors/00000000-0000-4000-8000-000000000000`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(slow.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(900);
    expect(slow.headers.get('retry-after')).toBe('1');
    expect(((await slow.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The operation took longer than 200 ms; retry later.' });
  });
});

describe('CORS', () => {
  test('a preflight from an allowed origin is answered before auth and the rate limit', async () => {
    const preflight = await fetch(`${service.baseUrl}/authors`, {
      method: 'OPTIONS',
      headers: { origin: APP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('x-ratelimit-remaining')).toBeNull();
  });

  test("an answer, an error's too, exposes the conventions' headers to the allowed origin's scripts", async () => {
    const refused = await fetch(`${service.baseUrl}/authors`, { headers: { origin: APP } });
    // 401, or 429 once the earlier anonymous requests have spent the window: an error either way.
    expect([401, 429]).toContain(refused.status);
    expect(refused.headers.get('access-control-allow-origin')).toBe(APP);
    const exposed = (refused.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['X-Request-Id', 'ETag', 'X-RateLimit-Remaining', 'Retry-After', 'Location']));
  });

  test('another origin gets no Access-Control-Allow-Origin; a bad CORS_ORIGINS stops the start', async () => {
    const other = await fetch(`${service.baseUrl}/authors`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    await expect(startService(project, { ...ENV, CORS_ORIGINS: 'https://app.example.com/' })).rejects.toThrow(/CORS_ORIGINS names "https:\/\/app.example.com\/"/);
  });
});

(await requireChromium()).describe('the reference in Chromium', () => {
  test('/docs renders the operations, offline; a screenshot is kept in reports/', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const elsewhere: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(service.origin) && !request.url().startsWith('data:')) elsewhere.push(request.url());
      });
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${service.origin}/docs`);
      await page.waitForSelector('.opblock-summary-path', { timeout: 20_000 });
      const paths = await page.$$eval('.opblock-summary-path', (nodes) => nodes.map((node) => node.textContent?.replace(/\u200b/g, '')));
      expect(paths).toEqual(expect.arrayContaining(['/authors', '/authors/{author_id}']));
      const reports = join(ROOT, 'reports');
      mkdirSync(reports, { recursive: true });
      await page.screenshot({ path: join(reports, 'docs.png'), fullPage: false });
      expect(elsewhere).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  test('the bundled client, on a page of another origin CORS_ORIGINS names: a create, a list walk and an error', async () => {
    const { build } = await import('esbuild');
    const bundle = await build({ entryPoints: [join(project, 'dist/client/index.js')], bundle: true, format: 'iife', globalName: 'Bookshop', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent' });
    // The page from a server of its own on another port: another origin, in the loopback address space as the
    // service is (Chromium keeps pages it cannot place, or public ones, from calling loopback addresses).
    const script = bundle.outputFiles[0]!.text;
    const pages = createServer((request, response) => {
      const isScript = request.url === '/client.js';
      response.writeHead(200, { 'content-type': isScript ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8' });
      response.end(isScript ? script : '<!doctype html><meta charset="utf-8"><script src="/client.js"></script>');
    });
    const listening = await listenOn(pages);
    const origin = listening.origin;
    const api = await startService(project, { ...ENV, RATE_LIMIT: '1000', CORS_ORIGINS: origin, API_TOKENS: `${TOKEN}:catalog:write` });
    others.push(api);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const consoled: string[] = [];
      page.on('console', (message) => consoled.push(message.text()));
      await page.goto(`${origin}/`);
      const result = await page.evaluate(
        async ({ baseUrl, token }) => {
          // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the bundle's global
          const { createClient, ApiError } = (globalThis as any).Bookshop;
          const client = createClient({ baseUrl, token, retry: false });
          const created = await Promise.all(['Achebe', 'Adichie', 'Soyinka'].map((name) => client.createAuthor({ body: { name, country: 'NG' } })));
          const walked: string[] = [];
          for await (const author of client.listAuthors.all({ query: { limit: 1 } })) walked.push(author.id);
          let error: { status: number; code: string; requestId: string | undefined } | undefined;
          try {
            await client.getAuthor({ author_id: '00000000-0000-4000-8000-000000000000' });
          } catch (caught) {
            if (caught instanceof ApiError) {
              const known = caught as { status: number; code: string; request_id?: string };
              error = { status: known.status, code: known.code, requestId: known.request_id };
            }
          }
          return { created: created.map((author: { id: string }) => author.id), walked, error };
        },
        { baseUrl: api.baseUrl, token: TOKEN },
      ).catch((error: Error) => {
        throw new Error(`${error.message}\nthe page's console:\n${consoled.join('\n')}`);
      });
      expect(result.walked).toEqual(expect.arrayContaining(result.created));
      expect(new Set(result.walked).size).toBe(result.walked.length);
      expect(result.error).toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND', requestId: expect.any(String) });
    } finally {
      await browser.close();
      pages.closeAllConnections();
      pages.close();
    }
  });
});

async function listenOn(server: Server): Promise<{ origin: string }> {
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
