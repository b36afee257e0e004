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
 * refuses (`--input-type`, set when the caller runs code with `node -e`).
 * Under V8 flags a worker refuses (`node --max-semi-space-size=… specforge`),
 * the worker starts without the process's flags.
 */
export function startWorker(script: string): Worker {
  const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
  try {
    return new Worker(script, { execArgv });
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    return new Worker(script, { execArgv: [] });
  }
}

/**
 * Runs one job on a fresh worker: `input` is copied to it at once (the caller
 * may change its own copy afterwards), and the worker answers one message.
 */
export function runOnWorker<Output>(script: string, input: unknown, job: string): Promise<Output> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(script);
    worker.once('message', (output: Output) => {
      void worker.terminate();
      resolve(output);
    });
    worker.once('error', reject);
    worker.once('messageerror', reject);
    worker.once('exit', (code) => reject(new Error(`the ${job} worker stopped (exit code ${code}) without an answer`)));
    worker.postMessage(input);
  });
}
