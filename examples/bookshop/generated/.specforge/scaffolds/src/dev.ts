/**
 * `npm run dev`: compiles on every change (`tsc --watch`) and restarts the
 * service whenever the compiled code changes (`node --watch`), until Ctrl-C;
 * its log lines printed pretty (pino-pretty) at LOG_LEVEL, default `debug`.
 * Runs the migrations first. specforge created this file once; it is yours.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import PinoPretty from 'pino-pretty';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = (args: string[], pretty = false): ChildProcess => {
  const child = spawn(process.execPath, args, {
    stdio: ['inherit', pretty ? 'pipe' : 'inherit', 'inherit'],
    env: { LOG_LEVEL: 'debug', ...process.env },
  });
  child.stdout?.pipe(PinoPretty({ colorize: process.stdout.isTTY, ignore: 'pid,hostname' }));
  return child;
};

const migrated = run(['dist/migrate.js']);
const code: number = await new Promise((resolve) =>
  migrated.once('exit', (exit) => resolve(exit ?? 1)),
);
if (code !== 0) process.exit(code);

const children = [
  run([tsc, '-p', 'tsconfig.json', '--watch', '--preserveWatchOutput']),
  run(['--watch', '--watch-preserve-output', 'dist/main.js'], true),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
