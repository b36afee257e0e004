/**
 * Golden files: the generated output of each scenario, committed and
 * reviewed as diffs. `npm run test:update` (UPDATE_GOLDEN=1) rewrites them.
 * An example's golden directory is exactly what `specforge generate` writes;
 * the other scenarios' hold only the API-specific files: the runtime modules
 * copied from src/runtime, and the origins of those that are scaffolds, are left out (they are the same for every API, and
 * checked once below against their sources). Either way the comparison also
 * fails on a missing or an extra file.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { loadResources } from '../../src/resources.js';
import { runtimeOutputPath } from '../../src/render/target.js';
import { EXAMPLES, FIXTURES, readTree, ROOT, runCli, scratchDir } from '../helpers.js';
import { anyInPublicSignatures } from '../public-any.js';

const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** Spec → the directory holding its golden output. The examples' committed output is their golden. */
const SCENARIOS: [name: string, spec: string, golden: string][] = [
  ['bookshop example', join(EXAMPLES, 'bookshop/openapi.yaml'), join(EXAMPLES, 'bookshop/generated')],
  ['petstore example', join(EXAMPLES, 'petstore/openapi.json'), join(EXAMPLES, 'petstore/generated')],
  ['minimal', join(FIXTURES, 'valid/minimal.yaml'), join(ROOT, 'test/golden/minimal')],
  ['already enveloped', join(FIXTURES, 'valid/enveloped.yaml'), join(ROOT, 'test/golden/enveloped')],
  ['OpenAPI 3.1 JSON', join(FIXTURES, 'valid/openapi-3.1.json'), join(ROOT, 'test/golden/openapi-3.1')],
  ['multi-file', join(FIXTURES, 'valid/multi-file/openapi.yaml'), join(ROOT, 'test/golden/multi-file')],
  ['singletons and actions', join(FIXTURES, 'valid/shapes.yaml'), join(ROOT, 'test/golden/shapes')],
  ['files and streams', join(FIXTURES, 'valid/files.yaml'), join(ROOT, 'test/golden/files')],
];

const { runtime } = loadResources();
/** Where a scaffold's origin is kept: the same bytes as the scaffold when specforge wrote it. */
const originOf = (path: string) => `.specforge/scaffolds/${path}`;
/** Output path → runtime module source. */
const RUNTIME_COPIES = new Map([...runtime].map(([module, { source }]) => [runtimeOutputPath(module), source]));
/** A runtime scaffold's origin is a copy of its source too. */
const RUNTIME_ORIGINS = new Map([...RUNTIME_COPIES].map(([path, source]) => [originOf(path), source]));
const isRuntimeCopy = (path: string) => RUNTIME_COPIES.has(path) || RUNTIME_ORIGINS.has(path);

/** The examples are complete projects to read; the other golden trees leave the runtime copies out. */
const holdsRuntime = (golden: string) => golden.startsWith(EXAMPLES);

function apiSpecific(tree: Map<string, string>): Map<string, string> {
  return new Map([...tree].filter(([path]) => !isRuntimeCopy(path)));
}

/** The manifest's kind of each file it lists: generated files carry the banner. */
function kindsOf(project: string): Map<string, string> {
  const manifest = JSON.parse(readFileSync(join(project, '.specforge/manifest.json'), 'utf8')) as { files: Record<string, { kind: string }> };
  return new Map(Object.entries(manifest.files).map(([path, { kind }]) => [path, kind]));
}

/** The banner of this project's generated files, as its `app.ts` starts. */
function bannerOf(project: string): string {
  return /^(\/\/.*\n)+\n/.exec(readFileSync(join(project, 'src/generated/app.ts'), 'utf8'))![0];
}

/** A runtime module as a project holds it: its source, after the banner when it is a generated file. */
function runtimeCopy(project: string, path: string): string {
  return (kindsOf(project).get(path) === 'generated' ? bannerOf(project) : '') + (RUNTIME_COPIES.get(path) ?? RUNTIME_ORIGINS.get(path)!);
}

/**
 * The whole project a golden tree stands for: a copy with the runtime
 * modules it lists put back. Inside the repository, so imports of koa, ajv
 * and jest resolve from its node_modules.
 */
function completeProject(golden: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(ROOT, 'test/golden/.complete-'));
  cpSync(golden, dir, { recursive: true });
  const kinds = kindsOf(golden);
  const copies = [...kinds].flatMap(([path, kind]) => (kind === 'scaffold' ? [path, originOf(path)] : [path]));
  for (const path of copies) {
    if (!isRuntimeCopy(path) || existsSync(join(dir, path))) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), runtimeCopy(golden, path));
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

