/**
 * The generated Dockerfile's steps, done with plain commands (no Docker
 * engine runs here): its build stage in a fresh copy of the project
 * (`npm ci`, build, prune to production dependencies), then its final stage
 * as a folder holding only what that stage's COPY lines take, where its CMD
 * starts the service and its HEALTHCHECK passes. What the image holds is
 * what this test ran with: nothing else.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { EXAMPLES, scratchDir } from '../helpers.js';
import { generateService } from '../service.js';

const run = promisify(execFile);
const scratch = scratchDir();
const project = join(scratch.dir, 'bookshop');
const build = join(scratch.dir, 'build');
const image = join(scratch.dir, 'image');
let service: ChildProcess | undefined;

afterAll(() => {
  service?.kill('SIGTERM');
  scratch.cleanup();
});

interface Stage {
  copies: { from?: string; source: string; target: string }[];
  cmd?: string[];
  healthcheck?: string[];
  env: Record<string, string>;
}

/** The Dockerfile's stages: what each copies, its ENV, CMD and HEALTHCHECK (exec form). */
function stagesOf(dockerfile: string): Stage[] {
  const stages: Stage[] = [];
  for (const line of dockerfile.split('\n')) {
    const [instruction, ...rest] = line.trim().split(/\s+/);
    const argument = line.trim().slice((instruction ?? '').length).trim();
    if (instruction === 'FROM') stages.push({ copies: [], env: {} });
    const stage = stages.at(-1);
    if (!stage) continue;
    if (instruction === 'COPY') {
      const from = rest.find((word) => word.startsWith('--from='))?.slice('--from='.length);
      const paths = rest.filter((word) => !word.startsWith('--'));
      const target = paths.pop()!;
      for (const source of paths) stage.copies.push({ ...(from ? { from } : {}), source, target });
    }
    if (instruction === 'ENV') for (const pair of rest) stage.env[pair.split('=')[0]!] = pair.split('=').slice(1).join('=');
    if (instruction === 'CMD') stage.cmd = JSON.parse(argument) as string[];
    if (instruction === 'HEALTHCHECK') stage.healthcheck = JSON.parse(argument.slice(argument.indexOf('CMD') + 3).trim()) as string[];
  }
  return stages;
}

/** A COPY into `root`: `./x` and `x` relative to it, `/app/x` the build stage's. */
function copy(from: string, source: string, root: string, target: string): void {
  const relative = (path: string) => path.replace(/^\/app\/?/, '').replace(/^\.\//, '');
  const destination = join(root, relative(target));
  const origin = join(from, relative(source));
  mkdirSync(dirname(destination), { recursive: true });
  cpSync(origin, target.endsWith('/') ? join(destination, relative(source)) : destination, { recursive: true });
}

test('the build stage installs, builds and prunes; the final stage holds only what it copies, starts, and passes its health check', async () => {
  await generateService(join(EXAMPLES, 'bookshop/openapi.yaml'), project);
  const [buildStage, finalStage] = stagesOf(readFileSync(join(project, 'Dockerfile'), 'utf8'));
  expect(buildStage && finalStage).toBeTruthy();
  // A user's lock file: what `npm install` writes before they build the image.
  await run('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: project, maxBuffer: 1 << 26 });
  mkdirSync(build);
  for (const { source, target } of buildStage!.copies) copy(project, source, build, target);
  await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: build, maxBuffer: 1 << 26 });
  await run('npm', ['run', 'build'], { cwd: build, maxBuffer: 1 << 26 });
  await run('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund'], { cwd: build, maxBuffer: 1 << 26 });

  mkdirSync(join(image, 'data'), { recursive: true });
  for (const { from, source, target } of finalStage!.copies) copy(from ? build : project, source, image, target);
  // Production dependencies only, and no sources.
  expect(existsSync(join(image, 'node_modules/koa'))).toBe(true);
  for (const absent of ['node_modules/typescript', 'node_modules/jest', 'src', 'test', 'package-lock.json']) expect(existsSync(join(image, absent))).toBe(false);

  // Below Linux's ephemeral range (32768-60999), which the services other test files start on port 0 draw from.
  const port = String(20_000 + (process.pid % 10_000));
  const env = { PATH: process.env.PATH!, ...finalStage!.env, HOST: '127.0.0.1', PORT: port, API_TOKENS: 'image-token', CURSOR_SECRET: 'test', DATA_DIR: join(image, 'data') };
  const [command, ...args] = finalStage!.cmd!;
  service = spawn(command!, args, { cwd: image, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the image's CMD did not start the service:\n${output}`)), 60_000);
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    service!.stdout!.on('data', seen);
    service!.stderr!.on('data', seen);
    service!.once('exit', (code) => reject(new Error(`the image's CMD exited (${code}):\n${output}`)));
  });
  expect(output).toMatch(/Applied 0001_initial\.sql/);
  const [check, ...checkArgs] = finalStage!.healthcheck!;
  await expect(run(check === 'node' ? process.execPath : check!, checkArgs, { cwd: image, env })).resolves.toBeDefined();
  const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
  expect(ready.status).toBe(200);
  const authors = await fetch(`http://127.0.0.1:${port}/api/v1/authors`, { headers: { authorization: 'Bearer image-token' } });
  expect(authors.status).toBe(200);
}, 600_000);
