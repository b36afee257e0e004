/**
 * The disk stays inside --out: a committed manifest, links planted below
 * --out and a careless --out can never make specforge read, write, back up
 * or delete anything else. Each attack runs the built CLI in a sandbox whose
 * every file outside `out/` is listed, with hashes, before and after.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectRefused, HOSTILE, listTree, runInSandbox, sandbox, type Sandbox } from '../hostile.js';
import { FIXTURES, scratchDir } from '../helpers.js';

const SPEC = readFileSync(join(FIXTURES, 'valid/minimal.yaml'), 'utf8');
const SPEC_ARG = 'spec/minimal.yaml';

/** One generation of the spec, copied into each sandbox that needs a previous run (rendering takes seconds). */
let generated: ReturnType<typeof scratchDir>;
beforeAll(async () => {
  generated = scratchDir('specforge-generated-');
  const box = sandbox({ 'minimal.yaml': SPEC });
  const run = await runInSandbox(box, ['generate', SPEC_ARG, '--out', 'out']);
  expect(run.result.code).toBe(0);
  cpSync(box.out, join(generated.dir, 'out'), { recursive: true });
  box.cleanup();
});
afterAll(() => generated.cleanup());

let box: Sandbox;
beforeEach(() => {
  box = sandbox({ 'minimal.yaml': SPEC });
});
afterEach(() => box.cleanup());

function previousRun(): void {
  cpSync(join(generated.dir, 'out'), box.out, { recursive: true });
}

const manifestFile = () => join(box.out, '.specforge/manifest.json');

/** The parts of a manifest an attacker edits. */
interface ManifestPatch {
  inputs?: unknown[];
  files?: Record<string, unknown>;
  operations?: Record<string, unknown>;
}

/** Merges a fixture of test/fixtures/hostile/ into the manifest: `files` and `operations` by key, `inputs` appended. */
function tamper(fixture: string): void {
  const patch = JSON.parse(readFileSync(join(HOSTILE, fixture), 'utf8').replaceAll('{{root}}', box.root)) as ManifestPatch;
  const manifest = JSON.parse(readFileSync(manifestFile(), 'utf8')) as Required<ManifestPatch>;
  const merged = {
    ...manifest,
    inputs: [...manifest.inputs, ...(patch.inputs ?? [])],
    files: { ...manifest.files, ...patch.files },
    operations: { ...manifest.operations, ...patch.operations },
  };
  writeFileSync(manifestFile(), JSON.stringify(merged, null, 2));
}

/** A link at `path` below out/ (its folder created), pointing at `target` as written. */
function plantLink(path: string, target: string): void {
  const link = join(box.out, path);
  mkdirSync(join(link, '..'), { recursive: true });
  rmSync(link, { recursive: true, force: true });
  symlinkSync(target, link);
}

const read = (path: string) => readFileSync(join(box.root, path), 'utf8');

describe('a tampered manifest: MANIFEST_INVALID naming the entry, nothing done', () => {
  test.each([
    ['manifest-traversal.json', 'generate', '"../victim.txt"'],
    ['manifest-traversal.json', 'generate --force', '"../victim.txt"'],
    ['manifest-traversal.json', 'generate --dry-run', '"../victim.txt"'],
    ['manifest-traversal.json', 'check', '"../victim.txt"'],
    ['manifest-windows-traversal.json', 'generate', '"..\\\\..\\\\evil"'],
    ['manifest-windows-traversal.json', 'check', '"..\\\\..\\\\evil"'],
    ['manifest-absolute.json', 'generate --force', '/victim.txt"'],
    ['manifest-drive.json', 'generate', '"C:/x"'],
    ['manifest-input-absolute.json', 'generate', '/neighbour/secret.txt"'],
    ['manifest-handler-traversal.json', 'generate', '"../../evil\\u001b[2J.ts"'],
  ])('%s, %s', async (fixture, command, entry) => {
    previousRun();
    tamper(fixture);
    const [name, ...flags] = command.split(' ');
    const run = await runInSandbox(box, [name!, SPEC_ARG, '--out', 'out', ...flags]);
    expectRefused(run, 'MANIFEST_INVALID');
    expect(run.result.stderr).toContain(entry);
    expect(run.result.stderr).not.toContain('\u001b[2J'); // the entry is shown escaped, never as a terminal escape
    expect(read('victim.txt')).toBe('VICTIM-FILE\n');
    expect(existsSync(join(box.out, '.specforge/backup'))).toBe(false);
  });

  test('an input outside the spec’s folder is not read: the run is not "up to date", it generates', async () => {
    previousRun();
    tamper('manifest-input-outside.json');
    const run = await runInSandbox(box, ['generate', SPEC_ARG, '--out', 'out']);
    expect({ code: run.result.code, outside: run.outside }).toEqual({ code: 0, outside: [] });
    expect(run.result.stdout).not.toContain('Up to date');
    const inputs = (JSON.parse(readFileSync(manifestFile(), 'utf8')) as { inputs: { path: string }[] }).inputs.map((input) => input.path);
    expect(inputs).toEqual(['minimal.yaml']); // the new manifest records the spec's own files only
  });
});

