/** X-Request-Id: the caller's when it is sensible, else one this process never gave before. */
import Koa from 'koa';
import { gatherHeaders, releaseHeaders } from '../../../src/runtime/server/generated/conventions/answer-headers.js';
import { assignRequestId, newRequestId } from '../../../src/runtime/server/generated/conventions/request-id.js';
import type { ServiceState } from '../../../src/runtime/server/generated/conventions/state.js';
import { listen } from '../../loopback.js';

test('new ids are distinct, share the process prefix, and are ids a caller may send on', () => {
  const ids = Array.from({ length: 10_000 }, newRequestId);
  expect(new Set(ids).size).toBe(ids.length);
  const prefix = ids[0]!.slice(0, ids[0]!.lastIndexOf('-') + 1);
  expect(prefix).toMatch(/^[\w-]{12}-$/);
  for (const id of ids) expect(id).toMatch(/^[\w.:@/+=-]{1,128}$/);
  expect(ids.every((id) => id.startsWith(prefix))).toBe(true);
});

describe('on the answer', () => {
  async function idsFor(given: string | undefined): Promise<{ header: string | null; state: string }> {
    let state = '';
    const app = new Koa<ServiceState>();
    app.use((ctx) => {
      gatherHeaders(ctx);
      assignRequestId(ctx);
      state = ctx.state.requestId;
      ctx.body = 'ok';
      releaseHeaders(ctx);
    });
    const running = await listen(app);
    try {
      const response = await fetch(running.base, { headers: given === undefined ? {} : { 'x-request-id': given } });
      return { header: response.headers.get('x-request-id'), state };
    } finally {
      await running.close();
    }
  }

  test('the caller’s sensible id is echoed', async () => {
    expect(await idsFor('trace-abc.123')).toEqual({ header: 'trace-abc.123', state: 'trace-abc.123' });
  });

  test('an id with characters a log line should not carry is replaced by a new one', async () => {
    const { header, state } = await idsFor('a"b c');
    expect(header).toBe(state);
    expect(header).not.toBe('a"b c');
    expect(header).toMatch(/^[\w-]{12}-\d+$/);
  });

  test('no id sent: a new one, the same in the header and the request state', async () => {
    const first = await idsFor(undefined);
    const second = await idsFor(undefined);
    expect(first.header).toBe(first.state);
    expect(second.header).not.toBe(first.header);
  });
});
