/**
 * Stage 5 — format: prettier, in memory, before anything is written. Small
 * outputs are formatted in this thread; a large one (GitHub's types are
 * 8 MB) is cut into parts that worker threads format on every core.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { OutputFile } from '../render/index.js';
import { formatJob, type FormatJob } from './prettier.js';
import { runOnWorkers } from './pool.js';

export { PRETTIER_OPTIONS } from './prettier.js';

/** Below this many characters, starting workers costs more than it saves. */
const PARALLEL_THRESHOLD = 1_000_000;
const WORKER = fileURLToPath(new URL('./worker.js', import.meta.url));

export async function formatFiles(files: readonly OutputFile[]): Promise<OutputFile[]> {
  const jobs = files.map(jobsOf);
  const flat = jobs.flat();
  const size = flat.reduce((total, job) => total + job.text.length, 0);
  const threads = Math.min(availableParallelism(), 4);
  // The worker is compiled JavaScript; from TypeScript sources (tests) format in-process.
  const results =
    size > PARALLEL_THRESHOLD && threads > 1 && existsSync(WORKER)
      ? await runOnWorkers(WORKER, flat, threads)
      : await Promise.all(flat.map(formatJob));
  let next = 0;
  return files.map((file, index) => {
    const texts = results.slice(next, (next += jobs[index]!.length));
    const { parts: _parts, ...rest } = file;
    return { ...rest, contents: texts.join('') };
  });
}

function jobsOf(file: OutputFile): FormatJob[] {
  if (!file.parts) return [{ text: file.contents, as: 'statements', format: file.format }];
  return file.parts.map((part) => ({ ...part, format: file.format }));
}
