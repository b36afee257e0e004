/**
 * A pool of formatting worker threads with one queue. The first worker
 * starts with the first job; another starts only while the queue holds more
 * text than the workers running can take on (loading prettier costs a
 * thread half a second: GitHub's spec sends it 53 small parts, not worth a
 * second load). Free workers take the largest queued job, so no core sits
 * idle while one big part is still running.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../threads.js';
import { FormatError, type FormatJob } from './prettier.js';

export interface Pool {
  run(job: FormatJob): Promise<string>;
  close(): Promise<void>;
}

interface Queued {
  job: FormatJob;
  resolve: (text: string) => void;
  reject: (error: Error) => void;
}

type Reply = { text?: string; error?: string; line?: number };

/** Queued text, per worker running, past which one more starts: about what prettier formats in the time it takes to load. */
export const TEXT_PER_WORKER = 256 * 1024;

export function startPool(script: string, threads: number, textPerWorker = TEXT_PER_WORKER): Pool {
  const queue: Queued[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Queued>();

  /** The text of the jobs no worker has taken yet. */
  let queuedText = 0;
  const dispatch = () => {
    while (idle.length > 0 && queue.length > 0) {
      queue.sort((a, b) => b.job.text.length - a.job.text.length);
      const worker = idle.pop()!;
      const next = queue.shift()!;
      queuedText -= next.job.text.length;
      busy.set(worker, next);
      worker.postMessage({ job: next.job });
    }
  };
  const dead = new Set<Worker>();
  let closing = false;
  let failure: Error | undefined;
  // A worker that dies takes its job with it; when none is left, every waiting job fails too.
  const lose = (worker: Worker, error: Error) => {
    if (closing || dead.has(worker)) return; // terminating is not dying; 'error' is followed by 'exit'
    dead.add(worker);
    busy.get(worker)?.reject(error);
    busy.delete(worker);
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    // Once every worker started has died, the pool fails rather than start more: prettier itself is failing.
    if (dead.size < workers.length) return;
    failure = error;
    queuedText = 0;
    for (const waiting of queue.splice(0)) waiting.reject(error);
  };
  const start = () => {
    const worker = startWorker(script);
    worker.on('message', (reply: Reply) => {
      const done = busy.get(worker)!;
      busy.delete(worker);
      idle.push(worker);
      if (reply.error !== undefined) done.reject(new FormatError(reply.error, reply.line));
      else done.resolve(reply.text!);
      dispatch();
    });
    worker.once('error', (error) => lose(worker, error));
    worker.once('exit', (code) => lose(worker, new Error(`a format worker stopped (exit code ${code})`)));
    idle.push(worker);
    return worker;
  };
  // None before the first job: most files come in prettier's form, and a run may send none.
  const workers: Worker[] = [];
  /** One more worker, where the jobs left waiting once the idle workers have theirs are more than those running take on. */
  const grow = () => {
    const running = workers.length - dead.size;
    if (workers.length < threads && (running === 0 || queuedText > running * textPerWorker)) workers.push(start());
  };

  return {
    run: (job) =>
      new Promise((resolve, reject) => {
        if (failure) return reject(failure);
        queue.push({ job, resolve, reject });
        queuedText += job.text.length;
        dispatch(); // an idle worker takes it first
        grow();
        dispatch();
      }),
    close: async () => {
      closing = true;
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
