/** What the service logs and never logs: credentials are blanked, errors are text (with their causes), not objects. */
import {
  asyncContextFromEnv,
  currentRequestId,
  describeError,
  redact,
  redactHeaders,
  redactionOf,
  requestScope,
} from '../../../src/runtime/server/generated/conventions/logging.js';

const NO_ENV = {};
const standard = redactionOf([], NO_ENV);

describe('redactHeaders', () => {
  test.each(['Authorization', 'proxy-authorization', 'X-API-Key', 'Cookie', 'set-cookie'])('%s is a credential, in any case', (name) => {
    expect(redactHeaders({ [name]: 'secret', accept: 'application/json' }, standard)).toEqual({ [name]: '[redacted]', accept: 'application/json' });
  });

  test("the spec's API key headers and LOG_REDACT_HEADERS (comma-separated, any case, spaces allowed) are too", () => {
    const redaction = redactionOf(['X-Tenant-Key'], { LOG_REDACT_HEADERS: ' X-Session , ,x-Signature' });
    const headers = { 'x-tenant-key': 'k', 'X-SESSION': 's', 'x-signature': 'sig', 'x-request-id': 'r1' };
    expect(redactHeaders(headers, redaction)).toEqual({ 'x-tenant-key': '[redacted]', 'X-SESSION': '[redacted]', 'x-signature': '[redacted]', 'x-request-id': 'r1' });
  });

  test('an empty LOG_REDACT_HEADERS adds nothing, and a header is not a credential by default', () => {
    expect(redactionOf([], { LOG_REDACT_HEADERS: '' }).headers).toEqual(standard.headers);
    expect(redactHeaders({ 'x-tenant-key': 'k' }, standard)).toEqual({ 'x-tenant-key': 'k' });
  });
});

describe('redact: text that carries a credential', () => {
  const redaction = redactionOf(['X-Tenant.Key'], NO_ENV); // a dot in a name is a dot, not "any character"
  test.each([
    { given: 'authorization: Bearer abc.def', want: 'authorization: [redacted]' },
    { given: 'headers: {"x-api-key":"k-123","accept":"*/*"}', want: 'headers: {"x-api-key":"[redacted]","accept":"*/*"}' },
    { given: "{ 'X-API-KEY': 'k-123', host: 'h' }", want: "{ 'X-API-KEY': '[redacted]', host: 'h' }" },
    { given: 'x-tenant.key=t-9; other=1', want: 'x-tenant.key=[redacted]; other=1' },
    { given: 'x-tenantXkey=t-9', want: 'x-tenantXkey=t-9' },
    { given: 'proxy-authorization: Basic dXNlcjpwYXNz, host: h', want: 'proxy-authorization: [redacted], host: h' },
    { given: 'fetch failed, sent Bearer eyJhbGciOi.eyJzdWIi.c2ln-_~+/= to the upstream', want: 'fetch failed, sent Bearer [redacted] to the upstream' },
    { given: 'login with basic dXNlcjpwYXNz', want: 'login with basic [redacted]' },
    { given: 'GET /books?limit=10 failed', want: 'GET /books?limit=10 failed' },
    // Before: a value ended at the first `;`, `,` or quote, so later cookies and quoted or listed values leaked.
    { given: 'cookie: theme=dark; session=s3cr3t', want: 'cookie: [redacted]' },
    { given: '{"cookie":"theme=dark; session=s3cr3t","accept":"*/*"}', want: '{"cookie":"[redacted]","accept":"*/*"}' },
    { given: '{"set-cookie":["sid=s3cr3t; HttpOnly","t=2"],"x-api-key":["k-123"]}', want: '{"set-cookie":[redacted],"x-api-key":[redacted]}' },
    { given: "{ 'set-cookie': [ 'sid=s3cr3t; HttpOnly' ], host: 'h' }", want: "{ 'set-cookie': [redacted], host: 'h' }" },
    { given: '{"x-api-key":"k-1\\"; still-the-key"}', want: '{"x-api-key":"[redacted]"}' },
    { given: 'authorization: "Digest username=\\"alice\\", response=\\"6629fae4\\""', want: 'authorization: "[redacted]"' },
  ])('$given', ({ given, want }) => {
    expect(redact(given, redaction)).toBe(want);
  });

  test('a header dump is blanked to the end of the line only', () => {
    expect(redact('Authorization: Digest abc\r\nHost: h\nCookie: sid=1', redaction)).toBe('Authorization: [redacted]\r\nHost: h\nCookie: [redacted]');
  });
});

describe('describeError', () => {
  test('is the stack, the code and the causes, as text', () => {
    const root = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const text = describeError(new Error('the store failed', { cause: root }), standard);
    expect(text).toMatch(/^Error: the store failed\n\s+at /);
    expect(text).toContain('\nCaused by: Error: connect ECONNREFUSED\n');
    expect(text).toMatch(/ {2}code: ECONNREFUSED$/);
  });

  test("never the error's other properties, which may carry a request; and credentials in its text are blanked", () => {
    const error = Object.assign(new Error('upstream said no to authorization: Bearer t0ken'), {
      config: { headers: { 'x-api-key': 'k-123' } },
      response: { body: 'private' },
    });
    const text = describeError(error, standard);
    expect(text).toContain('upstream said no to authorization: [redacted]');
    expect(text).not.toMatch(/t0ken|k-123|private|config/);
  });

  test('what is thrown that is not an Error is named by type, cut short, never serialised', () => {
    expect(describeError('x'.repeat(600), standard)).toBe(`string thrown: ${'x'.repeat(500)}`);
    expect(describeError({ token: 'k-123' }, standard)).toBe('object thrown: [object Object]');
    expect(describeError(new Error('outer', { cause: 42 }), standard)).toMatch(/\nCaused by: number thrown: 42$/);
  });

  test('follows five causes at most, so a cycle ends', () => {
    const looped = new Error('again');
    looped.cause = looped;
    expect(describeError(looped, standard).split('\n').filter((line) => /^(Caused by: )?Error: again$/.test(line))).toHaveLength(6);
  });
});

describe('the request scope', () => {
  test('async context: LOG_ASYNC_CONTEXT decides; unset, on from Node 24 only', () => {
    expect(asyncContextFromEnv({}, '20.20.2')).toBe(false);
    expect(asyncContextFromEnv({}, '24.1.0')).toBe(true);
    expect(asyncContextFromEnv({ LOG_ASYNC_CONTEXT: 'true' }, '20.20.2')).toBe(true);
    expect(asyncContextFromEnv({ LOG_ASYNC_CONTEXT: 'false' }, '24.1.0')).toBe(false);
    expect(() => asyncContextFromEnv({ LOG_ASYNC_CONTEXT: 'yes' }, '24.1.0')).toThrow('LOG_ASYNC_CONTEXT=yes is neither true nor false.');
  });

  test('the request id follows the asynchronous work of its request, and only that', async () => {
    expect(currentRequestId()).toBeUndefined();
    const seen = await requestScope.run({ requestId: 'req-7' }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return currentRequestId();
    });
    expect(seen).toBe('req-7');
    expect(currentRequestId()).toBeUndefined();
  });
});
