/** Shared test helpers: run the built CLI as a user would, in scratch directories. */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpecforgeError, type Diagnostic } from '../src/diagnostics.js';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const CLI = join(ROOT, 'dist/cli/bin.js');
export const FIXTURES = join(ROOT, 'test/fixtures');
export const EXAMPLES = join(ROOT, 'examples');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `specforge …` (the compiled CLI) and collects its exit code and output. */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: options.cwd ?? ROOT, env: { ...process.env, NO_COLOR: '1', ...options.env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** A fresh temporary directory, removed by the returned cleanup. */
export function scratchDir(prefix = 'specforge-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Writes a worker script into a scratch folder when the test file loads, and removes the folder after its tests.
 * Returns the script's path; its folder may hold a test's other scripts.
 */
export function workerScript(source: string): string {
  const { dir, cleanup } = scratchDir('specforge-worker-');
  const script = join(dir, 'worker.mjs');
  writeFileSync(script, source);
  afterAll(cleanup);
  return script;
}

/** Copies a fixture or example folder into a scratch directory, so a test may edit it. */
export function copyInto(source: string, target: string): string {
  cpSync(source, target, { recursive: true });
  return target;
}

/** Every file below a directory, relative and `/`-separated, sorted, with its contents. */
export function readTree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (directory: string) => {
    for (const name of readdirSync(directory).sort()) {
      const full = join(directory, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(relative(root, full).split(sep).join('/'), readFileSync(full, 'utf8'));
    }
  };
  walk(root);
  return files;
}

/**
 * Runs the load stage (or the merge) in a child Node process and returns its
 * result as JSON. swagger-parser is CommonJS that require()s an ES module:
 * Node 20 runs it, Jest's module loader cannot, so the real thing runs here.
 */
export function loadInNode(
  spec: string,
  stage: 'load' | 'merge' = 'load',
): Promise<{ document?: Record<string, unknown>; diagnostics?: Diagnostic[]; files?: string[] }> {
  const script = `
    const { loadSpec } = await import(${JSON.stringify(join(ROOT, 'dist/load/index.js'))});
    const { mergeSpec } = await import(${JSON.stringify(join(ROOT, 'dist/pipeline.js'))});
    try {
      if (${JSON.stringify(stage)} === 'load') {
        const { document, sources, validated } = await loadSpec(${JSON.stringify(spec)});
        await validated;
        process.stdout.write(JSON.stringify({ document, files: sources.all.map((f) => f.path) }));
      } else {
        const { document } = await mergeSpec({ spec: ${JSON.stringify(spec)} });
        process.stdout.write(JSON.stringify({ document }));
      }
    } catch (error) {
      if (!error.diagnostics) throw error;
      process.stdout.write(JSON.stringify({ diagnostics: error.diagnostics }));
    }`;
  return new Promise((done, fail) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) fail(new Error(`load failed: ${stderr}`));
      else done(JSON.parse(stdout));
    });
  });
}

/** The diagnostics `run` throws with; fails the test if it does not throw a SpecforgeError. */
export function diagnosticsOf(run: () => unknown): Diagnostic[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SpecforgeError);
    return (error as SpecforgeError).diagnostics;
  }
  throw new Error('expected a SpecforgeError');
}
