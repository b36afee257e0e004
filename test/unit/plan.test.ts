import { sha256 } from '../../src/hash.js';
import { MANIFEST_VERSION, parseManifest, serializeManifest, type Manifest } from '../../src/write/manifest.js';
import { driftedScaffolds, findDrift, originsToRecover, pathsToRead, planWrite, type Action, type Change, type Finding } from '../../src/write/plan.js';
import { SpecforgeError } from '../../src/diagnostics.js';
import type { FileKind, OutputFile } from '../../src/render/index.js';

const OUT = 'out';

const file = (path: string, contents: string, kind: FileKind = 'generated'): OutputFile => ({ path, contents, kind, format: 'as-is' });

function manifest(files: Record<string, { contents: string; kind?: FileKind }>): Manifest {
  return {
    manifestVersion: 1,
    generator: 'specforge@0.0.0',
    inputs: [],
    settings: 'x',
    files: Object.fromEntries(Object.entries(files).map(([path, { contents, kind }]) => [path, { kind: kind ?? 'generated', sha256: sha256(contents) }])),
  };
}

/** Disk state from file contents (undefined: no file). */
function disk(files: Record<string, string | undefined>): Map<string, string | undefined> {
  return new Map(Object.entries(files).map(([path, contents]) => [path, contents === undefined ? undefined : sha256(contents)]));
}

const changes = (actions: Action[]) => actions.map((action) => [action.path, action.change] as [string, Change]);

describe('planWrite: one file at a time', () => {
  test.each<{
    name: string;
    kind?: FileKind;
    onDisk: string | undefined;
    recorded: string | undefined;
    force?: boolean;
    want: Change;
    conflict?: 'OUTPUT_HAND_EDITED' | 'OUTPUT_NOT_OURS';
  }>([
    { name: 'generated, not on disk → create', onDisk: undefined, recorded: undefined, want: 'create' },
    { name: 'generated, recorded but deleted from disk → create', onDisk: undefined, recorded: 'old', want: 'create' },
    { name: 'generated, on disk with the new content → unchanged', onDisk: 'new', recorded: 'new', want: 'unchanged' },
    { name: 'generated, new content already on disk, no manifest → unchanged', onDisk: 'new', recorded: undefined, want: 'unchanged' },
    { name: 'generated, on disk as last written → update', onDisk: 'old', recorded: 'old', want: 'update' },
    { name: 'generated, edited by hand → conflict', onDisk: 'edited', recorded: 'old', want: 'conflict', conflict: 'OUTPUT_HAND_EDITED' },
    { name: 'generated, exists but not in the manifest → conflict', onDisk: 'theirs', recorded: undefined, want: 'conflict', conflict: 'OUTPUT_NOT_OURS' },
    { name: 'generated, edited by hand, --force → overwrite', onDisk: 'edited', recorded: 'old', force: true, want: 'overwrite' },
    { name: 'generated, not ours, --force → overwrite', onDisk: 'theirs', recorded: undefined, force: true, want: 'overwrite' },
    { name: 'scaffold, exists → keep', kind: 'scaffold', onDisk: 'user code', recorded: 'old', want: 'keep' },
    { name: 'scaffold, exists, not in the manifest → keep', kind: 'scaffold', onDisk: 'user code', recorded: undefined, want: 'keep' },
    { name: 'scaffold, exists, --force → keep', kind: 'scaffold', onDisk: 'user code', recorded: 'old', force: true, want: 'keep' },
    { name: 'scaffold, deleted by the user → stays deleted', kind: 'scaffold', onDisk: undefined, recorded: 'old', want: 'skip' },
    { name: 'scaffold, deleted by the user, --force → recreated', kind: 'scaffold', onDisk: undefined, recorded: 'old', force: true, want: 'create' },
    { name: 'scaffold, never created → create', kind: 'scaffold', onDisk: undefined, recorded: undefined, want: 'create' },
  ])('$name', ({ kind = 'generated', onDisk, recorded, force = false, want, conflict }) => {
    const path = 'src/a.ts';
    const plan = planWrite({
      files: [file(path, 'new', kind)],
      previous: recorded === undefined ? undefined : manifest({ [path]: { contents: recorded, kind } }),
      disk: disk({ [path]: onDisk }),
      force,
      outDir: OUT,
    });
    expect(changes(plan.actions)).toEqual([[path, want]]);
    expect(plan.actions[0]).toMatchObject({ kind, contents: 'new', sha256: sha256('new') });
    if (conflict) expect(plan.conflicts).toEqual([expect.objectContaining({ code: conflict, file: `${OUT}/${path}` })]);
    else expect(plan.conflicts).toEqual([]);
  });

  test('the manifest records the new hash of every generated file', () => {
    const plan = planWrite({ files: [file('a.ts', 'new')], previous: manifest({ 'a.ts': { contents: 'old' } }), disk: disk({ 'a.ts': 'old' }), force: false, outDir: OUT });
    expect(plan.files).toEqual({ 'a.ts': { kind: 'generated', sha256: sha256('new') } });
  });

  test('a kept scaffold keeps the hash of its origin, and records the rendering that drifted from it', () => {
    const plan = planWrite({
      files: [file('src/handlers/books.ts', 'template v2', 'scaffold')],
      previous: manifest({ 'src/handlers/books.ts': { contents: 'template v1', kind: 'scaffold' } }),
      disk: disk({ 'src/handlers/books.ts': 'user code', '.specforge/scaffolds/src/handlers/books.ts': 'template v1' }),
      force: false,
      outDir: OUT,
    });
    expect(plan.files['src/handlers/books.ts']).toEqual({ kind: 'scaffold', sha256: sha256('template v1'), rendered: sha256('template v2') });
    expect(plan.origins).toEqual([]);
  });
});

