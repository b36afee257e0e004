/**
 * Where the service's log lines go by default: stdout, in batches. A line
 * waits until `flushMs` have passed since the first line of its batch, or
 * until the batch holds `batchChars`; then the batch goes out in one
 * asynchronous write (pino's SonicBoom). Why: one write per line cost a GET
 * by id a quarter of its time, a trip through libuv's thread pool and back
 * for every access line.
 *
 * At exit the waiting lines are written synchronously, so a fatal line
 * before `process.exit` is kept; a process killed outright (SIGKILL) loses
 * at most its last `flushMs` of lines.
 */
import { writeSync } from 'node:fs';
import { pino, type DestinationStream } from 'pino';

export interface LineBatchOptions {
  /** The longest a line waits. */
  flushMs: number;
  /** A batch this long goes out at once. */
  batchChars: number;
}

export interface LineBatch extends DestinationStream {
  /** Hands the waiting lines on now (pino's `logger.flush(done)`). */
  flush(done?: (error?: Error) => void): void;
  /** Takes the waiting lines out of the batch, joined (for a synchronous write at exit). */
  take(): string;
}

/** Lines gathered in memory and handed to `write` a batch at a time. */
export function lineBatch(
  write: (batch: string) => void,
  { flushMs, batchChars }: LineBatchOptions,
): LineBatch {
  let lines: string[] = [];
  let chars = 0;
  let timer: NodeJS.Timeout | undefined;
  const take = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = lines.join('');
    lines = [];
    chars = 0;
    return batch;
  };
  const flush = (done?: (error?: Error) => void) => {
    const batch = take();
    if (batch !== '') write(batch);
    done?.();
  };
  return {
    write(line: string) {
      lines.push(line);
      chars += line.length;
      if (chars >= batchChars) flush();
      // Unreferenced: waiting lines never keep the process alive (exit writes them).
      else timer ??= setTimeout(() => flush(), flushMs).unref();
    },
    flush,
    take,
  };
}

let stdout: LineBatch | undefined;

/** The process's stdout as a log destination: one batch for every logger, so lines keep their order. */
export function stdoutLines(): LineBatch {
  if (stdout) return stdout;
  const sonic = pino.destination({ dest: 1, sync: false });
  const batch = lineBatch((text) => sonic.write(text), { flushMs: 25, batchChars: 16_384 });
  process.on('exit', () => {
    const rest = batch.take();
    if (rest === '') return;
    try {
      sonic.flushSync(); // what SonicBoom still holds comes first
    } catch {
      // Ended already (pino ends it before a natural exit): it holds nothing.
    }
    try {
      writeSync(1, rest);
    } catch {
      // stdout is closed: nothing is left to tell it with.
    }
  });
  stdout = batch;
  return batch;
}
