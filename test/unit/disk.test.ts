/** The disk module on a real folder: paths checked, links not followed, temporary files exclusive and cleaned up. */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '../../src/hash.js';
import { applyPlan, readDiskState, writeAtomically } from '../../src/write/disk.js';
import type { Manifest } from '../../src/write/manifest.js';
import { diagnosticsOf, scratchDir } from '../helpers.js';

let work: ReturnType<typeof scratchDir>;
let out: string;
beforeEach(() => {
  work = scratchDir();
  out = join(work.dir, 'out');
  mkdirSync(out);
  writeFileSync(join(work.dir, 'victim.txt'), 'victim\n');
});
afterEach(() => work.cleanup());

const manifest: Manifest = { manifestVersion: 1, generator: 'g', inputs: [], settings: 's', files: {} };

describe('readDiskState', () => {
  test('hashes files; a missing one is undefined', () => {
    writeFileSync(join(out, 'a.ts'), 'a');
    expect(readDiskState(out, ['a.ts', 'b/c.ts'])).toEqual(new Map([['a.ts', sha256('a')], ['b/c.ts', undefined]]));
  });

  test.each([['../victim.txt'], ['/etc/passwd'], ['a\\..\\..\\victim.txt'], ['C:/x']])('%j is OUTPUT_PATH_INVALID, nothing read', (path) => {
    expect(diagnosticsOf(() => readDiskState(out, [path]))).toEqual([expect.objectContaining({ code: 'OUTPUT_PATH_INVALID' })]);
  });

  test('a link to a file, or a folder link on the way, is OUTPUT_SYMLINK, once per link', () => {
    symlinkSync('../victim.txt', join(out, 'a.ts'));
    symlinkSync('..', join(out, 'src'));
    const diagnostics = diagnosticsOf(() => readDiskState(out, ['a.ts', 'src/x.ts', 'src/y.ts']));
    expect(diagnostics.map((d) => [d.code, d.message.split(';')[0]])).toEqual([
      ['OUTPUT_SYMLINK', 'a.ts is a symbolic link'],
      ['OUTPUT_SYMLINK', 'src is a symbolic link'],
    ]);
  });

  test('a folder where a file goes, or a file where a folder goes, is OUTPUT_NOT_OURS', () => {
    mkdirSync(join(out, 'a.ts'));
    writeFileSync(join(out, 'src'), 'not a folder');
    expect(diagnosticsOf(() => readDiskState(out, ['a.ts', 'src/x.ts'])).map((d) => d.code)).toEqual(['OUTPUT_NOT_OURS', 'OUTPUT_NOT_OURS']);
  });
});

describe('writeAtomically', () => {
  test('replaces a link at the target instead of writing through it, and leaves no temporary file', () => {
    symlinkSync('../victim.txt', join(out, 'a.ts'));
    writeAtomically(join(out, 'a.ts'), 'ours');
    expect(lstatSync(join(out, 'a.ts')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(out, 'a.ts'), 'utf8')).toBe('ours');
    expect(readFileSync(join(work.dir, 'victim.txt'), 'utf8')).toBe('victim\n');
    expect(readdirSync(out)).toEqual(['a.ts']);
  });

  test('a failed rename removes the temporary file', () => {
    mkdirSync(join(out, 'a.ts')); // a folder cannot be replaced by a file
    writeFileSync(join(out, 'a.ts', 'keep'), 'x');
    expect(() => writeAtomically(join(out, 'a.ts'), 'ours')).toThrow();
    expect(readdirSync(out)).toEqual(['a.ts']);
  });
});