describe('planWrite: scaffold origins (.specforge/scaffolds/<path>)', () => {
  const path = 'src/store/index.ts';
  const origin = `.specforge/scaffolds/${path}`;
  /** The plan for one scaffold rendered as `fresh`, last recorded as `recorded`, with the scaffold and its origin on disk as given. */
  const planFor = ({ fresh, recorded, scaffold, originOnDisk, force = false, untouched }: {
    fresh: string;
    recorded: string | undefined;
    scaffold: string | undefined;
    originOnDisk: string | undefined;
    force?: boolean;
    untouched?: string;
  }) =>
    planWrite({
      files: [file(path, fresh, 'scaffold')],
      previous: recorded === undefined ? undefined : manifest({ [path]: { contents: recorded, kind: 'scaffold' } }),
      disk: disk({ [path]: scaffold, [origin]: originOnDisk }),
      force,
      outDir: OUT,
      ...(untouched === undefined ? {} : { untouched: new Map([[path, untouched]]) }),
    });
  const originWrites = (plan: ReturnType<typeof planFor>) => plan.origins.map((action) => [action.path, action.change, action.contents]);

  test('a scaffold created now records its rendering as its origin', () => {
    const plan = planFor({ fresh: 'v1', recorded: undefined, scaffold: undefined, originOnDisk: undefined });
    expect(originWrites(plan)).toEqual([[origin, 'create', 'v1']]);
    expect(plan.files[path]).toEqual({ kind: 'scaffold', sha256: sha256('v1') });
  });

  test('kept, rendered as its origin: no drift, nothing written', () => {
    const plan = planFor({ fresh: 'v1', recorded: 'v1', scaffold: 'mine', originOnDisk: 'v1' });
    expect(plan.origins).toEqual([]);
    expect(plan.files[path]).toEqual({ kind: 'scaffold', sha256: sha256('v1') });
    expect(driftedScaffolds(plan.files, disk({ [path]: 'mine' }))).toEqual([]);
  });

  test('kept, rendered otherwise: drift, and it stays drift on the next run until the origin changes', () => {
    const first = planFor({ fresh: 'v2', recorded: 'v1', scaffold: 'mine', originOnDisk: 'v1' });
    expect(driftedScaffolds(first.files, disk({ [path]: 'mine' }))).toEqual([path]);
    const next = planWrite({ files: [file(path, 'v2', 'scaffold')], previous: { ...manifest({}), files: first.files }, disk: disk({ [path]: 'mine', [origin]: 'v1' }), force: false, outDir: OUT });
    expect(driftedScaffolds(next.files, disk({ [path]: 'mine' }))).toEqual([path]);
    // Accepted (the origin now holds v2): no more drift.
    expect(planFor({ fresh: 'v2', recorded: 'v2', scaffold: 'mine', originOnDisk: 'v2' }).files[path]!.rendered).toBeUndefined();
  });

  test('deleted by the user: not drift, its origin left as it is', () => {
    const plan = planFor({ fresh: 'v2', recorded: 'v1', scaffold: undefined, originOnDisk: 'v1' });
    expect(plan.actions.map((action) => action.change)).toEqual(['skip']);
    expect(plan.origins).toEqual([]);
    expect(plan.files[path]).toEqual({ kind: 'scaffold', sha256: sha256('v1') });
    expect(driftedScaffolds(plan.files, disk({}))).toEqual([]);
  });

  test('recreated by --force: its new rendering becomes its origin', () => {
    const plan = planFor({ fresh: 'v2', recorded: 'v1', scaffold: undefined, originOnDisk: 'v1', force: true });
    expect(originWrites(plan)).toEqual([[origin, 'update', 'v2']]);
    expect(plan.files[path]).toEqual({ kind: 'scaffold', sha256: sha256('v2') });
  });

  test('kept with no origin (a project generated before origins were kept), edited: this rendering is recorded, no drift reported', () => {
    const plan = planFor({ fresh: 'v2', recorded: 'v1', scaffold: 'mine', originOnDisk: undefined });
    expect(originWrites(plan)).toEqual([[origin, 'create', 'v2']]);
    expect(plan.files[path]).toEqual({ kind: 'scaffold', sha256: sha256('v2') });
  });

  test('kept with no origin but still as created: the file is its own origin, and its drift is reported', () => {
    const previous = manifest({ [path]: { contents: 'v1', kind: 'scaffold' } });
    expect(originsToRecover([file(path, 'v2', 'scaffold')], previous, disk({ [path]: 'v1' }))).toEqual([path]);
    expect(originsToRecover([file(path, 'v2', 'scaffold')], previous, disk({ [path]: 'mine' }))).toEqual([]);
    expect(originsToRecover([file(path, 'v2', 'scaffold')], previous, disk({ [path]: 'v1', [origin]: 'v1' }))).toEqual([]);
    const plan = planFor({ fresh: 'v2', recorded: 'v1', scaffold: 'v1', originOnDisk: undefined, untouched: 'v1' });
    expect(originWrites(plan)).toEqual([[origin, 'create', 'v1']]);
    expect(plan.files[path]).toEqual({ kind: 'scaffold', sha256: sha256('v1'), rendered: sha256('v2') });
  });

  test('an origin that is not what the manifest records is not trusted: recorded again', () => {
    const plan = planFor({ fresh: 'v1', recorded: 'v1', scaffold: 'mine', originOnDisk: 'tampered' });
    expect(originWrites(plan)).toEqual([[origin, 'update', 'v1']]);
  });

  test('the origin of a scaffold the spec no longer produces is deleted; the scaffold is kept', () => {
    const plan = planWrite({ files: [], previous: manifest({ [path]: { contents: 'v1', kind: 'scaffold' } }), disk: disk({ [path]: 'mine', [origin]: 'v1' }), force: false, outDir: OUT });
    expect(plan.actions).toEqual([]);
    expect(plan.origins.map((action) => [action.path, action.change])).toEqual([[origin, 'delete']]);
  });

  test('pathsToRead names the origins of the scaffolds produced and recorded', () => {
    const previous = manifest({ 'src/old.ts': { contents: 'o', kind: 'scaffold' }, 'gen.ts': { contents: 'g' } });
    expect(pathsToRead([file(path, 'v1', 'scaffold'), file('a.ts', 'a')], previous).sort()).toEqual(
      ['.specforge/scaffolds/src/old.ts', origin, 'a.ts', 'gen.ts', path, 'src/old.ts'].sort(),
    );
  });
});

