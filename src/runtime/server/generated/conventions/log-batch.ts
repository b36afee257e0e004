/**
 * Where the service's log lines go by default: stdout, in batches. A line
 * waits until `flushMs` have passed since the first line of its batch, or
 * until the batch holds `batchBytes`; then the batch goes out in one
 * asynchronous write (pino's SonicBoom). Why: one write per line cost a GET
 * by id a quarter of its time, a trip through libuv's thread pool and back
 * for every access line.
 *
 * At exit the waiting lines are written synchronously, so a fatal line
 * before `process.exit` is kept. A process ended by a signal it does not
 * handle (SIGKILL, SIGHUP, a SIGTERM before `serve` handles it) loses at
 * most its last `flushMs` of lines.
 */
import { writeSync } from 'node:fs';
import { pino, type DestinationStream } from 'pino';

export interface LineBatchOptions {
  /** The longest a line waits. */
  flushMs: number;
  /** A batch this long, in bytes, goes out at once. */
  batchBytes: number;
}

export interface LineBatch extends DestinationStream {
  /** Hands the waiting lines on now (pino's `logger.flush(done)`). */
  flush(done?: (error?: Error) => void): void;
  /** Takes the waiting lines out of the batch (for a synchronous write at exit). */
  take(): Buffer;
}

/**
 * Lines gathered in memory and handed to `write` a batch at a time. Each line
 * is encoded once, into the batch's buffer, as it comes: no array of lines
 * to join, no text to measure and encode again at the write. A batch is
 * handed on as a copy of its bytes, the writer's to keep (a stalled stdout
 * then holds what was logged, not a whole buffer per batch), and the buffer
 * fills again.
 */
export function lineBatch(
  write: (batch: Buffer) => void,
  { flushMs, batchBytes }: LineBatchOptions,
): LineBatch {
  // Room for a batch and one more line of the longest usual kind (UTF-8: at most 3 bytes per UTF-16 unit).
  const capacity = batchBytes + 16_384;
  const buffer = Buffer.allocUnsafe(capacity);
  let used = 0;
  let timer: NodeJS.Timeout | undefined;
  const take = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = Buffer.from(buffer.subarray(0, used));
    used = 0;
    return batch;
  };
  const flush = (done?: (error?: Error) => void) => {
    const batch = take();
    if (batch.length > 0) write(batch);
    done?.();
  };
  return {
    write(line: string) {
      if (used + line.length * 3 > capacity) {
        flush();
        // Longer than a batch: it goes out alone.
        if (line.length * 3 > capacity) return void write(Buffer.from(line));
      }
      used += buffer.write(line, used);
      if (used >= batchBytes) flush();
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
  const sonic = pino.destination({ dest: 1, sync: false, contentMode: 'buffer' });
  // In `buffer` mode SonicBoom takes Buffers, and only Buffers (it counts a text's characters as bytes); its types know only text.
  const writeBytes = sonic.write.bind(sonic) as unknown as (bytes: Buffer) => boolean;
  // Few, large writes: each is a trip to libuv's thread pool, and waking its thread is what costs
  // (16 KB batches: under load the writes took 2% of a GET by id's CPU; 64 KB: under 0.3%). At
  // 25 ms a batch went out every 125 requests on a machine serving 5,000 a second: 2% again.
  const batch = lineBatch(writeBytes, { flushMs: 100, batchBytes: 65_536 });
  // Registered after pino's own exit hook (made with the destination), which
  // has written out what SonicBoom holds by the time this runs: order is kept.
  process.on('exit', () => writeAllSync(1, batch.take()));
  stdout = batch;
  return batch;
}

/**
 * Writes all of `text` to `fd` before returning. A pipe or terminal in
 * non-blocking mode takes part of a write, or none (EAGAIN), when full: the
 * rest is retried, waiting a millisecond at a time, for up to `patienceMs`.
 */
export function writeAllSync(fd: number, text: string | Buffer, patienceMs = 2_000): void {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const giveUpAt = Date.now() + patienceMs;
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(fd, bytes, written);
    } catch (error) {
      // Anything but a full pipe (stdout closed, EPIPE) leaves no one to tell.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || Date.now() > giveUpAt) return;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));
