/**
 * The service's pino logger (logger.ts) and its access line (observe.ts):
 * levels from LOG_LEVEL, credentials gone from objects and text, configured
 * fields redacted, one access line per request with the route template.
 */
import { jest } from '@jest/globals';
import Koa from 'koa';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { accessWriterOf, createLogger, errorLoggerFor, logLevelFromEnv, type AccessLine } from '../../../src/runtime/server/generated/conventions/logger.js';
import { redactionOf } from '../../../src/runtime/server/generated/conventions/logging.js';
import { observeRequests } from '../../../src/runtime/server/generated/conventions/observe.js';
import type { ServiceState } from '../../../src/runtime/server/generated/conventions/state.js';
import type { Tracing } from '../../../src/runtime/server/generated/conventions/tracing.js';
import { listen } from '../../loopback.js';

/** A destination that keeps each line, parsed. */
function captured(): { lines: Record<string, unknown>[]; destination: Writable } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, destination };
}

const redaction = redactionOf(['X-Tenant-Key'], {});

describe('createLogger', () => {
  test('LOG_LEVEL: info by default; a level below it is not written; a bad one is named', () => {
    const { lines, destination } = captured();
    const logger = createLogger(redaction, { env: { LOG_LEVEL: 'warn' }, destination });
    logger.info('not written');
    logger.warn('written');
    expect(lines.map((line) => line.msg)).toEqual(['written']);
    expect(logLevelFromEnv({})).toBe('info');
    expect(() => logLevelFromEnv({ LOG_LEVEL: 'verbose' })).toThrow('LOG_LEVEL=verbose is not one of fatal, error, warn, info, debug, trace, silent.');
  });

  test("credential headers' fields are redacted at any of three depths, and so is a Bearer token in a message", () => {
    const { lines, destination } = captured();
    const logger = createLogger(redaction, { env: {}, destination });
    logger.info(
      { authorization: 'Bearer t-1', req: { headers: { authorization: 'Bearer t-2', 'x-api-key': 'k-1', 'x-tenant-key': 'k-2', accept: 'text/plain' } }, headers: { cookie: 'sid=s-1' } },
      'called with Bearer t-3 and x-api-key: k-3',
    );
    const line = JSON.stringify(lines);
    for (const secret of ['t-1', 't-2', 't-3', 'k-1', 'k-2', 'k-3', 's-1']) expect(line).not.toContain(secret);
    expect(lines[0]).toMatchObject({ authorization: '[redacted]', req: { headers: { accept: 'text/plain', 'x-tenant-key': '[redacted]' } }, msg: 'called with Bearer [redacted] and x-api-key: [redacted]' });
  });

  test('a message is redacted however often it and others come (each text its own)', () => {
    const { lines, destination } = captured();
    const logger = createLogger(redaction, { env: {}, destination });
    for (const message of ['request', 'request', 'with Bearer t-4', 'with Bearer t-4', 'request', 'with Bearer t-5'])
      logger.info(message);
    expect(lines.map((line) => line.msg)).toEqual(['request', 'request', 'with Bearer [redacted]', 'with Bearer [redacted]', 'request', 'with Bearer [redacted]']);
  });

  test('LOG_REDACT_FIELDS adds fields; a path pino cannot read is named', () => {
    const { lines, destination } = captured();
    createLogger(redaction, { env: { LOG_REDACT_FIELDS: 'user.password, *.token' }, destination }).info({ user: { password: 'p-1', name: 'ann' }, session: { token: 'x-1' } }, 'login');
    expect(lines[0]).toMatchObject({ user: { password: '[redacted]', name: 'ann' }, session: { token: '[redacted]' } });
    expect(() => createLogger(redaction, { env: { LOG_REDACT_FIELDS: 'user..password' }, destination })).toThrow('LOG_REDACT_FIELDS=user..password is not a list of field paths such as user.password,*.token.');
  });

  test("an API key header with characters a path cannot hold still makes a logger", () => {
    const odd = redactionOf(['x-key"]', 'x.key', "x'key"], {});
    const { lines, destination } = captured();
    createLogger(odd, { env: {}, destination }).info({ 'x.key': 'k-1' }, 'ok');
    expect(lines[0]).toMatchObject({ msg: 'ok', 'x.key': '[redacted]' });
  });

  test('errorLoggerFor: one error line with the stack as text and the path redacted', () => {
    const { lines, destination } = captured();
    const log = errorLoggerFor(createLogger(redaction, { env: {}, destination }), redaction);
    log({ requestId: 'req-1', method: 'GET', path: '/books/x-api-key=k-123', error: new Error('boom Bearer t-9') });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: 'request failed', requestId: 'req-1', method: 'GET', path: '/books/x-api-key=[redacted]' });
    expect(lines[0]!.error).toMatch(/^Error: boom Bearer \[redacted\]\n\s+at /);
  });
});

