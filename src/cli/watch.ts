/**
 * --watch: regenerate when the spec or any file it references changes.
 * Watchers are renewed after every run, because the set of referenced files
 * can change and editors often replace a file rather than write into it.
 */
import { watch, type FSWatcher } from 'node:fs';
import type { Output } from './output.js';

const SETTLE_MS = 100;

export interface WatchOptions {
  inputs: () => string[];
  run: () => Promise<number>;
  output: Output;
}

export function watchAndRegenerate({ inputs, run, output }: WatchOptions): Promise<void> {
  let watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let stopped = false;

  const rewatch = () => {
    for (const watcher of watchers) watcher.close();
    if (stopped) return;
    watchers = inputs().flatMap((file) => {
      try {
        return [watch(file, schedule)];
      } catch {
        return []; // a file that vanished is watched again once it is back in the inputs
      }
    });
    output.err(`Watching ${watchers.length} file${watchers.length === 1 ? '' : 's'} for changes (Ctrl-C to stop)…`);
  };
  const regenerate = async () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    output.err('Change detected; regenerating.');
    await run();
    running = false;
    rewatch();
    if (again) {
      again = false;
      void regenerate();
    }
  };
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(() => void regenerate(), SETTLE_MS);
  }

  rewatch();
  return new Promise((resolve) => {
    const stop = () => {
      stopped = true; // a regeneration still running finishes, then watches nothing
      for (const watcher of watchers) watcher.close();
      clearTimeout(timer);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
