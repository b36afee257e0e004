/**
 * What the last run formatted, for `--watch`: a save usually changes a few
 * operations, so most files (and most parts of the large ones) come out of
 * render as they did last time and need no second pass through prettier.
 * Only one run is held: what a run did not ask for again is dropped.
 */
import { createHash } from 'node:crypto';
import type { FormatJob } from './prettier.js';

export class FormatMemo {
  private previous = new Map<string, string>();
  private current = new Map<string, string>();

  /** The job's formatted text, if the last run or this one formatted the same text the same way. */
  lookup(job: FormatJob): string | undefined {
    const key = keyOf(job);
    const known = this.current.get(key) ?? this.previous.get(key);
    if (known !== undefined) this.current.set(key, known);
    return known;
  }

  keep(job: FormatJob, formatted: string): void {
    this.current.set(keyOf(job), formatted);
  }

  /** A run is over: after a complete one, keep what it used and forget the rest; after a failed one, forget nothing. */
  endRun({ completed }: { completed: boolean }): void {
    if (completed) this.previous = this.current;
    else for (const [key, formatted] of this.current) this.previous.set(key, formatted);
    this.current = new Map();
  }
}

/** A digest rather than the text: GitHub's rendered files are 30 MB. */
function keyOf(job: FormatJob): string {
  const hash = createHash('sha256').update(job.format).update('\0').update(job.as);
  if (job.as === 'nested') hash.update(String(job.depth));
  return hash.update('\0').update(job.text).digest('base64');
}