describe('planWrite: files no longer produced', () => {
  test('an orphaned generated file, as we wrote it → delete', () => {
    const plan = planWrite({ files: [], previous: manifest({ 'old.ts': { contents: 'x' } }), disk: disk({ 'old.ts': 'x' }), force: false, outDir: OUT });
    expect(changes(plan.actions)).toEqual([['old.ts', 'delete']]);
    expect(plan.conflicts).toEqual([]);
    expect(plan.files).toEqual({});
  });

  test('an orphaned generated file edited by hand → conflict (hand-edited), delete with --force', () => {
    const input = { files: [], previous: manifest({ 'old.ts': { contents: 'x' } }), disk: disk({ 'old.ts': 'edited' }), outDir: OUT };
    const plan = planWrite({ ...input, force: false });
    expect(changes(plan.actions)).toEqual([['old.ts', 'conflict']]);
    expect(plan.conflicts).toEqual([expect.objectContaining({ code: 'OUTPUT_HAND_EDITED', file: 'out/old.ts' })]);
    expect(plan.conflicts[0]!.message).toContain('delete');
    const forced = planWrite({ ...input, force: true }).actions;
    expect(changes(forced)).toEqual([['old.ts', 'delete']]);
    // The edited file is backed up first, under a name per content.
    expect(forced[0]!.backupTo).toBe(`.specforge/backup/old.ts.${sha256('edited').slice(0, 12)}`);
  });

  test('an orphaned file already gone → nothing to do', () => {
    const plan = planWrite({ files: [], previous: manifest({ 'old.ts': { contents: 'x' } }), disk: disk({ 'old.ts': undefined }), force: false, outDir: OUT });
    expect(plan.actions).toEqual([]);
  });

  test('a scaffold is never deleted, even with --force', () => {
    for (const force of [false, true]) {
      const plan = planWrite({
        files: [],
        previous: manifest({ 'src/auth.ts': { contents: 'x', kind: 'scaffold' } }),
        disk: disk({ 'src/auth.ts': 'x' }),
        force,
        outDir: OUT,
      });
      expect(plan.actions).toEqual([]);
    }
  });
});

