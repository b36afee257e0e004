/** The format pool: one worker for a little work, more only for a queue that pays for loading prettier again. */
import { startPool } from '../../src/format/pool.js';
import type { FormatJob } from '../../src/format/prettier.js';
import { workerScript } from '../helpers.js';

// Answers each job with the id of the thread that took it, a little later (so jobs queue up).
const script = workerScript(
  "import { parentPort, threadId } from 'node:worker_threads';\n" +
    "parentPort.on('message', () => setTimeout(() => parentPort.postMessage({ text: String(threadId) }), 20));\n",
);

const job = (length: number): FormatJob => ({ text: 'x'.repeat(length), as: 'statements', format: 'typescript' });

async function threadsUsed(textPerWorker: number, jobs: FormatJob[]): Promise<number> {
  const pool = startPool(script, 2, textPerWorker);
  try {
    return new Set(await Promise.all(jobs.map((each) => pool.run(each)))).size;
  } finally {
    await pool.close();
  }
}

test('a queue within what one worker takes on is formatted by that one alone', async () => {
  expect(await threadsUsed(1000, Array.from({ length: 8 }, () => job(100)))).toBe(1);
});

test('a queue beyond it starts another worker, up to the number of threads', async () => {
  expect(await threadsUsed(100, Array.from({ length: 8 }, () => job(100)))).toBe(2);
});

test('a large job that finds a worker idle goes to it, not to a new one', async () => {
  const pool = startPool(script, 2, 100);
  try {
    const first = await pool.run(job(10));
    expect(await pool.run(job(300))).toBe(first);
  } finally {
    await pool.close();
  }
});
