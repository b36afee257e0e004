/** Worker threads: one job each, or kept between the runs of --watch. */
import { writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ROOT, workerScript } from '../helpers.js';
import { keepWorkers, runOnWorker } from '../../src/threads.js';

const run = promisify(execFile);

// Answers each job with its own thread id, or stops when asked to.
const script = workerScript(
  "import { parentPort, threadId } from 'node:worker_threads';\n" +
    "parentPort.on('message', (job) => (job === 'stop' ? process.exit(3) : parentPort.postMessage(threadId)));\n",
);
const folder = dirname(script);

test('without keeping, each job starts a worker of its own', async () => {
  const first = await runOnWorker<number>(script, 'job', 'echo');
  const second = await runOnWorker<number>(script, 'job', 'echo');
  expect(second).not.toBe(first);
});

test('kept workers answer the next run’s job, until they are ended', async () => {
  const end = keepWorkers();
  try {
    const first = await runOnWorker<number>(script, 'job', 'echo');
    expect(await runOnWorker<number>(script, 'job', 'echo')).toBe(first);
    // Two jobs at once: the kept worker takes one, a new one the other.
    const both = await Promise.all([runOnWorker<number>(script, 'job', 'echo'), runOnWorker<number>(script, 'job', 'echo')]);
    expect(both).toContain(first);
    expect(new Set(both).size).toBe(2);
  } finally {
    await end();
  }
  const after = await runOnWorker<number>(script, 'job', 'echo');
  expect(after).toBeGreaterThan(0);
});

test('a worker that stops without an answer fails its job, and is not kept', async () => {
  const end = keepWorkers();
  try {
    await expect(runOnWorker(script, 'stop', 'echo')).rejects.toThrow('the echo worker stopped (exit code 3) without an answer');
    expect(typeof (await runOnWorker<number>(script, 'job', 'echo'))).toBe('number');
  } finally {
    await end();
  }
});

test('a worker starts with the process’s flags but those a worker refuses', async () => {
  const flags = join(folder, 'flags.mjs');
  writeFileSync(flags, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => parentPort.postMessage(process.execArgv));\n");
  const main = join(folder, 'main.mjs');
  writeFileSync(
    main,
    `import { runOnWorker } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/threads.js')).href)};\n` +
      `console.log(JSON.stringify(await runOnWorker(${JSON.stringify(flags)}, 'job', 'flags')));\n`,
  );
  // The compiled module, in a process started with a flag workers refuse (a V8 one) and one they take.
  const { stdout } = await run(process.execPath, ['--max-semi-space-size=32', '--no-deprecation', main]);
  expect(JSON.parse(stdout)).toEqual(['--no-deprecation']);
});

test('a kept worker that fails while it waits is let go, and the next job gets a new one', async () => {
  const failing = join(folder, 'failing.mjs');
  // Answers, then throws from a timer while it waits.
  writeFileSync(failing, "import { parentPort, threadId } from 'node:worker_threads';\nparentPort.on('message', () => { parentPort.postMessage(threadId); setTimeout(() => { throw new Error('late'); }, 20); });\n");
  const end = keepWorkers();
  try {
    const first = await runOnWorker<number>(failing, 'job', 'failing');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const second = await runOnWorker<number>(failing, 'job', 'failing');
    expect(second).not.toBe(first);
  } finally {
    await end();
  }
});