describe('planWrite: a whole run', () => {
  test('actions sorted by path, manifest lists what was produced', () => {
    const previous = manifest({
      'z/old.ts': { contents: 'z' },
      'b.ts': { contents: 'b1' },
      'src/handlers/books.ts': { contents: 's', kind: 'scaffold' },
    });
    const plan = planWrite({
      files: [file('c.ts', 'c'), file('b.ts', 'b2'), file('src/handlers/books.ts', 's', 'scaffold'), file('a.ts', 'a')],
      previous,
      disk: disk({ 'b.ts': 'b1', 'src/handlers/books.ts': 'mine', 'z/old.ts': 'z' }),
      force: false,
      outDir: OUT,
    });
    expect(changes(plan.actions)).toEqual([
      ['a.ts', 'create'],
      ['b.ts', 'update'],
      ['c.ts', 'create'],
      ['src/handlers/books.ts', 'keep'],
      ['z/old.ts', 'delete'],
    ]);
    expect(Object.keys(plan.files).sort()).toEqual(['a.ts', 'b.ts', 'c.ts', 'src/handlers/books.ts']);
  });
});

describe('findDrift', () => {
  test('every category, sorted by path', () => {
    const previous = manifest({
      'stale.ts': { contents: 'old' },
      'edited.ts': { contents: 'old' },
      'missing.ts': { contents: 'old' },
      'fine.ts': { contents: 'same' },
      'orphan.ts': { contents: 'o' },
      'gone-orphan.ts': { contents: 'o' },
      'src/auth.ts': { contents: 'a', kind: 'scaffold' },
    });
    const findings = findDrift({
      files: [
        file('stale.ts', 'new'),
        file('edited.ts', 'new'),
        file('missing.ts', 'new'),
        file('fine.ts', 'same'),
        file('alien.ts', 'new'),
        file('src/auth.ts', 'a', 'scaffold'),
        file('src/store.ts', 's', 'scaffold'),
      ],
      previous,
      disk: disk({
        'stale.ts': 'old',
        'edited.ts': 'by hand',
        'fine.ts': 'same',
        'alien.ts': 'someone else',
        'orphan.ts': 'o',
        'src/auth.ts': 'user code',
      }),
    });
    expect(findings).toEqual<Finding[]>([
      { path: 'alien.ts', problem: 'not generated by specforge' },
      { path: 'edited.ts', problem: 'hand-edited' },
      { path: 'missing.ts', problem: 'missing' },
      { path: 'orphan.ts', problem: 'orphaned' },
      { path: 'stale.ts', problem: 'stale' },
    ]);
  });

  test('no manifest, nothing on disk: every generated file is missing; scaffolds are not reported', () => {
    expect(findDrift({ files: [file('b.ts', 'b'), file('a.ts', 'a'), file('s.ts', 's', 'scaffold')], previous: undefined, disk: disk({}) })).toEqual([
      { path: 'a.ts', problem: 'missing' },
      { path: 'b.ts', problem: 'missing' },
    ]);
  });

  test('everything as generated → no findings', () => {
    expect(findDrift({ files: [file('a.ts', 'a')], previous: manifest({ 'a.ts': { contents: 'a' } }), disk: disk({ 'a.ts': 'a' }) })).toEqual([]);
  });
});

