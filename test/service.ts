/**
 * Generated services for end-to-end tests: generate a project, type-check and
 * build it with the real `tsc`, start it on a loopback port and talk HTTP to
 * it. The project uses specforge's own node_modules (koa, @koa/router, ajv
 * are its dev dependencies), so no test installs packages.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runCli } from './helpers.js';

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** Links specforge's node_modules into a generated project, as `npm install` would provide them. */
/**
 * The seed of the generated suites' property-based checks in these tests: the
 * same runs on every machine, so what they catch does not depend on the draw
 * (CONFORMANCE_SEED tries another).
 */
export const CONFORMANCE_SEED = process.env.CONFORMANCE_SEED ?? '20261124';

export function linkDependencies(project: string): void {
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
}

/** Generates `spec` into `project`; throws with the CLI's output when that fails. */
export async function generateService(spec: string, project: string, extra: string[] = []): Promise<string> {
  const result = await runCli(['generate', spec, '--out', project, ...extra]);
  if (result.code !== 0) throw new Error(`generate failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Runs `tsc` on the project (strict, as its tsconfig says): its diagnostics, empty when clean. */
export function compile(project: string, { emit = true }: { emit?: boolean } = {}): Promise<string> {
  return new Promise((done) => {
    execFile(process.execPath, [TSC, '-p', project, ...(emit ? [] : ['--noEmit'])], { maxBuffer: 64 * 1024 * 1024 }, (_error, stdout, stderr) =>
      done(`${stdout}${stderr}`.trim()),
    );
  });
}

export interface RunningService {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The origin with the base path: `http://127.0.0.1:<port>/api/v1`. */
  baseUrl: string;
  process: ChildProcess;
  /** Everything the service printed so far. */
  output(): string;
  /** SIGTERM, then waits for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the built service (`node dist/main.js`) on a free loopback port, on a throwaway database unless `env` names one. */
export function startService(project: string, env: Record<string, string> = {}, entry = 'dist/main.js'): Promise<RunningService> {
  const child = spawn(process.execPath, [entry], {
    cwd: project,
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'memory:', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Chunks, joined when read: matching a growing string on every chunk copies all of it each time.
  const chunks: string[] = [];
  const output = () => chunks.join('');
  let listening = false;
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start:\n${output()}`)), 30_000);
    const onData = (chunk: Buffer) => {
      chunks.push(chunk.toString());
      if (listening) return;
      const match = /listening on (http:\/\/[\d.]+:\d+)([^\s"]*)/.exec(output());
      if (!match) return;
      listening = true;
      clearTimeout(timer);
      resolve({
        origin: match[1]!,
        baseUrl: `${match[1]}${match[2]}`,
        process: child,
        output,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${code}) before listening:\n${output()}`));
    });
  });
}

/** The service's log lines (pino's JSON on stdout), parsed; other lines (a user's own prints) are left out. */
export function logEntries(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{"level":'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
