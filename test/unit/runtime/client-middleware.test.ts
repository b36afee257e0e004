/** The client's middleware (onRequest, onResponse, onError), its token refresh after a 401, and calls that need no argument. */
import { NetworkError, Transport, type ClientOptions, type Middleware, type Operation } from '../../../src/runtime/client/runtime.js';

/** A fetch that answers from a script and records what it was sent (a Request, or a URL and its init). */
function scripted(...answers: ((request: Request) => Response)[]) {
  const seen: Request[] = [];
  const fetch = (async (input: string | Request, init?: RequestInit) => {
    const request = typeof input === 'string' ? new Request(input, init) : input;
    seen.push(request);
    const next = answers.shift();
    if (!next) throw new Error('no more answers scripted');
    return next(request);
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

const ok = (data: unknown = { id: 1 }) => () => new Response(JSON.stringify({ data }), { status: 200 });
const unauthorized = () => new Response(JSON.stringify({ error: { code: 'UNAUTHORIZED', message: 'expired' } }), { status: 401 });
const transport = (fetch: typeof globalThis.fetch, options: Partial<ClientOptions> = {}) =>
  new Transport({ baseUrl: 'http://api.test', fetch, apiKeyHeader: 'X-API-Key', retry: { baseDelayMs: 0 }, ...options });
const get = { method: 'GET', path: '/books/{id}' };

test('onRequest changes the request, onResponse the answer, in order and in reverse', async () => {
  const order: string[] = [];
  const tag = (name: string): Middleware => ({
    onRequest: ({ request, operation }) => {
      order.push(`request ${name} ${operation.method} ${operation.path}`);
      const headers = new Headers(request.headers);
      headers.append('x-trace', name);
      return new Request(request, { headers });
    },
    onResponse: () => {
      order.push(`response ${name}`);
      return name === 'outer' ? new Response(JSON.stringify({ data: { id: 2 } }), { status: 200 }) : undefined;
    },
  });
  const { fetch, seen } = scripted(ok());
  const answer = await transport(fetch, { middleware: [tag('outer'), tag('inner')] }).request(get, { id: 1 });
  expect(seen[0]!.headers.get('x-trace')).toBe('outer, inner');
  expect(order).toEqual(['request outer GET /books/{id}', 'request inner GET /books/{id}', 'response inner', 'response outer']);
  expect(answer.data).toEqual({ id: 2 });
});

test('onError answers for a failed network; without it the failure is a NetworkError', async () => {
  const down = () => {
    throw new TypeError('fetch failed');
  };
  const offline: Middleware = { onError: ({ error }) => (error instanceof TypeError ? new Response(JSON.stringify({ data: { id: 'cached' } }), { status: 200 }) : undefined) };
  expect((await transport(scripted(down).fetch, { middleware: [offline], retry: false }).request(get, { id: 1 })).data).toEqual({ id: 'cached' });
  await expect(transport(scripted(down).fetch, { middleware: [{}], retry: false }).request(get, { id: 1 })).rejects.toBeInstanceOf(NetworkError);
});

test('a 401 is tried once more with a refreshed token, even for a POST; later calls use it', async () => {
  const { fetch, seen } = scripted(unauthorized, ok(), ok());
  let refreshes = 0;
  const client = transport(fetch, { token: 'old', refreshToken: async () => `new-${++refreshes}` });
  await expect(client.request({ method: 'POST', path: '/books' }, { body: { title: 'x' } })).resolves.toMatchObject({ status: 200 });
  await client.request(get, { id: 1 });
  expect(seen.map((request) => request.headers.get('authorization'))).toEqual(['Bearer old', 'Bearer new-1', 'Bearer new-1']);
  expect(refreshes).toBe(1);
});

test('a second 401 is the answer: no loop of refreshes; concurrent 401s share one refresh', async () => {
  let refreshes = 0;
  const refreshToken = async () => {
    await new Promise((resolve) => setTimeout(resolve, 10));
    return `new-${++refreshes}`;
  };
  await expect(transport(scripted(unauthorized, unauthorized).fetch, { refreshToken }).request(get, { id: 1 })).rejects.toMatchObject({ status: 401 });
  refreshes = 0;
  const client = transport(scripted(unauthorized, unauthorized, ok(), ok()).fetch, { token: 'old', refreshToken });
  await Promise.all([client.request(get, { id: 1 }), client.request(get, { id: 2 })]);
  expect(refreshes).toBe(1);
});

test('an operation whose parameters are all optional is called with none', async () => {
  const { fetch, seen } = scripted(ok([]), ok([]));
  const client = transport(fetch);
  const list: Operation<{ query?: { limit?: number } }, unknown[]> = client.operation({ method: 'GET', path: '/books' });
  await list();
  await list.withResponse();
  expect(seen.map((request) => request.url)).toEqual(['http://api.test/books', 'http://api.test/books']);
  const read: Operation<{ id: number }, unknown> = client.operation(get);
  // @ts-expect-error -- a required path parameter: the call needs its argument
  void (() => read());
});
