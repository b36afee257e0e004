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
 * Workers ready for a job, by script: started ahead of it (startEarly), or
 * kept from an earlier run of `--watch`, so their modules are loaded
 * already (openapi-typescript and TypeScript take 0.6 s).
 */
const ready = new Map<string, Worker[]>();
/** Whether a worker that answered waits for the next run (`--watch`) or ends. */
let keeping = false;

/** Keeps workers between runs until the returned function ends them. */
export function keepWorkers(): () => Promise<void> {
  keeping = true;
  return async () => {
    keeping = false;
    const workers = [...ready.values()].flat();
    ready.clear();
    await Promise.all(workers.map((worker) => worker.terminate()));
  };
}

/**
 * Starts the worker of the script's next job now, so it loads its modules
 * while this thread reads the spec. The returned function ends it if no job
 * took it (the run stopped first), unless workers are kept.
 */
export function startEarly(script: string): () => void {
  if (ready.get(script)?.some((worker) => worker.threadId !== -1)) return () => {};
  const worker = startWorker(script);
  park(script, worker);
  return () => {
    const workers = ready.get(script) ?? [];
    if (keeping || !workers.includes(worker)) return;
    ready.set(script, workers.filter((other) => other !== worker));
    void worker.terminate();
  };
}

/** A ready worker of the script still running (one that stopped while it waited is dropped). */
function waiting(script: string): Worker | undefined {
  const workers = ready.get(script) ?? [];
  let worker: Worker | undefined;
  while ((worker = workers.shift()) && worker.threadId === -1);
  worker?.off('error', retire).off('exit', retire);
  return worker;
}

/** Parks a worker until a job takes it; one that fails while it waits is let go, not thrown. */
function park(script: string, worker: Worker): void {
  worker.unref(); // a waiting worker does not keep the process alive
  worker.on('error', retire).on('exit', retire);
  ready.set(script, [...(ready.get(script) ?? []), worker]);
}

/** A parked worker that failed: out of the pool at once (its threadId turns -1 only once it has exited). */
function retire(this: Worker): void {
  for (const [script, workers] of ready) ready.set(script, workers.filter((worker) => worker !== this));
  void this.terminate();
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
      if (keeping) park(script, worker);
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
