/** Reading a JSON request body: 415, 413 by bytes and by structure, 400 for what is not JSON, and a client that hangs up. */
import Koa from 'koa';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { checkBounds, NO_BODY, readJsonBody } from '../../../src/runtime/server/generated/conventions/body.js';
import { ApiError } from '../../../src/runtime/server/generated/conventions/errors.js';

const RULE = { contentTypes: ['application/json'], required: true, limit: 64 };
const BOUNDS = { maxDepth: 3, maxMembers: 5 };

/** A Koa context over a request that has not arrived yet: the test sends its body. */
function request(headers: Record<string, string>) {
  const req = new IncomingMessage(new Socket());
  req.headers = headers;
  return { req, ctx: new Koa().createContext(req, new ServerResponse(req)) };
}

/** Reads `body`, sent as one chunk, with a Content-Length unless `headers` say otherwise. */
function read(body: string, headers: Record<string, string> = {}, bounds = BOUNDS) {
  const { req, ctx } = request({ 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers });
  const result = readJsonBody(ctx, RULE, bounds);
  req.push(body);
  req.push(null);
  return { result, ctx };
}

/** What a read ended with: the body, or the status and code of the error. */
const outcome = (result: Promise<unknown>) =>
  result.then(
    (body) => ({ body }),
    (error: unknown) => (error instanceof ApiError ? { status: error.status, code: error.code } : { thrown: error }),
  );

describe('what the body is read as', () => {
  test.each([
    { given: '{"title":"Dune","tags":["sf"]}', headers: {}, want: { body: { title: 'Dune', tags: ['sf'] } } },
    { given: '{"title":"Dune"}', headers: { 'content-type': 'application/merge-patch+json' }, want: { body: { title: 'Dune' } } },
    { given: '', headers: {}, want: { body: NO_BODY } },
    { given: ' \t ', headers: {}, want: { body: NO_BODY } },
    { given: 'title=Dune', headers: { 'content-type': 'application/x-www-form-urlencoded' }, want: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' } },
    { given: '{"title":', headers: {}, want: { status: 400, code: 'BAD_REQUEST' } },
    { given: "{'title':'Dune'}", headers: {}, want: { status: 400, code: 'BAD_REQUEST' } },
    { given: '[[[["too deep"]]]]', headers: {}, want: { status: 413, code: 'PAYLOAD_TOO_LARGE' } },
    { given: '[1,2,3,4,5,6]', headers: {}, want: { status: 413, code: 'PAYLOAD_TOO_LARGE' } },
  ])('$given ($headers)', async ({ given, headers, want }) => {
    expect(await outcome(read(given, headers as Record<string, string>).result)).toEqual(want);
  });

  test('a request without a body at all (no Content-Length, no Transfer-Encoding) has none, whatever its type', async () => {
    const { ctx } = request({ 'content-type': 'text/plain' });
    await expect(readJsonBody(ctx, RULE, BOUNDS)).resolves.toBe(NO_BODY);
  });

  test('the 415 names the media types the operation takes', async () => {
    await expect(read('x', { 'content-type': 'text/plain' }).result).rejects.toThrow('application/json');
  });
});

describe('the byte limit', () => {
  const big = JSON.stringify({ title: 'x'.repeat(RULE.limit) });

  test('a body past the limit is read to its end, then a 413 on an open connection', async () => {
    const { result, ctx } = read(big);
    expect(await outcome(result)).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(ctx.response.get('Connection')).toBeUndefined();
  });

  test('a body exactly at the limit is read', async () => {
    const exact = JSON.stringify({ t: 'x'.repeat(RULE.limit - 8) });
    expect(exact).toHaveLength(RULE.limit);
    expect(await outcome(read(exact).result)).toEqual({ body: JSON.parse(exact) });
  });

  test('a Content-Length past the bound (8 MiB here) is refused unread, and the connection closed', async () => {
    const { req, ctx } = request({ 'content-type': 'application/json', 'content-length': String(8 * 1024 * 1024 + 1) });
    const result = readJsonBody(ctx, RULE, BOUNDS);
    expect(req.listenerCount('data')).toBe(0);
    req.push(null); // were it reading, an empty body would end the read rather than leave it waiting
    expect(await outcome(result)).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(ctx.response.get('Connection')).toBe('close');
  });

  test('a chunked body that goes on past the bound is cut short, and the connection closed', async () => {
    const { req, ctx } = request({ 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    const result = readJsonBody(ctx, RULE, BOUNDS);
    req.push(Buffer.alloc(8 * 1024 * 1024 + 1, 0x20));
    req.push(null); // read to its end, it would be a 413 on an open connection
    expect(await outcome(result)).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(ctx.response.get('Connection')).toBe('close');
  });
});

describe('a client that hangs up mid-body', () => {
  test.each([
    { given: 'closes', hangUp: (req: IncomingMessage) => req.destroy() },
    { given: 'resets (an aborted error)', hangUp: (req: IncomingMessage) => req.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })) },
  ])('$given: a quiet 400 (clientGone), not an error of the service', async ({ hangUp }) => {
    const { req, ctx } = request({ 'content-type': 'application/json', 'content-length': '40' });
    const result = readJsonBody(ctx, RULE, BOUNDS);
    req.push('{"title":');
    hangUp(req);
    await expect(result).rejects.toThrow('closed the connection before the request body arrived');
  });

  test('an error after the body was complete is passed on as it is', async () => {
    const { req, ctx } = request({ 'content-type': 'application/json', 'content-length': '40' });
    const result = readJsonBody(ctx, RULE, BOUNDS);
    req.complete = true;
    const failure = new Error('socket failure');
    req.destroy(failure);
    await expect(result).rejects.toBe(failure);
  });
});

describe('checkBounds', () => {
  test.each([
    { given: { a: [1] }, bounds: { maxDepth: 2, maxMembers: 2 }, want: 'within' }, // `{"a":[1]}` has 2 levels, 2 members
    { given: { a: [1] }, bounds: { maxDepth: 1, maxMembers: 2 }, want: 'nests deeper than 1 levels' },
    { given: { a: [1] }, bounds: { maxDepth: 2, maxMembers: 1 }, want: 'more than 1 members' },
    { given: [{ a: 1, b: 2 }, { c: 3 }], bounds: { maxDepth: 2, maxMembers: 5 }, want: 'within' },
    { given: [{ a: 1, b: 2 }, { c: 3 }], bounds: { maxDepth: 2, maxMembers: 4 }, want: 'more than 4 members' }, // counted over all levels
    { given: 'a string', bounds: { maxDepth: 1, maxMembers: 0 }, want: 'within' },
  ])('$given within $bounds: $want', ({ given, bounds, want }) => {
    const check = () => checkBounds(given, bounds);
    if (want === 'within') expect(check).not.toThrow();
    else expect(check).toThrow(want);
  });

  test('walks a body nested far past any stack without recursing', () => {
    let deep: unknown[] = [];
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(() => checkBounds(deep, { maxDepth: 1_000_000, maxMembers: 1_000_000 })).not.toThrow();
    expect(() => checkBounds(deep, { maxDepth: 64, maxMembers: 1_000_000 })).toThrow(ApiError);
  });
});
