/**
 * A pool of formatting worker threads with one queue. Workers start at once
 * and take the largest queued job whenever they are free, so no core sits
 * idle while one big part is still running.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../threads.js';
import type { FormatJob } from './prettier.js';

export interface Pool {
  run(job: FormatJob): Promise<string>;
  close(): Promise<void>;
}

interface Queued {
  job: FormatJob;
  resolve: (text: string) => void;
  reject: (error: Error) => void;
}

type Reply = { text?: string; error?: string };

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
  const workers = Array.from({ length: threads }, () => {
    const worker = startWorker(script);
    worker.on('message', (reply: Reply) => {
      const done = busy.get(worker)!;
      busy.delete(worker);
      idle.push(worker);
      if (reply.error !== undefined) done.reject(new Error(`prettier failed: ${reply.error}`));
      else done.resolve(reply.text!);
      dispatch();
    });
    worker.on('error', (error) => {
      busy.get(worker)?.reject(error);
      for (const waiting of queue.splice(0)) waiting.reject(error);
    });
    idle.push(worker);
    return worker;
  });

  return {
    run: (job) =>
      new Promise((resolve, reject) => {
        queue.push({ job, resolve, reject });
        dispatch();
      }),
    close: async () => {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
