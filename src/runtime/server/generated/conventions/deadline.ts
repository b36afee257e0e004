/**
 * The handler time limit (HANDLER_TIMEOUT_MS): past it the answer is 503
 * while the handler goes on alone. Every handler of a service has the same
 * limit, so their deadlines fall in the order they started: one queue and
 * one timer serve them all, where a timer per request (set and cleared on
 * every request, most of which answer in microseconds) would cost more than
 * the request.
 */
import { isThenable } from './auth.js';
import { ApiError, ERROR_CODES } from './errors.js';

interface Pending {
  /** `performance.now()` at which the handler has taken too long. */
  at: number;
  /** Rejects the waiting request with the 503; undefined once the handler answered. */
  fail: ((error: ApiError) => void) | undefined;
}

/** Holds a handler's promise to at most `timeoutMs`; a result that is no promise is handed back as it is. */
export type Deadline = <Result>(result: Result | PromiseLike<Result>) => Result | Promise<Result>;

export function handlerDeadline(timeoutMs: number): Deadline {
  let queue: Pending[] = [];
  let head = 0;
  let timer: NodeJS.Timeout | undefined;

  /** Drops the answered entries at the head: handlers mostly answer in the order they started. */
  const settle = () => {
    while (head < queue.length && queue[head]!.fail === undefined) head++;
    if (head === queue.length) {
      queue = [];
      head = 0;
    } else if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  };
  const arm = () => {
    // Unreferenced: a pending request holds its connection, and the connection the process.
    timer = setTimeout(expire, Math.max(0, queue[head]!.at - performance.now())).unref();
  };
  const expire = () => {
    timer = undefined;
    const now = performance.now();
    settle();
    while (head < queue.length && queue[head]!.at <= now) {
      const late = queue[head++]!;
      late.fail?.(tooLate(timeoutMs));
      late.fail = undefined;
    }
    settle();
    if (head < queue.length) arm();
  };

  return <Result,>(result: Result | PromiseLike<Result>): Result | Promise<Result> => {
    // A handler that answered at once has met its deadline. Another library's promise (a
    // thenable: Knex, Prisma) is held to the limit as a native one is.
    if (!isThenable(result)) return result;
    // A handler that fails after the answer is gone is no one's to hear: its rejection is dropped.
    return new Promise<Result>((resolve, reject) => {
      const entry: Pending = { at: performance.now() + timeoutMs, fail: reject };
      queue.push(entry);
      if (timer === undefined) arm();
      result.then(
        (value) => {
          if (entry.fail === undefined) return;
          entry.fail = undefined;
          settle();
          resolve(value);
        },
        (error: unknown) => {
          if (entry.fail === undefined) return;
          entry.fail = undefined;
          settle();
          reject(error);
        },
      );
    });
  };
}

function tooLate(timeoutMs: number): ApiError {
  return new ApiError(
    ERROR_CODES.unavailable,
    `The operation took longer than ${timeoutMs} ms; retry later.`,
    { headers: { 'Retry-After': '1' } },
  );
}
