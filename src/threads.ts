/**
 * Worker threads run compiled JavaScript. From the TypeScript sources (as
 * under Jest) there is no script to start, and callers do the work in this
 * thread instead.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export function compiledWorker(url: URL): string | undefined {
  const path = fileURLToPath(url);
  return path.endsWith('.js') && existsSync(path) ? path : undefined;
}

/**
 * Starts a worker with this process's Node flags, less those a worker
 * refuses: `--input-type` (set when the caller runs code with `node -e`) and
 * V8 flags (`node --max-semi-space-size=… specforge`), which Node names in
 * its error; should it not, the worker starts without the process's flags.
 */
export function startWorker(script: string): Worker {
  const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
  try {
    return new Worker(script, { execArgv });
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    const refused = (error as Error).message.replace(/^[^:]*:/, '').split(',').map((flag) => flag.trim());
    const accepted = execArgv.filter((flag) => !refused.includes(flag));
    return accepted.length < execArgv.length ? retried(script, accepted) : new Worker(script, { execArgv: [] });
  }
}

function retried(script: string, execArgv: string[]): Worker {
  try {
    return new Worker(script, { execArgv });
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    return new Worker(script, { execArgv: [] });
  }
}

/**
 * Workers kept between the runs of `--watch`, by script: a worker that
 * answered waits for the next run's job instead of loading its modules
 * again (openapi-typescript and TypeScript take 0.5 s).
 */
let kept: Map<string, Worker[]> | undefined;

/** Keeps workers between runs until the returned function ends them. */
export function keepWorkers(): () => Promise<void> {
  const workers = (kept = new Map());
  return async () => {
    kept = undefined;
    await Promise.all([...workers.values()].flat().map((worker) => worker.terminate()));
  };
}

/** A kept worker of the script still running (one that stopped while it waited is dropped). */
function waiting(script: string): Worker | undefined {
  const workers = kept?.get(script) ?? [];
  let worker: Worker | undefined;
  while ((worker = workers.pop()) && worker.threadId === -1);
  worker?.off('error', retire).off('exit', retire);
  return worker;
}

/** Keeps a worker that answered for the next run; one that fails while it waits is let go, not thrown. */
function keep(script: string, worker: Worker, workers: Map<string, Worker[]>): void {
  worker.unref(); // a waiting worker does not keep the process alive
  worker.on('error', retire).on('exit', retire);
  workers.set(script, [...(workers.get(script) ?? []), worker]);
}

function retire(this: Worker): void {
  void this.terminate(); // its threadId turns -1: waiting() passes it by
}

/**
 * Runs one job on a worker (a kept one where there is one): `input` is
 * copied to it at once (the caller may change its own copy afterwards), and
 * the worker answers one message.
 */
export function runOnWorker<Output>(script: string, input: unknown, job: string): Promise<Output> {
  return new Promise((resolve, reject) => {
    const worker = waiting(script) ?? startWorker(script);
    worker.ref();
    const fail = (error: Error) => {
      release();
      void worker.terminate();
      reject(error);
    };
    const exit = (code: number) => fail(new Error(`the ${job} worker stopped (exit code ${code}) without an answer`));
    const answer = (output: Output) => {
      release();
      if (kept) keep(script, worker, kept);
      else void worker.terminate();
      resolve(output);
    };
    function release() {
      worker.off('message', answer).off('error', fail).off('messageerror', fail).off('exit', exit);
    }
    worker.once('message', answer).once('error', fail).once('messageerror', fail).once('exit', exit);
    worker.postMessage(input);
  });
}
