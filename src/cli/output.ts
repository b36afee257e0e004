/**
 * How the CLI speaks: results on stdout, progress and diagnostics on stderr,
 * colour only on a terminal and never under NO_COLOR.
 */
import { ansi, formatDiagnostic, type Diagnostic } from '../diagnostics.js';
import type { Progress } from '../pipeline.js';
import type { Action, Change, Finding } from '../write/plan.js';

export interface Output {
  color: boolean;
  quiet: boolean;
  out(line: string): void;
  err(line: string): void;
}

export function consoleOutput(options: { quiet?: boolean; color?: boolean }): Output {
  const color = options.color ?? (process.stderr.isTTY === true && !('NO_COLOR' in process.env));
  return {
    color,
    quiet: options.quiet === true,
    out: (line) => process.stdout.write(line + '\n'),
    err: (line) => process.stderr.write(line + '\n'),
  };
}

export function paint(output: Output, code: string, text: string): string {
  return ansi(output.color, code, text);
}

export function printDiagnostics(output: Output, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) output.err(formatDiagnostic(d, { color: output.color, cwd: process.cwd() }));
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  output.err(`${errors} error${errors === 1 ? '' : 's'}, ${diagnostics.length - errors} warning${diagnostics.length - errors === 1 ? '' : 's'}`);
}

/**
 * Stage progress on stderr: `load … 1.21 s`. On a terminal the stage is named
 * as it starts, so a long one (rendering a 13 MB spec) shows what it is doing.
 */
export function progressOn(output: Output): Progress {
  if (output.quiet) return { start() {}, end() {} };
  const live = process.stderr.isTTY === true;
  return {
    start: (stage) => {
      if (live) process.stderr.write(paint(output, '2', `  ${stage.padEnd(14)} …`));
    },
    end: (stage, ms) => {
      if (live) process.stderr.write('\r\u001b[K');
      output.err(paint(output, '2', `  ${stage.padEnd(14)} ${formatDuration(ms)}`));
    },
  };
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

const VERBS: Record<Change, string> = {
  create: 'created',
  update: 'updated',
  overwrite: 'overwrote',
  unchanged: 'unchanged',
  keep: 'kept',
  skip: 'skipped',
  delete: 'deleted',
  conflict: 'conflict',
};

/** One line a file that changed (or, for scaffolds, was kept), then the counts. */
export function printActions(output: Output, actions: readonly Action[], dryRun: boolean): void {
  const would = dryRun ? 'would be ' : '';
  for (const action of actions) {
    if (action.change === 'unchanged' || output.quiet) continue;
    const verb = VERBS[action.change];
    const note =
      action.change === 'keep'
        ? ' (scaffold: yours, not touched)'
        : action.change === 'skip'
          ? ' (scaffold you deleted: stays deleted; --force recreates it)'
          : action.backupTo
            ? ` (your version saved as ${action.backupTo})`
            : '';
    output.out(`  ${(dryRun ? `${would}${verb}` : verb).padEnd(dryRun ? 18 : 10)} ${action.path}${note}`);
  }
  const count = (change: Change) => actions.filter((action) => action.change === change).length;
  const written = count('create') + count('update') + count('overwrite');
  output.out(
    `${dryRun ? 'Dry run: ' : ''}${written} ${dryRun ? 'to write' : 'written'}, ${count('unchanged')} unchanged, ` +
      `${count('keep')} kept, ${count('delete')} ${dryRun ? 'to delete' : 'deleted'}`,
  );
}

export function printFindings(output: Output, findings: readonly Finding[]): void {
  for (const finding of findings) output.out(`  ${finding.problem.padEnd(14)} ${finding.path}`);
}
