/**
 * Hostile names: path keys, operationIds and titles that try to break out of
 * the code they are printed in, collide with each other or with the output's
 * own files, or have no word a file name can be made of. Each fixture in
 * test/fixtures/hostile/name-*.yaml generates (exit 0), writes nothing
 * outside --out, gives every file a portable name of its own, type-checks,
 * and keeps every piece of spec text inside a string literal or a comment.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { readTree } from '../helpers.js';
import { HOSTILE, listTree, runInSandbox, sandbox, STACK_LINE, type Sandbox } from '../hostile.js';
import { compile, linkDependencies } from '../service.js';

/** What the injection fixture's text says wherever it tries to become code. */
const MARKER = 'PWNED';

/**
 * The names the code of a TypeScript file uses: every identifier the parser
 * finds. Spec text that broke out of a string literal or a comment would be
 * code, and its words identifiers; inside one, it is no node at all.
 */
function identifiersIn(path: string, source: string): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Lower-case ASCII, digits, `-` and `.` only, no leading dot, no empty segment. */
const PORTABLE_PATH = /^(?:[a-z0-9][a-z0-9._-]*\/)*[a-z0-9][a-z0-9._-]*$/;
/** The files the generator names itself (the rest take spec names). */
const OWN_FIXED_FILES = new Set(['.gitignore', '.gitattributes', '.specforge/manifest.json', 'README.md', 'Dockerfile', '.dockerignore', '.env.example']);
const ORIGINS = '.specforge/scaffolds/';

interface Generated {
  box: Sandbox;
  files: Map<string, string>;
}

const generated = new Map<string, Generated>();

async function generateFixture(name: string): Promise<Generated> {
  const box = sandbox({ [`${name}.yaml`]: readFileSync(join(HOSTILE, `${name}.yaml`), 'utf8') });
  const run = await runInSandbox(box, ['generate', `spec/${name}.yaml`, '--out', 'out', '--quiet']);
  expect({ code: run.result.code, stack: STACK_LINE.test(run.result.stderr), outside: run.outside }).toEqual({ code: 0, stack: false, outside: [] });
  const result = { box, files: readTree(box.out) };
  generated.set(name, result);
  return result;
}

afterAll(() => {
  for (const { box } of generated.values()) box.cleanup();
});

const FIXTURES = ['name-injection', 'name-case-collision', 'name-nested-collision', 'name-reserved', 'name-operation-collision', 'name-odd-segments'];

describe.each(FIXTURES)('%s', (name) => {
  test('generates, writing only inside --out, every file under a portable name of its own', async () => {
    const { files, box } = await generateFixture(name);
    const paths = [...files.keys()];
    // A scaffold's origin (.specforge/scaffolds/<path>) is named as the scaffold is.
    const named = paths.map((path) => (path.startsWith(ORIGINS) ? path.slice(ORIGINS.length) : path));
    expect(named.filter((path) => !OWN_FIXED_FILES.has(path) && !PORTABLE_PATH.test(path))).toEqual([]);
    const lowerCase = new Set(paths.map((path) => path.toLowerCase()));
    expect(lowerCase.size).toBe(paths.length);
    // Every file the run produced is on disk: none was written over another.
    const manifest = JSON.parse(files.get('.specforge/manifest.json')!) as { files: Record<string, unknown> };
    expect(Object.keys(manifest.files).sort()).toEqual(paths.filter((path) => path !== '.specforge/manifest.json' && !path.startsWith(ORIGINS)).sort());
    expect([...listTree(box.out).keys()].some((path) => path.startsWith('..'))).toBe(false);
  });

  test('no spec text outside a string literal or comment', () => {
    const { files } = generated.get(name)!;
    const code = [...files].filter(([path]) => /\.(ts|js|cjs)$/.test(path));
    expect(code.length).toBeGreaterThan(10);
    const leaks = code.filter(([path, source]) => identifiersIn(path, source).some((name) => name.includes(MARKER))).map(([path]) => path);
    expect(leaks).toEqual([]);
  });

  test('the service and its conformance suite type-check', async () => {
    const { box } = generated.get(name)!;
    linkDependencies(box.out);
    expect(await compile(box.out, { emit: false })).toBe('');
    expect(await compile(join(box.out, 'test/conformance'), { emit: false })).toBe('');
  });
});

test('the marker check sees spec text that became code, and only that (it can fail)', () => {
  const leaks = (source: string) => identifiersIn('x.ts', source).filter((name) => name.includes(MARKER));
  expect(leaks(`const a = 'PWNED'; // PWNED\n/* PWNED */ const b = \`\${x}PWNED\`; type T = { "a'PWNED": 'c\`\${PWNED}\`' };`)).toEqual([]);
  expect(leaks(`import x from 'a.js';console.log('x');PWNED();`)).toEqual(['PWNED']);
  expect(leaks('const b = `${PWNED}`;')).toEqual(['PWNED']);
});

test('the injection fixture does carry its marker into the output (so its check means something)', () => {
  const { files } = generated.get('name-injection')!;
  expect([...files.values()].filter((source) => source.includes(MARKER)).length).toBeGreaterThan(3);
});

test('collisions get distinct, deterministic names', () => {
  const handlers = (name: string) => [...generated.get(name)!.files.keys()].filter((path) => path.startsWith('src/handlers/')).sort();
  expect(handlers('name-case-collision')).toEqual(['src/handlers/books-2.ts', 'src/handlers/books-3.ts', 'src/handlers/books.ts']);
  expect(handlers('name-nested-collision')).toEqual(['src/handlers/a-b-items-2.ts', 'src/handlers/a-b-items.ts']);
  const suite = [...generated.get('name-reserved')!.files.keys()].filter((path) => path.startsWith('test/conformance/'));
  expect(suite).toEqual(expect.arrayContaining(['test/conformance/conventions.test.ts', 'test/conformance/rate-limit.test.ts', 'test/conformance/resources/conventions.test.ts', 'test/conformance/resources/rate-limit.test.ts']));
  const client = generated.get('name-operation-collision')!.files.get('src/client/index.ts')!;
  expect(client).toMatch(/getUserNames: /);
  expect(client).toMatch(/getUserNames2: /);
  expect(client).toMatch(/getUserNames3: /);
});