describe.each(SCENARIOS)('golden output: %s', (_name, spec, golden) => {
  beforeAll(async () => {
    if (!UPDATE) return;
    // Regenerate from scratch so files no longer produced disappear from the golden tree.
    rmSync(golden, { recursive: true, force: true });
    const result = await runCli(['generate', relative(ROOT, spec), '--out', relative(ROOT, golden), '--quiet']);
    expect(result).toMatchObject({ code: 0 });
    if (!holdsRuntime(golden)) for (const path of [...RUNTIME_COPIES.keys(), ...RUNTIME_ORIGINS.keys()]) rmSync(join(golden, path), { force: true });
  });

  test('every generated file matches its golden copy, with no file missing or extra', async () => {
    expect(existsSync(golden)).toBe(true);
    const { dir, cleanup } = scratchDir();
    try {
      const result = await runCli(['generate', spec, '--out', dir, '--quiet']);
      expect(result).toMatchObject({ code: 0 });
      const fresh = holdsRuntime(golden) ? readTree(dir) : apiSpecific(readTree(dir));
      const committed = readTree(golden);
      expect([...committed.keys()]).toEqual([...fresh.keys()]);
      for (const [path, contents] of fresh) expect({ path, contents: committed.get(path) }).toEqual({ path, contents });
    } finally {
      cleanup();
    }
  });

  test('the merged spec is valid OpenAPI, and merging it again changes nothing', async () => {
    const merged = join(golden, 'openapi.merged.yaml');
    const result = await runCli(['merge', merged, '--out', '-', '--quiet']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(readFileSync(merged, 'utf8').replace(/^(#.*\n)+\n/, ''));
  });

  test('`specforge check --full` finds the committed output (with the runtime modules it lists) up to date', async () => {
    const { dir, cleanup } = completeProject(golden);
    try {
      // --full: regenerated and compared, not taken from the manifest's fingerprints.
      const result = await runCli(['check', relative(ROOT, spec), '--out', relative(ROOT, dir), '--quiet', '--full']);
      expect(result.stdout).toContain('is up to date');
      expect(result.code).toBe(0);
    } finally {
      cleanup();
    }
  });
});

describe('the runtime modules', () => {
  // The bookshop example is a complete project, compared above with fresh output.
  const project = join(EXAMPLES, 'bookshop/generated');
  const copied = [...RUNTIME_COPIES.keys()].filter((path) => kindsOf(project).has(path));

  test.each(copied)('%s in a generated project is its source, byte for byte, after the banner', (path) => {
    expect(readFileSync(join(project, path), 'utf8')).toBe(runtimeCopy(project, path));
  });

  // What the bookshop does not need, another scenario does: every module reaches some project.
  test('every runtime module is copied into a generated project', () => {
    const listed = new Set(SCENARIOS.flatMap(([, , golden]) => [...kindsOf(golden).keys()]));
    expect([...RUNTIME_COPIES.keys()].filter((path) => !listed.has(path))).toEqual([]);
  });
});

/** A strict program over a complete project's TypeScript files. */
function projectProgram(project: string): { program: ts.Program; files: string[] } {
  // The project's sources: not the scaffolds' origins, records kept in .specforge/ to diff against.
  const files = [...readTree(project).keys()].filter((path) => path.endsWith('.ts') && !path.startsWith('.specforge/')).map((path) => join(project, path));
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
    // As the generated tsconfig: the packages' own declarations are theirs to check (PGlite's need Emscripten's types).
    skipLibCheck: true,
  });
  return { program, files };
}

/**
 * `any` in what the project's files export, as `file: where`. The conformance
 * suite's own modules are left out: its `Answer.body` is `any` on purpose for
 * now (the checks read envelopes of any shape); the service, its types and the
 * client are what users import.
 */
function anyInProject(project: string): string[] {
  const { program, files } = projectProgram(project);
  const imported = files.filter((file) => !relative(project, file).startsWith('test/conformance/'));
  return anyInPublicSignatures(program, new Set(imported), (file) => relative(project, file))
    .map(({ file, where }) => `${file}: ${where}`)
    .sort();
}

describe('golden TypeScript type-checks under strict', () => {
  test.each(SCENARIOS)('%s', async (_name, _spec, golden) => {
    const { dir: project, cleanup } = completeProject(golden);
    try {
      const { program, files } = projectProgram(project);
      expect(files.length).toBeGreaterThan(1);
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      expect(problems).toEqual([]);
    } finally {
      cleanup();
    }
  });
});

describe('no generated file has `any` in a public signature', () => {
  test.each(SCENARIOS)('%s', (_name, _spec, golden) => {
    const { dir: project, cleanup } = completeProject(golden);
    try {
      expect(anyInProject(project)).toEqual([]);
    } finally {
      cleanup();
    }
  });

  test('an `any` planted in a generated file is found, written or inferred, at any depth', () => {
    const { dir: project, cleanup } = completeProject(join(EXAMPLES, 'bookshop/generated'));
    try {
      const planted = [
        'export function planted(input: any): void { void input; }',
        'export const inferred = JSON.parse("{}");',
        'export interface Deep { list: { items: Array<Record<string, any>> } }',
        'export class Kept { private hidden: any; shown(): Promise<any> { return Promise.resolve(this.hidden); } }',
      ];
      writeFileSync(join(project, 'src/client/index.ts'), `${readFileSync(join(project, 'src/client/index.ts'), 'utf8')}\n${planted.join('\n')}\n`);
      expect(anyInProject(project)).toEqual([
        'src/client/index.ts: Deep.list.items<><>',
        'src/client/index.ts: Kept.shown →<>',
        'src/client/index.ts: inferred',
        'src/client/index.ts: planted(input)',
      ]);
    } finally {
      cleanup();
    }
  });
});

describe('.gitattributes marks exactly the generated files', () => {
  test.each(SCENARIOS)('%s', (_name, _spec, golden) => {
    const manifest = JSON.parse(readFileSync(join(golden, '.specforge/manifest.json'), 'utf8')) as { files: Record<string, { kind: string }> };
    const patterns = readFileSync(join(golden, '.gitattributes'), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => line.split(/\s+/)[0]!);
    // The patterns used are a path or `<dir>/**`.
    const covered = (path: string) => patterns.some((pattern) => (pattern.endsWith('/**') ? path.startsWith(pattern.slice(0, -2)) : path === pattern));
    for (const [path, { kind }] of Object.entries(manifest.files)) expect([path, covered(path)]).toEqual([path, kind === 'generated']);
  });
});
