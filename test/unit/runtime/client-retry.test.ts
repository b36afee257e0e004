/** The client's retry policy: which answers are tried again, how often, and how `Retry-After` is honoured. */
import { ApiError, Transport, type ClientOptions } from '../../../src/runtime/client/runtime.js';

/** A fetch that answers from a script, one response per call, and records the methods it saw. */
function scripted(...answers: (() => Response)[]) {
  const calls: string[] = [];
  const fetch = (async (_url: string, init?: RequestInit) => {
    calls.push(init?.method ?? 'GET');
    const next = answers.shift();
    if (!next) throw new Error('no more answers scripted');
    return next();
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

const ok = () => new Response(JSON.stringify({ data: { id: 1 } }), { status: 200 });
const unavailable = (headers: Record<string, string> = {}) => () =>
  new Response(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'later' } }), { status: 503, headers });

function transport(fetch: typeof globalThis.fetch, options: Partial<ClientOptions> = {}) {
  return new Transport({ baseUrl: 'http://api.test', fetch, apiKeyHeader: 'X-API-Key', retry: { baseDelayMs: 0 }, ...options });
}

const get = { method: 'GET', path: '/books/{id}' };

test('an idempotent call is tried again after a retryable status', async () => {
  const { fetch, calls } = scripted(unavailable(), ok);
  await expect(transport(fetch).request(get, { id: 1 })).resolves.toMatchObject({ status: 200, data: { id: 1 } });
  expect(calls).toEqual(['GET', 'GET']);
});

test('retries stop after `retries`, and the last answer is the error', async () => {
  const { fetch, calls } = scripted(unavailable(), unavailable(), unavailable());
  await expect(transport(fetch).request(get, { id: 1 })).rejects.toMatchObject({ status: 503 });
  expect(calls).toHaveLength(3);
});

test('a POST is never tried again: it may have taken effect', async () => {
  const { fetch, calls } = scripted(unavailable(), ok);
  await expect(transport(fetch).request({ method: 'POST', path: '/books' }, { body: {} })).rejects.toBeInstanceOf(ApiError);
  expect(calls).toEqual(['POST']);
});

test('a status outside the retryable ones is answered at once', async () => {
  const { fetch, calls } = scripted(() => new Response('{}', { status: 500 }), ok);
  await expect(transport(fetch).request(get, { id: 1 })).rejects.toMatchObject({ status: 500 });
  expect(calls).toHaveLength(1);
});

test('Retry-After is waited for when short enough, and fails at once when longer than maxRetryAfterMs', async () => {
  const short = scripted(unavailable({ 'retry-after': '0' }), ok);
  await expect(transport(short.fetch).request(get, { id: 1 })).resolves.toMatchObject({ status: 200 });
  const long = scripted(unavailable({ 'retry-after': '120' }), ok);
  await expect(transport(long.fetch).request(get, { id: 1 })).rejects.toMatchObject({ status: 503 });
  expect(long.calls).toHaveLength(1);
});

test('`retry: false` turns retries off', async () => {
  const { fetch, calls } = scripted(unavailable(), ok);
  await expect(transport(fetch, { retry: false }).request(get, { id: 1 })).rejects.toMatchObject({ status: 503 });
  expect(calls).toHaveLength(1);
});
