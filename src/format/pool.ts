/**
 * A small pool of worker threads that formats jobs in parallel. The largest
 * jobs go first, so no core sits idle while one big part is still running.
 */
import { Worker } from 'node:worker_threads';
import type { FormatJob } from './prettier.js';

type Reply = { id: number; text?: string; error?: string };

export async function runOnWorkers(script: string, jobs: readonly FormatJob[], threads: number): Promise<string[]> {
  const results: string[] = new Array<string>(jobs.length);
  const queue = jobs.map((job, id) => ({ id, job })).sort((a, b) => b.job.text.length - a.job.text.length);
  const passThrough = queue.filter(({ job }) => job.as === 'verbatim' || job.format === 'as-is');
  for (const { id, job } of passThrough) results[id] = job.text;
  const work = queue.filter((entry) => !passThrough.includes(entry));
  const workers = Array.from({ length: Math.min(threads, work.length) }, () => new Worker(script));
  try {
    await Promise.all(workers.map((worker) => drain(worker, work, results)));
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results;
}

function drain(worker: Worker, work: { id: number; job: FormatJob }[], results: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const sendNext = () => {
      const next = work.shift();
      if (next) worker.postMessage(next);
      else resolve();
    };
    worker.on('message', (reply: Reply) => {
      if (reply.error !== undefined) return reject(new Error(`prettier failed: ${reply.error}`));
      results[reply.id] = reply.text!;
      sendNext();
    });
    worker.on('error', reject);
    sendNext();
  });
}
