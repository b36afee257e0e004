/** The handler time limit: one queue and one timer for every request of a route (deadline.ts). */
import { handlerDeadline } from '../../../src/runtime/server/generated/conventions/deadline.js';
import { ApiError } from '../../../src/runtime/server/generated/conventions/errors.js';

const never = () => new Promise<never>(() => {});

test('a handler that answers in time gives its answer, or its error', async () => {
  const within = handlerDeadline(60_000);
  await expect(within(Promise.resolve('book'))).resolves.toBe('book');
  await expect(within(Promise.reject(new Error('store down')))).rejects.toThrow('store down');
});

test('a result that is no promise is handed back as it is: no promise made, no turn waited for', () => {
  const within = handlerDeadline(60_000);
  const book = { id: 1 };
  expect(within(book)).toBe(book);
  expect(within(undefined)).toBeUndefined();
});

test('a handler past the limit is answered 503 with Retry-After; the others still answer', async () => {
  const within = handlerDeadline(20);
  let finish: (value: string) => void = () => {};
  const late = within(never());
  const answered = within(new Promise<string>((resolve) => (finish = resolve)));
  const later = within(never());
  finish('in time');
  await expect(answered).resolves.toBe('in time');
  for (const waiting of [late, later]) {
    const error = await waiting.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, headers: { 'Retry-After': '1' } });
  }
});

test('another library’s promise (a thenable) is held to the limit too', async () => {
  const within = handlerDeadline(20);
  const thenable = { then: () => undefined } as unknown as Promise<string>;
  const error = await Promise.resolve(within(thenable)).catch((caught: unknown) => caught);
  expect(error).toMatchObject({ status: 503 });
  const answering: PromiseLike<string> = { then: (resolve) => Promise.resolve('row').then(resolve) };
  await expect(within(answering as Promise<string>)).resolves.toBe('row');
});

test('a request that starts after the queue emptied still has its limit', async () => {
  const within = handlerDeadline(20);
  await within(Promise.resolve(1));
  await expect(within(never())).rejects.toMatchObject({ status: 503 });
  await expect(within(Promise.resolve(2))).resolves.toBe(2);
});

test('a handler that fails after its 503 is not heard (no unhandled rejection)', async () => {
  const within = handlerDeadline(10);
  let fail: (error: Error) => void = () => {};
  const waiting = within(new Promise<never>((_, reject) => (fail = reject)));
  await expect(waiting).rejects.toMatchObject({ status: 503 });
  fail(new Error('too late'));
  await new Promise((done) => setImmediate(done));
});