describe('manifest', () => {
  const unsorted: Manifest = {
    manifestVersion: MANIFEST_VERSION,
    generator: 'specforge@1.2.3',
    inputs: [{ path: 'api.yaml', sha256: sha256('api') }],
    settings: 'fingerprint',
    files: {
      'src/z.ts': { kind: 'generated', sha256: sha256('1') },
      'a.yaml': { kind: 'generated', sha256: sha256('2') },
      'src/a.ts': { kind: 'scaffold', sha256: sha256('3') },
      'src/B.ts': { kind: 'generated', sha256: sha256('4') },
    },
  };

  test('serializeManifest sorts files by path and ends with one newline', () => {
    const text = serializeManifest(unsorted);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(false);
    expect(Object.keys((JSON.parse(text) as Manifest).files)).toEqual(['a.yaml', 'src/B.ts', 'src/a.ts', 'src/z.ts']);
  });

  test('serializeManifest is 2-space JSON, stable whatever the insertion order', () => {
    const reordered: Manifest = { ...unsorted, files: Object.fromEntries(Object.entries(unsorted.files).reverse()) };
    expect(serializeManifest(reordered)).toBe(serializeManifest(unsorted));
    expect(serializeManifest(unsorted).split('\n')[1]).toBe('  "manifestVersion": 1,');
  });

  test('serializeManifest does not reorder the caller’s object', () => {
    const copy = structuredClone(unsorted);
    serializeManifest(copy);
    expect(Object.keys(copy.files)).toEqual(Object.keys(unsorted.files));
  });

  test('parseManifest round-trips and rejects an unknown version', () => {
    expect(parseManifest(serializeManifest(unsorted), 'm.json')).toEqual(unsorted);
    expect(() => parseManifest(JSON.stringify({ ...unsorted, manifestVersion: 99 }), 'm.json')).toThrow(SpecforgeError);
    expect(() => parseManifest('{ not json', 'm.json')).toThrow(expect.objectContaining({ diagnostics: [expect.objectContaining({ code: 'MANIFEST_INVALID', file: 'm.json' })] }));
  });

  test.each([
    { given: '', want: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
    { given: 'abc', want: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' },
  ])('sha256($given)', ({ given, want }) => {
    expect(sha256(given)).toBe(want);
    expect(sha256(Buffer.from(given))).toBe(want);
  });
});

describe('parseManifest: every field it promises is checked', () => {
  const valid = { manifestVersion: MANIFEST_VERSION, generator: 'specforge@0', inputs: [{ path: 'a.yaml', sha256: sha256('a') }], settings: 's', files: { 'x.ts': { kind: 'generated', sha256: sha256('x') } } };
  test.each([
    ['no inputs', { ...valid, inputs: undefined }],
    ['an input without a hash', { ...valid, inputs: [{ path: 'a.yaml' }] }],
    ['a file of unknown kind', { ...valid, files: { 'x.ts': { kind: 'other', sha256: sha256('x') } } }],
    ['a file with a bad hash', { ...valid, files: { 'x.ts': { kind: 'generated', sha256: 'nope' } } }],
    ['another version', { ...valid, manifestVersion: 99 }],
    ['not JSON', '{'],
    ['a file outside --out', { ...valid, files: { '../victim.txt': valid.files['x.ts'] } }],
    ['a file by an absolute path', { ...valid, files: { '/etc/passwd': valid.files['x.ts'] } }],
    ['a file by a Windows path', { ...valid, files: { '..\\..\\evil': valid.files['x.ts'] } }],
    ['a file on a drive', { ...valid, files: { 'C:/x': valid.files['x.ts'] } }],
    ['a file in specforge’s own folder', { ...valid, files: { '.specforge/backup/a.ts.0123456789ab': valid.files['x.ts'] } }],
    ['a scaffold whose origin would lie outside --out', { ...valid, files: { '../../escape.ts': { kind: 'scaffold', sha256: sha256('x') } } }],
    ['a drifted rendering that is not a hash', { ...valid, files: { 'x.ts': { kind: 'scaffold', sha256: sha256('x'), rendered: '../x' } } }],
    ['a drifted rendering on a generated file', { ...valid, files: { 'x.ts': { kind: 'generated', sha256: sha256('x'), rendered: sha256('y') } } }],
    ['an absolute input', { ...valid, inputs: [{ path: '/etc/passwd', sha256: sha256('a') }] }],
    ['an input with a NUL', { ...valid, inputs: [{ path: 'a.yaml\u0000', sha256: sha256('a') }] }],
    ['a handler outside --out', { ...valid, operations: { listX: { method: 'get', path: '/x', handler: '../../evil.ts' } } }],
    ['templates by an absolute path', { ...valid, templates: '/home/me/tpl' }],
    ['templates by a Windows path', { ...valid, templates: '..\\tpl' }],
    ['templates not a string', { ...valid, templates: 3 }],
  ])('%s → MANIFEST_INVALID', (_name, value) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    expect(() => parseManifest(text, 'm.json')).toThrow(SpecforgeError);
    try {
      parseManifest(text, 'm.json');
    } catch (error) {
      expect((error as SpecforgeError).diagnostics[0]).toMatchObject({ code: 'MANIFEST_INVALID', file: 'm.json' });
    }
  });

  test('a valid manifest is returned as it is', () => {
    expect(parseManifest(JSON.stringify(valid), 'm.json')).toEqual(valid);
  });

  test('the templates folder may lie above --out (relative to it, /-separated)', () => {
    expect(parseManifest(JSON.stringify({ ...valid, templates: '../config/templates' }), 'm.json').templates).toBe('../config/templates');
  });

  test('the diagnostic names the entry, escaped', () => {
    const text = JSON.stringify({ ...valid, files: { '../victim\u001b[2J.txt': valid.files['x.ts'] } });
    expect(() => parseManifest(text, 'm.json')).toThrow('files["../victim\\u001b[2J.txt"] is not a path inside --out: it contains a control character');
  });

  test('an input above the spec’s folder is a valid entry (it is simply not read)', () => {
    const upward = { ...valid, inputs: [{ path: '../shared/common.yaml', sha256: sha256('a') }] };
    expect(parseManifest(JSON.stringify(upward), 'm.json')).toEqual(upward);
  });
});
