/**
 * How the CLI speaks: results on stdout, progress and diagnostics on stderr,
 * colour only on a terminal and never under NO_COLOR.
 */
import { relative } from 'node:path';
import { ansi, formatDiagnostic, type Diagnostic } from '../diagnostics.js';
import type { GenerateResult, LintWarnings, PackageJsonResult, Progress } from '../pipeline.js';
import type { FileCount } from '../render/index.js';
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
  printEach(output, diagnostics);
  output.err(summaryLine(countBySeverity(diagnostics)));
}

function printEach(output: Output, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) output.err(formatDiagnostic(d, { color: output.color, cwd: process.cwd() }));
}

/** Warnings from loading the spec (an overlay target that selects nothing): each in full, unless --quiet. */
export function printLoadWarnings(output: Output, warnings: readonly Diagnostic[]): void {
  if (!output.quiet) printEach(output, warnings);
}

export function countBySeverity(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number } {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return { errors, warnings: diagnostics.length - errors };
}

function summaryLine({ errors, warnings }: { errors: number; warnings: number }): string {
  return `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
}

/** `specforge lint`: findings grouped by file, in file order, on stdout; then the counts (of all, shown or not). */
export function printLintReport(output: Output, diagnostics: readonly Diagnostic[], counts = countBySeverity(diagnostics)): void {
  let file: string | undefined;
  for (const d of diagnostics) {
    const relativePath = d.file ? relative(process.cwd(), d.file) : '';
    const shown = !d.file ? '(spec)' : relativePath && !relativePath.startsWith('..') ? relativePath : d.file;
    if (shown !== file) {
      if (file !== undefined) output.out('');
      output.out(paint(output, '4', shown));
      file = shown;
    }
    const where = `${d.line ?? ''}${d.column ? `:${d.column}` : ''}`.padEnd(8);
    const severity = d.severity === 'error' ? paint(output, '31', 'error  ') : paint(output, '33', 'warning');
    output.out(`  ${where} ${severity}  ${d.code}  ${d.message}`);
    output.out(paint(output, '2', `           ${d.pointer ?? ''}  fix: ${d.hint}`));
  }
  if (diagnostics.length > 0) output.out('');
  output.out(counts.errors + counts.warnings === 0 ? 'No problems found.' : summaryLine(counts));
}

/** During `generate`: the first few lint warnings, then where to see them all. */
export function printWarnings(output: Output, warnings: LintWarnings, lintArguments: string): void {
  if (warnings.total === 0 || output.quiet) return;
  printEach(output, warnings.first);
  const more = warnings.total - warnings.first.length;
  output.err(`${warnings.total} lint warning${warnings.total === 1 ? '' : 's'}${more > 0 ? ` (${more} more not shown)` : ''}: \`specforge lint ${lintArguments}\` lists them all.`);
}

/**
 * Stage progress on stderr: `load … 1.21 s`. On a terminal the running stage
 * is shown live: its name, the files done of those produced so far (`+`
 * while targets still produce more) and the seconds it has taken, redrawn
 * every second while the thread is free and at most four times a second as
 * files finish, so a long stage (a 13 MB spec) is never silent.
 */
export function progressOn(output: Output): Progress {
  if (output.quiet) return { start() {}, end() {} };
  if (process.stderr.isTTY !== true) return { start() {}, end: (stage, ms) => output.err(paint(output, '2', `  ${stage.padEnd(14)} ${formatDuration(ms)}`)) };
  return liveProgress({ write: (text) => process.stderr.write(text), paint: (text) => paint(output, '2', text), now: () => performance.now() });
}

export interface LiveProgressIo {
  write(text: string): void;
  paint(text: string): string;
  now(): number;
  /** Calls `tick` every second until the returned function is called (default: an unref'd interval). */
  every?(tick: () => void): () => void;
}

const REDRAW_MS = 250;

export function liveProgress(io: LiveProgressIo): Progress {
  const every =
    io.every ??
    ((tick) => {
      const timer = setInterval(tick, 1000);
      timer.unref();
      return () => clearInterval(timer);
    });
  let running: { stage: string; began: number; count?: FileCount; drawn: number; stop: () => void } | undefined;
  const draw = () => {
    if (!running) return;
    running.drawn = io.now();
    io.write(`\r\u001b[K${io.paint(`  ${progressLine(running.stage, running.count, running.drawn - running.began)}`)}`);
  };
  return {
    start(stage) {
      running?.stop();
      running = { stage, began: io.now(), drawn: 0, stop: () => {} };
      draw();
      running.stop = every(draw);
    },
    files(count) {
      if (!running) return;
      running.count = count;
      if (io.now() - running.drawn >= REDRAW_MS) draw();
    },
    end(stage, ms) {
      running?.stop();
      running = undefined;
      io.write(`\r\u001b[K${io.paint(`  ${stage.padEnd(14)} ${formatDuration(ms)}`)}\n`);
    },
    // Under --watch the process lives on: a failed run's line must not go on redrawing.
    fail(stage, ms) {
      running?.stop();
      running = undefined;
      io.write(`\r\u001b[K${io.paint(`  ${stage.padEnd(14)} failed after ${formatDuration(ms)}`)}\n`);
    },
  };
}