/** A destination that keeps what it is given, as text. */
function raw(): { text: string[]; destination: Writable } {
  const text: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text.push(chunk.toString());
      done();
    },
  });
  return { text, destination };
}

/** Written through pino's `info`, then through the access writer: both lines, their times made equal. */
async function bothWays(line: AccessLine, env: NodeJS.ProcessEnv = {}): Promise<[string, string]> {
  const { text, destination } = raw();
  const logger = createLogger(redaction, { env, destination });
  logger.info(line, 'request');
  accessWriterOf(logger)(line);
  await new Promise((resolve) => setImmediate(resolve));
  const [viaPino, direct] = text.map((written) => written.replace(/"time":\d+/, '"time":0'));
  return [viaPino!, direct!];
}

describe('accessWriterOf: the access line written directly', () => {
  const plain: AccessLine = { requestId: '0b6c3f9e-8d4e-4f43-9a51-2f1d0c7e5a10', method: 'GET', route: '/authors/{author_id}/books/{book_id}', status: 200, durationMs: 1.27 };
  const lines: [string, AccessLine][] = [
    ['the usual line', plain],
    ['a principal and a trace id', { ...plain, principal: 'user-7', traceId: '4bf92f3577b34da6a3ce929d0e0e4736' }],
    ['quotes, backslashes and control characters', { ...plain, route: '/a"b\\c/{x}\n\t\u0001', principal: 'ann "the" \\ admin' }],
    ['text beyond ASCII, and beyond 100 characters', { ...plain, route: `/bücher/${'日本'.repeat(60)}/{id}`, principal: '\u2028👩‍💻' }],
    // The plain texts written as they are (logger.ts's PLAIN_TEXT) at their edges: every printable ASCII character, DEL, nothing.
    ['each printable ASCII character, DEL and an empty text', { ...plain, route: String.fromCharCode(...Array.from({ length: 96 }, (_, n) => n + 0x20)), principal: '' }],
    ['whole and large numbers, and the line of a dropped connection', { ...plain, method: 'DELETE', route: '(none)', status: 499, durationMs: 12345678.9 }],
  ];
  test.each(lines)('%s: byte for byte what pino writes', async (_name, line) => {
    const [viaPino, direct] = await bothWays(line);
    expect(direct).toBe(viaPino);
    expect(JSON.parse(direct)).toMatchObject({ level: 30, msg: 'request', ...line });
  });

  test("createLogger's logger: the line does not take pino's info (the path this writer spares)", () => {
    const logger = createLogger(redaction, { env: {}, destination: raw().destination });
    const info = jest.spyOn(logger, 'info');
    accessWriterOf(logger)(plain);
    expect(info).not.toHaveBeenCalled();
  });

  test('a lone surrogate is escaped (pino on Node 20 leaves it raw): the line is still valid JSON with the same text', async () => {
    const line = { ...plain, route: '/x/\ud800/{id}' };
    const [, direct] = await bothWays(line);
    expect(direct).toContain('\\ud800');
    expect(JSON.parse(direct).route).toBe(line.route);
  });

  test('a non-finite duration is null, as pino writes it', async () => {
    const [viaPino, direct] = await bothWays({ ...plain, durationMs: Number.NaN });
    expect(direct).toBe(viaPino);
    expect(JSON.parse(direct).durationMs).toBeNull();
  });

  test("with LOG_REDACT_FIELDS, pino's path: a field it names is redacted in the access line too", async () => {
    const [viaPino, direct] = await bothWays({ ...plain, principal: 'user-7' }, { LOG_REDACT_FIELDS: 'principal' });
    expect(direct).toBe(viaPino);
    expect(JSON.parse(direct).principal).toBe('[redacted]');
  });

  test("a logger createLogger did not make is written through its own info", () => {
    const { text, destination } = raw();
    const own = pino({ base: { service: 'mine' }, timestamp: false }, destination);
    accessWriterOf(own)(plain);
    own.flush();
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        expect(JSON.parse(text.join(''))).toEqual({ level: 30, service: 'mine', msg: 'request', ...plain });
        resolve();
      }),
    );
  });
});