describe('links inside --out are never followed: OUTPUT_SYMLINK, nothing done', () => {
  const secretUntouched = () => {
    expect(read('neighbour/secret.txt')).toBe('NEIGHBOUR-SECRET-7f3a\n');
    expect(read('victim.txt')).toBe('VICTIM-FILE\n');
  };

  test.each([['generate'], ['generate --force'], ['check']])('a folder link (out/src -> ../neighbour), first run: %s', async (command) => {
    plantLink('src', '../neighbour');
    const [name, ...flags] = command.split(' ');
    const run = await runInSandbox(box, [name!, SPEC_ARG, '--out', 'out', ...flags]);
    expectRefused(run, 'OUTPUT_SYMLINK');
    expect(run.result.stderr).toContain('src is a symbolic link');
    secretUntouched();
  });

  test('a folder link, --force over a previous run', async () => {
    previousRun();
    plantLink('src', '../neighbour');
    expectRefused(await runInSandbox(box, ['generate', SPEC_ARG, '--out', 'out', '--force']), 'OUTPUT_SYMLINK');
    secretUntouched();
  });

  test('a folder link, a regeneration that would delete a file behind it', async () => {
    previousRun();
    tamper('manifest-orphan-behind-link.json');
    plantLink('src/generated/resources', '../../../neighbour');
    expectRefused(await runInSandbox(box, ['generate', SPEC_ARG, '--out', 'out']), 'OUTPUT_SYMLINK');
    secretUntouched();
  });

  test.each([['generate'], ['generate --force'], ['check']])('a file link where a generated file goes (out/openapi.merged.yaml -> ../victim.txt): %s', async (command) => {
    previousRun();
    plantLink('openapi.merged.yaml', '../victim.txt');
    const [name, ...flags] = command.split(' ');
    const run = await runInSandbox(box, [name!, SPEC_ARG, '--out', 'out', ...flags]);
    expectRefused(run, 'OUTPUT_SYMLINK');
    secretUntouched();
    expect(existsSync(join(box.out, '.specforge/backup'))).toBe(false); // no copy of the victim read into out/
  });

  test('a file link, a regeneration that would delete it', async () => {
    previousRun();
    tamper('manifest-orphan-link.json');
    plantLink('stale.txt', '../victim.txt');
    expectRefused(await runInSandbox(box, ['generate', SPEC_ARG, '--out', 'out']), 'OUTPUT_SYMLINK');
    expect(listTree(box.out).get('stale.txt')).toBe('link -> ../victim.txt');
    secretUntouched();
  });

  test('the manifest’s folder a link (out/.specforge -> ../neighbour)', async () => {
    plantLink('.specforge', '../neighbour');
    expectRefused(await runInSandbox(box, ['generate', SPEC_ARG, '--out', 'out']), 'OUTPUT_SYMLINK');
    secretUntouched();
  });

  test('links planted at the old predictable temporary names are not written through', async () => {
    // The old names were `<file>.specforge-<pid>.tmp`; the run's pid is near ours.
    const planted = Array.from({ length: 2000 }, (_, i) => `package.json.specforge-${process.pid + i}.tmp`);
    for (const name of planted) plantLink(name, '../victim.txt');
    const run = await runInSandbox(box, ['generate', SPEC_ARG, '--out', 'out']);
    expect({ code: run.result.code, outside: run.outside }).toEqual({ code: 0, outside: [] });
    secretUntouched();
    const tree = listTree(box.out);
    expect(planted.filter((name) => tree.get(name) !== 'link -> ../victim.txt')).toEqual([]);
    expect([...tree.keys()].filter((path) => path.endsWith('.tmp') && !planted.includes(path))).toEqual([]); // no temporary file left
  });
});

