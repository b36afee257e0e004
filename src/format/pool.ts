/**
 * A pool of formatting worker threads with one queue. Workers start with
 * the first job and take the largest queued job whenever they are free, so
 * no core sits idle while one big part is still running.
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

export function startPool(script: string, threads: number): Pool {
  const queue: Queued[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Queued>();

  const dispatch = () => {
    while (idle.length > 0 && queue.length > 0) {
      queue.sort((a, b) => b.job.text.length - a.job.text.length);
      const worker = idle.pop()!;
      const next = queue.shift()!;
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
    if (dead.size < threads) return;
    failure = error;
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
  // Started with the first job: most files come in prettier's form, and a run may send none.
  let workers: Worker[] = [];

  return {
    run: (job) =>
      new Promise((resolve, reject) => {
        if (failure) return reject(failure);
        if (workers.length === 0) workers = Array.from({ length: threads }, start);
        queue.push({ job, resolve, reject });
        dispatch();
      }),
    close: async () => {
      closing = true;
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
