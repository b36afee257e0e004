/**
 * Running specforge on hostile input, as an attacker's victim would: in a
 * sandbox folder that holds the spec, the output and a neighbour's files,
 * listed (with content hashes) before and after, so a test can show that
 * nothing outside `--out` was written, read into the output, or deleted.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { FIXTURES, runCli, scratchDir, type CliResult } from './helpers.js';

export const HOSTILE = join(FIXTURES, 'hostile');

/** A stack frame line, as Node prints them. */
export const STACK_LINE = /^\s+at .+/m;

/** Each entry below `root`: a file's hash, a link's target, or `dir`. */
export function listTree(root: string): Map<string, string> {
  const entries = new Map<string, string>();
  const walk = (directory: string) => {
    for (const name of readdirSync(directory).sort()) {
      const full = join(directory, name);
      const path = relative(root, full).split(sep).join('/');
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) entries.set(path, `link -> ${readlinkSync(full)}`);
      else if (stat.isDirectory()) {
        entries.set(path, 'dir');
        walk(full);
      } else entries.set(path, createHash('sha256').update(readFileSync(full)).digest('hex'));
    }
  };
  if (existsSync(root)) walk(root);
  return entries;
}

/** What changed between two listings: added, removed and changed paths. */
export function treeChanges(before: Map<string, string>, after: Map<string, string>): string[] {
  const changes: string[] = [];
  for (const [path, value] of after) {
    if (!before.has(path)) changes.push(`added ${path}`);
    else if (before.get(path) !== value) changes.push(`changed ${path}`);
  }
  for (const path of before.keys()) if (!after.has(path)) changes.push(`removed ${path}`);
  return changes.sort();
}

export interface Sandbox {
  /** The sandbox root: `spec/`, `out/` and `neighbour/` live here. */
  root: string;
  /** Where the spec (and the files it references) are copied. */
  specDir: string;
  /** The `--out` folder (not created). */
  out: string;
  cleanup(): void;
}

/**
 * A sandbox with a neighbour's files (`neighbour/secret.txt`, a file a
 * traversal would reach) and, when given, the spec's files under `spec/`.
 */
export function sandbox(files: Record<string, string> = {}): Sandbox {
  const scratch = scratchDir('specforge-hostile-');
  const root = scratch.dir;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('neighbour/secret.txt', 'NEIGHBOUR-SECRET-7f3a\n');
  write('victim.txt', 'VICTIM-FILE\n');
  for (const [path, text] of Object.entries(files)) write(join('spec', path), text);
  mkdirSync(join(root, 'spec'), { recursive: true });
  return { root, specDir: join(root, 'spec'), out: join(root, 'out'), cleanup: scratch.cleanup };
}

export interface HostileRun {
  result: CliResult;
  /** Changes outside `out/` (none is the only right answer). */
  outside: string[];
  /** The diagnostic codes printed (`✘ CODE …` lines). */
  codes: string[];
}

/** Runs the CLI in the sandbox (cwd = its root) and reports what changed outside `out/`. */
export async function runInSandbox(box: Sandbox, args: string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<HostileRun> {
  const outsideOut = (tree: Map<string, string>) => new Map([...tree].filter(([path]) => path !== 'out' && !path.startsWith('out/')));
  const before = outsideOut(listTree(box.root));
  const result = await runCli(args, { cwd: box.root, ...options });
  const after = outsideOut(listTree(box.root));
  return { result, outside: treeChanges(before, after), codes: diagnosticCodes(result.stderr) };
}

/** The codes of every `✘ CODE` line. */
export function diagnosticCodes(stderr: string): string[] {
  return [...stderr.matchAll(/^✘ (\S+)/gm)].map((match) => match[1]!);
}

/** A bad input's answer: exit 1, the code named, no stack trace, no internal error, nothing outside --out touched. */
export function expectRefused(run: HostileRun, code: string): void {
  expect({ code: run.result.code, codes: run.codes, stack: STACK_LINE.test(run.result.stderr + run.result.stdout) }).toEqual({
    code: 1,
    codes: expect.arrayContaining([code]),
    stack: false,
  });
  expect(run.result.stderr).not.toContain('internal error');
  expect(run.outside).toEqual([]);
}
