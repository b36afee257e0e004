/**
 * specforge as a new user meets it, outside this repository: installed from
 * its packed tarball into an empty project; a generated package inside an npm
 * workspace (jest hoisted to the root); a generated project committed and then
 * checked out with CRLF line ends. npm reads the registry (or its cache).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES, ROOT, runCli, scratchDir } from '../helpers.js';

let work: ReturnType<typeof scratchDir>;
beforeEach(() => {
  work = scratchDir('specforge-adoption-');
});
afterEach(() => work.cleanup());

const PETSTORE = join(EXAMPLES, 'petstore/openapi.json');
const INSTALL = ['--prefer-offline', '--no-audit', '--no-fund'];
/** An npm install and a jest run each take a minute or so on a shared machine. */
const SLOW = 600_000;

interface Run {
  code: number;
  output: string;
}

/** A command as a user types it, in `cwd`. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(
      command,
      args,
      { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }),
    );
  });
}

/** npm with the user's cache, so packages this repository installed come from it (--prefer-offline). */
function npm(args: string[], cwd: string): Promise<Run> {
  return run('npm', args, cwd, { npm_config_update_notifier: 'false' });
}

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

function expectSuccess(result: Run): void {
  if (result.code !== 0) throw new Error(`exit ${result.code}:\n${result.output.slice(-4000)}`);
}

test(
  'from a packed tarball: installed into an empty project, `npx specforge generate` works there; after `npm install`, `npm ci` works in the generated project',
  async () => {
    const packed = join(work.dir, 'packed');
    mkdirSync(packed);
    // dist/ is built before the tests run; packing again would only rebuild it.
    expectSuccess(await npm(['pack', '--ignore-scripts', '--pack-destination', packed], ROOT));
    const [tarball] = readdirSync(packed);
    expect(tarball).toMatch(/^specforge-.*\.tgz$/);

    const project = join(work.dir, 'project');
    mkdirSync(project);
    writeJson(join(project, 'package.json'), { name: 'my-api', private: true });
    expectSuccess(await npm(['install', '-D', join(packed, tarball!), ...INSTALL], project));
    writeFileSync(join(project, 'openapi.json'), readFileSync(PETSTORE));

    const generated = await run('npx', ['--no', 'specforge', 'generate', 'openapi.json', '--out', 'out'], project);
    expectSuccess(generated);
    expect(existsSync(join(project, 'out/src/generated/app.ts'))).toBe(true);
    expectSuccess(await run('npx', ['--no', 'specforge', 'check', 'openapi.json', '--out', 'out'], project));

    const out = join(project, 'out');
    expectSuccess(await npm(['install', ...INSTALL], out));
    const ci = await npm(['ci', ...INSTALL], out);
    expectSuccess(ci);
  },
  SLOW,
);

test(
  'in an npm workspace, with jest hoisted to the root, `npm test` of the generated package passes',
  async () => {
    const root = join(work.dir, 'monorepo');
    mkdirSync(root);
    writeJson(join(root, 'package.json'), { name: 'monorepo', private: true, workspaces: ['services/*'] });
    const service = join(root, 'services/petstore');
    expectSuccess(await runCli(['generate', PETSTORE, '--out', service]).then(({ code, stdout, stderr }) => ({ code, output: stdout + stderr })));

    expectSuccess(await npm(['install', ...INSTALL], root));
    expect(existsSync(join(root, 'node_modules/jest/package.json'))).toBe(true);
    expect(existsSync(join(service, 'node_modules/jest'))).toBe(false);

    const tested = await npm(['test'], service);
    expectSuccess(tested);
    expect(tested.output).toMatch(/Tests:\s+\d+ passed, \d+ total/);
  },
  SLOW,
);

test(
  'checked out with CRLF line ends (core.autocrlf=true, as Git for Windows sets it), the generated files arrive as LF and `check` passes',
  async () => {
    const repo = join(work.dir, 'repo');
    mkdirSync(repo);
    writeFileSync(join(repo, 'openapi.json'), readFileSync(PETSTORE));
    expectSuccess(await runCli(['generate', 'openapi.json', '--out', 'service'], { cwd: repo }).then(({ code, stdout, stderr }) => ({ code, output: stdout + stderr })));
    // A text file outside the generated project, where no .gitattributes applies: it must arrive as CRLF, or the checkout simulates nothing.
    writeFileSync(join(repo, 'notes.txt'), 'one\ntwo\n');

    // HOME and the system config out of the way: only the settings below count.
    const git = (args: string[], cwd: string) => run('git', args, cwd, { HOME: work.dir, GIT_CONFIG_NOSYSTEM: '1' });
    const identity = ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'core.autocrlf=false'];
    expectSuccess(await git(['init', '-q'], repo));
    expectSuccess(await git([...identity, 'add', '-A'], repo));
    expectSuccess(await git([...identity, 'commit', '-q', '-m', 'generated'], repo));
    const clone = join(work.dir, 'clone');
    expectSuccess(await git(['-c', 'core.autocrlf=true', 'clone', '-q', repo, clone], work.dir));

    expect(readFileSync(join(clone, 'notes.txt'), 'utf8')).toBe('one\r\ntwo\r\n');
    expect(readFileSync(join(clone, 'service/src/generated/app.ts'), 'utf8')).not.toContain('\r');
    const checked = await runCli(['check', 'openapi.json', '--out', 'service'], { cwd: clone });
    expect(checked.stdout + checked.stderr).not.toMatch(/hand-edited|stale/);
    expect(checked.code).toBe(0);
  },
  SLOW,
);
