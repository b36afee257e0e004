/** The conventions' headers: waiting for the answer's one writeHead, or set at once; never lost either way. */
import Koa from 'koa';
import {
  answerJson,
  gatherHeaders,
  releaseHeaders,
  setAnswerHeader,
} from '../../../src/runtime/server/generated/conventions/answer-headers.js';
import { corsFor } from '../../../src/runtime/server/generated/conventions/cors.js';
import type { ServiceState } from '../../../src/runtime/server/generated/conventions/state.js';
import { listen, type Listening } from '../../loopback.js';

type Answer = (ctx: Koa.ParameterizedContext<ServiceState>) => void;

/** A service in miniature: observe.ts's part (gather, release after the rest), one convention's header, then `answer`. */
async function service(gather: boolean, answer: Answer): Promise<Listening> {
  const app = new Koa<ServiceState>();
  app.use(async (ctx, next) => {
    if (gather) gatherHeaders(ctx);
    setAnswerHeader(ctx, 'X-Request-Id', 'req-1');
    await next();
    releaseHeaders(ctx);
  });
  app.use((ctx) => answer(ctx));
  return listen(app);
}

async function ask(answer: Answer, { gather = true, method = 'GET' } = {}) {
  const running = await service(gather, answer);
  try {
    const response = await fetch(running.base, { method });
    return { status: response.status, headers: response.headers, body: await response.text() };
  } finally {
    await running.close();
  }
}

describe.each([true, false])('gathering headers: %s', (gather) => {
  test('a JSON answer in parts (texts, bytes) carries the waiting headers, its type and its length', async () => {
    const json = '{"data":"é","meta":{}}';
    const parts = ['{"data":', Buffer.from('"é"'), ',"meta":{}}'];
    const answered = await ask((ctx) => answerJson(ctx, 201, parts), { gather });
    expect(answered).toMatchObject({ status: 201, body: json });
    expect(answered.headers.get('x-request-id')).toBe('req-1');
    expect(answered.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answered.headers.get('content-length')).toBe(String(Buffer.byteLength(json)));
  });

  test('a JSON answer of texts alone (an item) goes out whole, its length in bytes', async () => {
    const answered = await ask((ctx) => answerJson(ctx, 200, ['{"data":', '"ünïcödé"', '}']), { gather });
    expect(answered).toMatchObject({ status: 200, body: '{"data":"ünïcödé"}' });
    expect(answered.headers.get('content-length')).toBe(String(Buffer.byteLength('{"data":"ünïcödé"}')));
    expect(answered.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  test('a HEAD gets the GET answer’s length and no body', async () => {
    const answered = await ask((ctx) => answerJson(ctx, 200, ['{"data":', '1}']), { gather, method: 'HEAD' });
    expect(answered).toMatchObject({ status: 200, body: '' });
    expect(answered.headers.get('content-length')).toBe('10');
  });

  test('a 304 has the headers and neither body nor type', async () => {
    const answered = await ask((ctx) => answerJson(ctx, 304, undefined), { gather });
    expect(answered.status).toBe(304);
    expect(answered.headers.get('x-request-id')).toBe('req-1');
    expect(answered.headers.get('content-type')).toBeNull();
  });

  test('headers set on the response by others (CORS) are kept beside the waiting ones', async () => {
    const answered = await ask(
      (ctx) => {
        ctx.set('Vary', 'Origin');
        answerJson(ctx, 200, ['{}']);
      },
      { gather },
    );
    expect(answered.headers.get('vary')).toBe('Origin');
    expect(answered.headers.get('x-request-id')).toBe('req-1');
  });

  test('an answer Koa sends (an error, a preflight) gets the waiting headers too', async () => {
    const answered = await ask(
      (ctx) => {
        ctx.status = 404;
        ctx.body = { error: { code: 'NOT_FOUND' } };
      },
      { gather },
    );
    expect(answered.status).toBe(404);
    expect(answered.headers.get('x-request-id')).toBe('req-1');
  });
});

test('a waiting header Node refuses still leaves an answer: the error, through Koa', async () => {
  const running = await service(true, (ctx) => {
    setAnswerHeader(ctx, 'Cache-Control', 'max-age=60\r\nX-Injected: 1');
    try {
      answerJson(ctx, 200, ['{}']);
    } catch {
      ctx.status = 500;
      ctx.body = { error: { code: 'INTERNAL_ERROR' } };
    }
  });
  try {
    const response = await fetch(running.base, { signal: AbortSignal.timeout(5_000) });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-injected')).toBeNull();
  } finally {
    await running.close();
  }
});

test('without gathering, a header is on the response at once, for middleware to read', async () => {
  let seen: string | undefined;
  const answered = await ask(
    (ctx) => {
      seen = ctx.response.get('X-Request-Id') as string;
      answerJson(ctx, 200, ['{}']);
    },
    { gather: false },
  );
  expect(seen).toBe('req-1');
  expect(answered.status).toBe(200);
});

test('releasing after the head went out (a stream wrote it) is harmless', async () => {
  const answered = await ask((ctx) => {
    ctx.respond = false;
    ctx.res.writeHead(200, { 'Content-Type': 'text/plain' });
    ctx.res.end('streamed');
    releaseHeaders(ctx);
  });
  expect(answered).toMatchObject({ status: 200, body: 'streamed' });
});

test('a CORS preflight, answered by the CORS middleware, carries the waiting headers', async () => {
  const app = new Koa<ServiceState>();
  // As observe.ts with gathering on: the headers wait; nothing after the CORS middleware runs for a preflight.
  app.use((ctx, next) => {
    gatherHeaders(ctx);
    setAnswerHeader(ctx, 'X-Request-Id', 'req-1');
    return next();
  });
  app.use(corsFor(['https://app.example.com'])!);
  app.use((ctx) => answerJson(ctx, 200, ['{}']));
  const running = await listen(app);
  try {
    const response = await fetch(running.base, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(response.headers.get('x-request-id')).toBe('req-1');
  } finally {
    await running.close();
  }
});