describe('applyPlan', () => {
  test('a deletion removes the folders it emptied, never --out itself nor anything beside it', async () => {
    mkdirSync(join(out, 'a/b'), { recursive: true });
    writeFileSync(join(out, 'a/b/c.ts'), 'c');
    mkdirSync(join(work.dir, 'out2'));
    await applyPlan(out, { actions: [{ path: 'a/b/c.ts', kind: 'generated', change: 'delete' }], origins: [], conflicts: [], files: {} }, manifest);
    expect(readdirSync(out)).toEqual(['.specforge']);
    expect(existsSync(join(work.dir, 'out2'))).toBe(true);
  });

  test('a backup never replaces a file already at its name, nor goes through a link', async () => {
    writeFileSync(join(out, 'a.ts'), 'edited');
    mkdirSync(join(out, '.specforge/backup'), { recursive: true });
    writeFileSync(join(out, '.specforge/backup/a.ts.1'), 'first backup');
    const plan = { actions: [{ path: 'a.ts', kind: 'generated' as const, change: 'overwrite' as const, contents: 'new', backupTo: '.specforge/backup/a.ts.1' }], origins: [], conflicts: [], files: {} };
    await applyPlan(out, plan, manifest);
    expect(readFileSync(join(out, '.specforge/backup/a.ts.1'), 'utf8')).toBe('first backup');
    expect(readFileSync(join(out, 'a.ts'), 'utf8')).toBe('new');

    symlinkSync('../../../victim.txt', join(out, '.specforge/backup/a.ts.2'));
    const linked = { ...plan, actions: [{ ...plan.actions[0]!, backupTo: '.specforge/backup/a.ts.2' }] };
    await expect(applyPlan(out, linked, manifest)).rejects.toMatchObject({ diagnostics: [expect.objectContaining({ code: 'OUTPUT_SYMLINK' })] });
    expect(readFileSync(join(work.dir, 'victim.txt'), 'utf8')).toBe('victim\n');
  });

  test('a folder link below --out stops the writes through it, however many files lie behind it', async () => {
    mkdirSync(join(work.dir, 'elsewhere'));
    mkdirSync(join(out, 'a'));
    symlinkSync('../../elsewhere', join(out, 'a/linked'));
    const actions = ['a/first.ts', 'a/linked/x.ts', 'a/linked/y.ts'].map((path) => ({ path, kind: 'generated' as const, change: 'create' as const, contents: path }));
    await expect(applyPlan(out, { actions, origins: [], conflicts: [], files: {} }, manifest)).rejects.toMatchObject({ diagnostics: [expect.objectContaining({ code: 'OUTPUT_SYMLINK' })] });
    expect(readFileSync(join(out, 'a/first.ts'), 'utf8')).toBe('a/first.ts');
    expect(readdirSync(join(work.dir, 'elsewhere'))).toEqual([]);
  });

  test('many files in several folders, each whole, no temporary file left', async () => {
    const actions = Array.from({ length: 100 }, (_, index) => ({ path: `d${index % 7}/f${index}.ts`, kind: 'generated' as const, change: 'create' as const, contents: `file ${index} `.repeat(index + 1) }));
    await applyPlan(out, { actions, origins: [], conflicts: [], files: {} }, manifest);
    for (const action of actions) expect(readFileSync(join(out, action.path), 'utf8')).toBe(action.contents);
    expect(readdirSync(out, { recursive: true }).filter((name) => String(name).endsWith('.tmp'))).toEqual([]);
  });

  test('a file gives way to a folder of its name, and a folder to a file, whatever order the plan lists them in', async () => {
    writeFileSync(join(out, 'x'), 'a file');
    mkdirSync(join(out, 'y'));
    writeFileSync(join(out, 'y/z.ts'), 'in a folder');
    const actions = [
      { path: 'x/inside.ts', kind: 'generated' as const, change: 'create' as const, contents: 'now a folder' },
      { path: 'y', kind: 'generated' as const, change: 'create' as const, contents: 'now a file' },
      { path: 'x', kind: 'generated' as const, change: 'delete' as const },
      { path: 'y/z.ts', kind: 'generated' as const, change: 'delete' as const },
    ];
    await applyPlan(out, { actions, origins: [], conflicts: [], files: {} }, manifest);
    expect(readFileSync(join(out, 'x/inside.ts'), 'utf8')).toBe('now a folder');
    expect(readFileSync(join(out, 'y'), 'utf8')).toBe('now a file');
  });

  test('a failed write stops the run: no later file is written, no manifest, no temporary file left', async () => {
    mkdirSync(join(out, 'b.ts')); // a folder cannot be replaced by a file
    writeFileSync(join(out, 'b.ts/keep'), 'x');
    const actions = ['a.ts', 'b.ts', ...Array.from({ length: 20 }, (_, index) => `later/f${index}.ts`)].map((path) => ({ path, kind: 'generated' as const, change: 'create' as const, contents: path }));
    await expect(applyPlan(out, { actions, origins: [], conflicts: [], files: {} }, manifest)).rejects.toThrow();
    expect(existsSync(join(out, '.specforge'))).toBe(false);
    expect(readFileSync(join(out, 'a.ts'), 'utf8')).toBe('a.ts');
    expect(existsSync(join(out, 'later'))).toBe(false);
    expect(readdirSync(out, { recursive: true }).filter((name) => String(name).endsWith('.tmp'))).toEqual([]);
  });
});