/** `render+format  312/640+ files  4 s`: the stage, its files (when it counts them), its time so far. */
export function progressLine(stage: string, count: FileCount | undefined, elapsedMs: number): string {
  const files = count ? `${count.done}/${count.total}${count.rendering ? '+' : ''} files  ` : '';
  return `${stage.padEnd(14)} ${files}${Math.floor(elapsedMs / 1000)} s …`;
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
      action.change === 'conflict'
        ? ' (refused: see below)'
        : action.change === 'keep'
        ? ' (scaffold: yours, not touched)'
        : action.change === 'skip'
          ? ' (scaffold you deleted: stays deleted; --force recreates it)'
          : action.backupTo
            ? ` (your version saved as ${action.backupTo})`
            : '';
    const shown = dryRun && action.change !== 'conflict' ? `${would}${verb}` : verb;
    output.out(`  ${shown.padEnd(dryRun ? 18 : 10)} ${action.path}${note}`);
  }
  const count = (change: Change) => actions.filter((action) => action.change === change).length;
  const written = count('create') + count('update') + count('overwrite');
  output.out(
    `${dryRun ? 'Dry run: ' : ''}${written} ${dryRun ? 'to write' : 'written'}, ${count('unchanged')} unchanged, ` +
      `${count('keep')} kept, ${count('delete')} ${dryRun ? 'to delete' : 'deleted'}` +
      (count('conflict') > 0 ? `, ${count('conflict')} refused` : ''),
  );
}

/** How to fix each kind of finding, given the `specforge generate` command that matches the check. */
const FIXES: Record<Finding['problem'], (generate: string) => string> = {
  missing: (generate) => `run \`${generate}\` and commit the result.`,
  stale: (generate) => `run \`${generate}\` and commit the result.`,
  orphaned: (generate) => `run \`${generate}\` (it deletes them) and commit the result.`,
  'hand-edited': (generate) =>
    `to keep the change, move it into a template override (--templates, see the README) or a scaffold and regenerate; ` +
    `to discard it, run \`${generate} --force\` (your version is backed up in .specforge/backup/).`,
  'not generated by specforge': (generate) =>
    `move the file out of the way, or replace it: \`${generate} --force\` (it is backed up in .specforge/backup/ first).`,
};

/** `specforge check`: each finding, then the fix for each kind found (a plain generate refuses hand-edited files). */
export function printFindings(output: Output, findings: readonly Finding[], generate: string): void {
  for (const finding of findings) output.out(`  ${finding.problem.padEnd(14)} ${finding.path}`);
  // Kinds with the same fix share a line (`missing, stale: run …`), in the order of FIXES.
  const found = new Set(findings.map((finding) => finding.problem));
  const byFix = new Map<string, string[]>();
  for (const problem of (Object.keys(FIXES) as Finding['problem'][]).filter((kind) => found.has(kind))) {
    const fix = FIXES[problem](generate);
    byFix.set(fix, [...(byFix.get(fix) ?? []), problem]);
  }
  if (byFix.size === 1) output.out(`To fix: ${[...byFix.keys()][0]}`);
  else {
    output.out('To fix:');
    for (const [fix, problems] of byFix) output.out(`  ${problems.join(', ')}: ${fix}`);
  }
}

/** After a regeneration: operations to implement in, or delete from, the user's handler files. */
export function printOperationChanges(output: Output, changes: GenerateResult['operations']): void {
  if (changes.added.length > 0) {
    output.out('New operations: implement each in its handler file (it fails to type-check until you do):');
    for (const change of changes.added) output.out(`  + ${change.method} ${change.path}  ${change.operationId}  in ${change.handler}`);
  }
  if (changes.removed.length > 0) {
    output.out('Operations removed from the spec: delete each from its handler file:');
    for (const change of changes.removed) output.out(`  - ${change.method} ${change.path}  ${change.operationId}  in ${change.handler}`);
  }
}

/** After `generate`: the migration's steps written commented out, which drop or retype data only once the user uncomments them. */
export function printStorageWarnings(output: Output, warnings: readonly string[]): void {
  if (warnings.length === 0) return;
  output.out('The new migration leaves these steps commented out (no data is dropped or retyped until you uncomment them):');
  for (const warning of warnings) output.out(`  ! ${warning}`);
}

/** After `generate`: the keys the kept package.json lacks, as they would be written, or that they were added. */
export function printPackageNeeds(output: Output, { needs, updated }: PackageJsonResult): void {
  if (needs.length === 0) return;
  output.out(
    updated
      ? 'Added to package.json what this specforge needs (run npm install):'
      : 'package.json lacks what this specforge needs: add these keys (or run generate again with --update-package-json):',
  );
  for (const need of needs) output.out(`  ${need.section}.${JSON.stringify(need.name)}: ${JSON.stringify(need.value)}`);
}

/**
 * After `generate` and `check`: the scaffolds specforge would now write otherwise
 * than it last recorded (a changed spec or a newer specforge), each with the
 * command that shows how. Information, never a failure: the files are the user's.
 */
export function printScaffoldDrift(output: Output, drift: readonly string[], diffCommand: (path: string) => string): void {
  if (drift.length === 0) return;
  output.out('Scaffolds the spec now renders differently (yours are kept as they are): merge what you need, then record it with --accept:');
  for (const path of drift) output.out(`  ~ ${path}  \`${diffCommand(path)}\``);
}
