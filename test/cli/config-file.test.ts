/**
 * specforge.config.json: where it is found, what it may hold, and how it
 * combines with flags (flag > file > default) — first as functions, then
 * through the compiled CLI (`npm run build` first), run from inside a project.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE, findConfigFile, layered, pathsFrom, readConfigFile } from '../../src/cli/config-file.js';
import { diagnosticsOf, FIXTURES, ROOT, runCli, scratchDir } from '../helpers.js';

let work: ReturnType<typeof scratchDir>;
beforeEach(() => {
  work = scratchDir('specforge-config-');
});
afterEach(() => work.cleanup());

function writeConfig(folder: string, value: unknown): string {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, CONFIG_FILE);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

describe('discovery: the nearest file, from the current folder up', () => {
  test('in the folder itself', () => {
    const file = writeConfig(work.dir, {});
    expect(findConfigFile(work.dir)).toBe(file);
  });

  test('in a folder above, the nearest one winning', () => {
    writeConfig(work.dir, {});
    const nearer = writeConfig(join(work.dir, 'project'), {});
    mkdirSync(join(work.dir, 'project/api/v1'), { recursive: true });
    expect(findConfigFile(join(work.dir, 'project/api/v1'))).toBe(nearer);
  });

  test('not above a repository root: a file beyond the folder holding .git belongs to another project', () => {
    writeConfig(work.dir, {});
    mkdirSync(join(work.dir, 'repo/.git/objects'), { recursive: true });
    mkdirSync(join(work.dir, 'repo/src'), { recursive: true });
    expect(findConfigFile(join(work.dir, 'repo/src'))).toBeUndefined();
    // …but the repository root itself is searched (a worktree's .git is a file; it counts too).
    const atRoot = writeConfig(join(work.dir, 'repo'), {});
    expect(findConfigFile(join(work.dir, 'repo/src'))).toBe(atRoot);
  });

  test('none anywhere up to the root of the file system: undefined', () => {
    mkdirSync(join(work.dir, 'a/.git'), { recursive: true }); // keeps the walk off the machine's own folders
    expect(findConfigFile(join(work.dir, 'a'))).toBeUndefined();
  });
});

describe('reading: paths relative to the file, every key checked', () => {
  test('paths are resolved against the file’s folder, options kept as they are', () => {
    const file = writeConfig(join(work.dir, 'project'), {
      spec: 'api/openapi.yaml',
      out: '../generated',
      templates: 'tpl',
      refRoot: '.',
      overlay: 'api/fix.overlay.yaml',
      lint: false,
    });
    expect(readConfigFile(file)).toEqual({
      file,
      spec: join(work.dir, 'project/api/openapi.yaml'),
      out: join(work.dir, 'generated'),
      templates: join(work.dir, 'project/tpl'),
      refRoot: join(work.dir, 'project'),
      overlay: join(work.dir, 'project/api/fix.overlay.yaml'),
      lint: false,
    });
  });

  test('an unknown key: CONFIG_UNKNOWN_KEY at its pointer, with a did-you-mean and the known keys', () => {
    const file = writeConfig(work.dir, { spec: 'a.yaml', tempaltes: 'tpl', frobnicate: 1 });
    const [typo, unknown] = diagnosticsOf(() => readConfigFile(file));
    expect(typo).toMatchObject({ code: 'CONFIG_UNKNOWN_KEY', file, pointer: '#/tempaltes' });
    expect(typo!.message).toContain('did you mean "templates"?');
    expect(typo!.hint).toBe('Known keys: spec, out, templates, refRoot, overlay, lint.');
    expect(unknown).toMatchObject({ code: 'CONFIG_UNKNOWN_KEY', pointer: '#/frobnicate' });
    expect(unknown!.message).not.toContain('did you mean');
  });

  test.each([
    ['a number for a path', { out: 3 }, '#/out'],
    ['an empty path', { spec: ' ' }, '#/spec'],
    ['a string for a boolean', { lint: 'no' }, '#/lint'],
  ])('%s: CONFIG_INVALID_VALUE at its pointer', (_name, value, pointer) => {
    const file = writeConfig(work.dir, value);
    expect(diagnosticsOf(() => readConfigFile(file))).toEqual([expect.objectContaining({ code: 'CONFIG_INVALID_VALUE', file, pointer })]);
  });

  test.each([
    ['not JSON', '{ "spec": '],
    ['not an object', '["openapi.yaml"]'],
    ['null', 'null'],
  ])('%s: CONFIG_FILE_INVALID naming the file', (_name, text) => {
    const file = writeConfig(work.dir, text);
    expect(diagnosticsOf(() => readConfigFile(file))).toEqual([expect.objectContaining({ code: 'CONFIG_FILE_INVALID', file })]);
  });
});

describe('precedence: flag > file > default', () => {
  const file = { file: '/p/specforge.config.json', spec: '/p/api.yaml', out: '/p/gen', templates: '/p/tpl', lint: false };

  test('a flag given overrides the file', () => {
    expect(layered({ out: 'elsewhere', lint: true }, file)).toEqual({ spec: '/p/api.yaml', out: 'elsewhere', templates: '/p/tpl', lint: true });
  });

  test('what no flag gives comes from the file; what neither gives stays unset, for the command’s default', () => {
    expect(layered({}, { file: file.file, spec: '/p/api.yaml' })).toEqual({ spec: '/p/api.yaml' });
    expect(layered({ spec: 'x.yaml' }, undefined)).toEqual({ spec: 'x.yaml' });
  });

  test('the file’s paths are shown as typed from the current folder: relative below it, absolute elsewhere', () => {
    expect(pathsFrom('/p/sub', file)).toMatchObject({ spec: '/p/api.yaml', out: '/p/gen' });
    expect(pathsFrom('/p', file)).toMatchObject({ spec: 'api.yaml', out: 'gen', templates: 'tpl' });
    expect(pathsFrom('/p/gen', file)).toMatchObject({ out: '.' });
  });
});

describe('through the CLI, from inside a project', () => {
  /** A project with its spec in api/, the config at its root, and a subfolder to run from. */
  function project(config: Record<string, unknown>): { root: string; sub: string } {
    const root = join(work.dir, 'project');
    mkdirSync(join(root, '.git'), { recursive: true });
    mkdirSync(join(root, 'api'), { recursive: true });
    cpSync(join(FIXTURES, 'valid/minimal.yaml'), join(root, 'api/openapi.yaml'));
    writeConfig(root, config);
    const sub = join(root, 'docs/notes');
    mkdirSync(sub, { recursive: true });
    return { root, sub };
  }

  test('generate, check, lint and merge read the spec and --out from the file, its paths relative to it', async () => {
    const { root, sub } = project({ spec: 'api/openapi.yaml', out: 'generated' });
    const generated = await runCli(['generate', '--quiet'], { cwd: sub });
    expect(generated).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(join(root, 'generated/.specforge/manifest.json'))).toBe(true);
    expect(existsSync(join(sub, 'generated'))).toBe(false);

    const checked = await runCli(['check', '--quiet'], { cwd: sub });
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain('is up to date');
    expect((await runCli(['lint'], { cwd: sub })).code).toBe(0);
    const merged = await runCli(['merge', '--out', '-'], { cwd: sub });
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain('openapi: 3.');
  });

  test('flags override the file: --out elsewhere, and a spec argument', async () => {
    const { root } = project({ spec: 'api/does-not-exist.yaml', out: 'generated' });
    const result = await runCli(['generate', 'api/openapi.yaml', '--out', 'other', '--quiet'], { cwd: root });
    expect(result.code).toBe(0);
    expect(existsSync(join(root, 'other/.specforge/manifest.json'))).toBe(true);
    expect(existsSync(join(root, 'generated'))).toBe(false);
  });

  test('an invalid file: exit 1, its diagnostics (did-you-mean), no stack trace, nothing written', async () => {
    const { root, sub } = project({ spec: 'api/openapi.yaml', out: 'generated', tempaltes: 'tpl', lint: 'yes' });
    const result = await runCli(['generate'], { cwd: sub });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`✘ CONFIG_UNKNOWN_KEY  ${join(root, CONFIG_FILE)}  #/tempaltes`);
    expect(result.stderr).toContain('(did you mean "templates"?)');
    expect(result.stderr).toContain('✘ CONFIG_INVALID_VALUE');
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(join(root, 'generated'))).toBe(false);
  });

  test('no spec in the file nor on the command line: a usage error that names both ways', async () => {
    const { sub } = project({ out: 'generated' });
    const result = await runCli(['generate'], { cwd: sub });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Missing required argument: spec (name the spec after the command, or set "spec" in ${CONFIG_FILE})`);
  });
});

describe('the templates a generation used', () => {
  const CUSTOM = '# customised by the project\n';

  /** A project whose config names a templates folder that customises a generated file. */
  async function customised(): Promise<{ root: string; gitattributes: string }> {
    const root = join(work.dir, 'project');
    mkdirSync(join(root, 'tpl/project'), { recursive: true });
    mkdirSync(join(root, '.git'));
    cpSync(join(FIXTURES, 'valid/minimal.yaml'), join(root, 'openapi.yaml'));
    writeFileSync(join(root, 'tpl/project/gitattributes.hbs'), readFileSync(join(ROOT, 'templates/project/gitattributes.hbs'), 'utf8') + CUSTOM);
    writeConfig(root, { spec: 'openapi.yaml', out: 'gen', templates: 'tpl' });
    expect((await runCli(['generate', '--quiet'], { cwd: root })).code).toBe(0);
    return { root, gitattributes: join(root, 'gen/.gitattributes') };
  }

  test('are recorded in the manifest, relative to --out and /-separated', async () => {
    const { root, gitattributes } = await customised();
    expect(readFileSync(gitattributes, 'utf8')).toContain(CUSTOM);
    expect(JSON.parse(readFileSync(join(root, 'gen/.specforge/manifest.json'), 'utf8')).templates).toBe('../tpl');
  });

  test('a run without them stops before reverting (TEMPLATES_NOT_GIVEN); --dry-run shows its plan first; --force goes back to the built-in ones', async () => {
    const { root, gitattributes } = await customised();
    writeConfig(root, { spec: 'openapi.yaml', out: 'gen' });

    const refused = await runCli(['generate'], { cwd: root });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('✘ TEMPLATES_NOT_GIVEN  gen/.specforge/manifest.json');
    expect(refused.stderr).toContain('generated with the templates in tpl');
    expect(refused.stderr).toContain('fix: Pass --templates tpl (or set "templates" in specforge.config.json); or pass --force to go back to the built-in templates.');
    expect(readFileSync(gitattributes, 'utf8')).toContain(CUSTOM);

    const checked = await runCli(['check'], { cwd: root });
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain('TEMPLATES_NOT_GIVEN');

    const planned = await runCli(['generate', '--dry-run'], { cwd: root });
    expect(planned.code).toBe(1);
    expect(planned.stdout).toMatch(/would be updated\s+\.gitattributes/);
    expect(planned.stderr).toContain('TEMPLATES_NOT_GIVEN');
    expect(readFileSync(gitattributes, 'utf8')).toContain(CUSTOM);

    const forced = await runCli(['generate', '--force', '--quiet'], { cwd: root });
    expect(forced.code).toBe(0);
    expect(readFileSync(gitattributes, 'utf8')).not.toContain(CUSTOM);
    expect(JSON.parse(readFileSync(join(root, 'gen/.specforge/manifest.json'), 'utf8')).templates).toBeUndefined();
    expect((await runCli(['generate', '--quiet'], { cwd: root })).code).toBe(0);
  });
});