describe('observeRequests: the access line', () => {
  test('one line per request: method, route template, status, duration, request id, principal, trace id; never the path', async () => {
    const { lines, destination } = captured();
    const app = new Koa<ServiceState>();
    app.use(observeRequests({ logger: createLogger(redaction, { env: {}, destination }), asyncContext: false }));
    app.use(async (ctx) => {
      ctx.state.route = '/books/{id}';
      ctx.state.principal = { id: 'user-7', scheme: 'bearer', scopes: [] };
      ctx.status = ctx.path.endsWith('missing') ? 404 : 200;
      ctx.body = { ok: true };
    });
    const served = await listen(app as never);
    try {
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      // Secrets with a `.`: a request id the service makes (base64url and a count) never holds one.
      const answer = await fetch(`${served.base}/books/secret-id?token=t.1`, { headers: { authorization: 'Bearer t.2', traceparent, 'x-request-id': 'req-42' } });
      expect(answer.headers.get('x-request-id')).toBe('req-42');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      await fetch(`${served.base}/books/missing`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await served.close();
    }
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'request', requestId: 'req-42', method: 'GET', route: '/books/{id}', status: 200, principal: 'user-7', traceId: '4bf92f3577b34da6a3ce929d0e0e4736' });
    expect(typeof lines[0]!.durationMs).toBe('number');
    expect(lines[1]).toMatchObject({ route: '/books/{id}', status: 404 });
    expect(lines[1]).not.toHaveProperty('traceId');
    expect(JSON.stringify(lines)).not.toMatch(/secret-id|t\.1|t\.2/);
  });

  test("a span of no SDK (all-zero ids, the API's no-op) does not hide the caller's trace id", async () => {
    const { lines, destination } = captured();
    const noop: Tracing = { start: () => ({ ids: { traceId: '0'.repeat(32), spanId: '0'.repeat(16) }, within: (run) => run(), finish: () => undefined }) };
    const app = new Koa<ServiceState>();
    app.use(observeRequests({ logger: createLogger(redaction, { env: {}, destination }), asyncContext: false, tracing: noop }));
    app.use((ctx) => void (ctx.body = 'ok'));
    const served = await listen(app as never);
    try {
      await fetch(served.base, { headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' } });
      await fetch(served.base);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await served.close();
    }
    expect(lines.map((line) => line.traceId)).toEqual(['4bf92f3577b34da6a3ce929d0e0e4736', undefined]);
  });

  test('LOG_REDACT_FIELDS applies to the access line too (principal)', async () => {
    const { lines, destination } = captured();
    const app = new Koa<ServiceState>();
    app.use(observeRequests({ logger: createLogger(redaction, { env: { LOG_REDACT_FIELDS: 'principal' }, destination }), asyncContext: false }));
    app.use((ctx) => {
      ctx.state.principal = { id: 'user-7', scheme: 'bearer', scopes: [] };
      ctx.body = 'ok';
    });
    const served = await listen(app as never);
    try {
      await fetch(served.base);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await served.close();
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request', principal: '[redacted]' });
  });

  test('at LOG_LEVEL=warn, no access lines', async () => {
    const { lines, destination } = captured();
    const app = new Koa<ServiceState>();
    app.use(observeRequests({ logger: createLogger(redaction, { env: { LOG_LEVEL: 'warn' }, destination }), asyncContext: false }));
    app.use((ctx) => void (ctx.body = 'ok'));
    const served = await listen(app as never);
    try {
      expect((await fetch(served.base)).status).toBe(200);
    } finally {
      await served.close();
    }
    expect(lines).toEqual([]);
  });
});