describe('--out must be a folder of its own: OUTPUT_TARGET_REFUSED, nothing written', () => {
  test.each([
    ['generate', []],
    ['generate', ['--dry-run']],
    ['generate', ['--watch']], // refused at once, not watched
    ['check', []],
  ])("--out '' (%s %s)", async (command, flags) => {
    expectRefused(await runInSandbox(box, [command, SPEC_ARG, '--out', '', ...flags]), 'OUTPUT_TARGET_REFUSED');
  });

  test.each([[''], ['neighbour']])('merge --out %j (no file)', async (out) => {
    expectRefused(await runInSandbox(box, ['merge', SPEC_ARG, '--out', out]), 'OUTPUT_TARGET_REFUSED');
  });

  // --dry-run: were the guard ever lost, a run as root would otherwise fill the machine's root folder.
  test.each([['/'], ['C:\\'], ['C:']])('--out %s', async (out) => {
    expectRefused(await runInSandbox(box, ['generate', SPEC_ARG, '--out', out, '--dry-run']), 'OUTPUT_TARGET_REFUSED');
  });

  test('--out a file (victim.txt)', async () => {
    const run = await runInSandbox(box, ['generate', SPEC_ARG, '--out', 'victim.txt']);
    expectRefused(run, 'OUTPUT_TARGET_REFUSED');
    expect(run.result.stderr).toContain('is not a folder');
  });

  test('--out $HOME', async () => {
    const home = join(box.root, 'home');
    mkdirSync(home);
    writeFileSync(join(home, '.bashrc'), 'export A=1\n');
    const run = await runInSandbox(box, ['generate', SPEC_ARG, '--out', home], { env: { HOME: home } });
    expectRefused(run, 'OUTPUT_TARGET_REFUSED');
    expect(run.result.stderr).toContain('home folder');
  });

  test('--out the spec’s own folder, with other files in it', async () => {
    writeFileSync(join(box.specDir, 'notes.txt'), 'mine\n');
    const run = await runInSandbox(box, ['generate', SPEC_ARG, '--out', 'spec']);
    expectRefused(run, 'OUTPUT_TARGET_REFUSED');
    expect(run.result.stderr).toContain('holds the spec');
  });

  // Here the spec lives in out/, so that the sandbox's check covers every other file.
  test('--out the spec’s own folder, holding only the spec: generated', async () => {
    mkdirSync(box.out);
    writeFileSync(join(box.out, 'minimal.yaml'), SPEC);
    const run = await runInSandbox(box, ['generate', 'out/minimal.yaml', '--out', 'out']);
    expect({ code: run.result.code, outside: run.outside }).toEqual({ code: 0, outside: [] });
    expect(readFileSync(join(box.out, 'minimal.yaml'), 'utf8')).toBe(SPEC);
  });

  test('--out the spec’s own folder, already generated by specforge: generated', async () => {
    previousRun();
    writeFileSync(join(box.out, 'minimal.yaml'), SPEC);
    writeFileSync(join(box.out, 'notes.txt'), 'mine\n');
    const run = await runInSandbox(box, ['generate', 'out/minimal.yaml', '--out', 'out']);
    expect({ code: run.result.code, outside: run.outside }).toEqual({ code: 0, outside: [] });
  });

  test('--out a link the user gave is followed once', async () => {
    mkdirSync(join(box.root, 'real-out'));
    symlinkSync('real-out', box.out);
    const run = await runInSandbox(box, ['generate', SPEC_ARG, '--out', 'out']);
    expect(run.result.code).toBe(0);
    expect(existsSync(join(box.root, 'real-out/.specforge/manifest.json'))).toBe(true);
  });
});
