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

test('a kept package.json that lacks what this specforge needs: generate names each key, --update-package-json adds only those', async () => {
  const out = join(work.dir, 'service');
  expect((await runCli(['generate', PETSTORE, '--out', out, '--quiet'])).code).toBe(0);
  // A project made by an older specforge, since edited by its owner.
  const file = join(out, 'package.json');
  const older = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
  delete older.devDependencies!['cross-env'];
  delete older.overrides;
  older.scripts!['test:conformance'] = 'my own command';
  older.dependencies!.pg = '^8.0.0';
  writeJson(file, older);
  // A newer specforge is a new fingerprint: simulated by a template change, which makes the run render again.
  const templates = join(work.dir, 'templates');
  mkdirSync(join(templates, 'types'), { recursive: true });
  writeFileSync(join(templates, 'types/resource.ts.hbs'), readFileSync(join(ROOT, 'templates/types/resource.ts.hbs'), 'utf8') + '\n// newer\n');

  const told = await runCli(['generate', PETSTORE, '--out', out, '--templates', templates]);
  expect(told.code).toBe(0);
  expect(told.stdout).toContain('package.json lacks what this specforge needs');
  expect(told.stdout).toMatch(/devDependencies\."cross-env": "\^\d+/);
  expect(told.stdout).toContain('overrides."unrs-resolver"');
  expect(told.stdout).not.toContain('test:conformance'); // the user's own command is theirs
  expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(older);

  const updated = await runCli(['generate', PETSTORE, '--out', out, '--templates', templates, '--update-package-json']);
  expect(updated.code).toBe(0);
  expect(updated.stdout).toContain('Added to package.json');
  const after = readFileSync(file, 'utf8');
  const wanted = JSON.parse(readFileSync(join(EXAMPLES, 'petstore/generated/package.json'), 'utf8')) as typeof older;
  expect(JSON.parse(after)).toEqual({
    ...older,
    devDependencies: { ...older.devDependencies, 'cross-env': wanted.devDependencies!['cross-env'] },
    overrides: wanted.overrides,
  });
  expect(after).toBe(JSON.stringify(JSON.parse(after), null, 2) + '\n');

  const again = await runCli(['generate', PETSTORE, '--out', out, '--templates', templates, '--update-package-json', '--quiet']);
  expect(again).toMatchObject({ code: 0, stdout: expect.not.stringContaining('package.json') });
});
