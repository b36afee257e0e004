/**
 * Stage 5 — format: prettier, in memory, before anything is written.
 *
 * A formatter is made once per run. Most files come out of render already
 * in prettier's form and pass as they are; prettier is loaded for the first
 * file that needs it. For a large spec that is on worker threads, started
 * then, and each file is formatted the moment a target produces it; a file
 * given in parts is spread over every worker.
 */
import type { OutputFile, RenderedFile } from '../render/index.js';
import { compiledWorker } from '../threads.js';
import { startPool, type Pool } from './pool.js';
import { diagnostic, SpecforgeError } from '../diagnostics.js';
import { FormatError, formatJob, toFormatError, type FormatJob } from './prettier.js';
import type { FormatMemo } from './memo.js';

export { PRETTIER_OPTIONS } from './prettier.js';

const WORKER = compiledWorker(new URL('./worker.js', import.meta.url));

export interface Formatter {
  format(file: RenderedFile): Promise<OutputFile>;
  /** Ends the run; `completed` says whether every file was formatted (what the memo keeps depends on it). */
  close(run: { completed: boolean }): Promise<void>;
}

/**
 * `threads` > 1 formats on that many worker threads (where compiled workers
 * exist); a `memo` (kept across the runs of `--watch`) skips what an earlier
 * run already formatted.
 */
export function createFormatter({ threads, memo }: { threads: number; memo?: FormatMemo | undefined }): Formatter {
  const pool: Pool | undefined = threads > 1 && WORKER ? startPool(WORKER, threads) : undefined;
  const format = (job: FormatJob) => (pool && job.as !== 'verbatim' && job.format !== 'as-is' ? pool.run(job) : formatJob(job));
  const run = (job: FormatJob): Promise<string> => {
    if (!memo || job.format === 'as-is' || job.as === 'verbatim') return format(job);
    const known = memo.lookup(job);
    if (known !== undefined) return Promise.resolve(known);
    return format(job).then((formatted) => (memo.keep(job, formatted), formatted));
  };
  return {
    async format(file) {
      // Each part is handed to a worker as soon as the target yields it, before the next is printed.
      const formatting: Promise<string>[] = [];
      for (const job of jobsOf(file)) {
        const formatted = run(job);
        formatted.catch(() => {}); // awaited below, with the others
        formatting.push(formatted);
      }
      let texts: string[];
      try {
        texts = await Promise.all(formatting);
      } catch (error) {
        throw unparseable(file, error);
      }
      return { path: file.path, kind: file.kind, format: file.format, contents: texts.join('') };
    },
    close: async (run) => {
      memo?.endRun(run);
      await pool?.close();
    },
  };
}

/** Formats files in this thread: for small outputs and tests. */
export async function formatFiles(files: readonly RenderedFile[]): Promise<OutputFile[]> {
  const formatter = createFormatter({ threads: 1 });
  return Promise.all(files.map((file) => formatter.format(file)));
}

/** A template that renders code prettier cannot parse is the template's problem, not a crash. */
function unparseable(file: RenderedFile, error: unknown): unknown {
  if (!(error instanceof FormatError) && !(error as { loc?: unknown })?.loc) return error;
  const { message, line } = error instanceof FormatError ? error : toFormatError(error);
  return new SpecforgeError([
    diagnostic('TEMPLATE_ERROR', `The rendered ${file.path} does not parse: ${message}`, {
      file: file.path,
      ...(line !== undefined && 'contents' in file ? { line } : {}),
    }, { hint: 'Fix the template that renders this file (a --templates override, if you use one).' }),
  ]);
}

function* jobsOf(file: RenderedFile): Generator<FormatJob> {
  if ('contents' in file) yield { text: file.contents, as: 'statements', format: file.format };
  else for (const part of file.parts) yield { ...part, format: file.format };
}
