/**
 * Golden files: the generated output of each scenario, committed and
 * reviewed as diffs. `npm run test:update` (UPDATE_GOLDEN=1) rewrites them.
 * A golden directory is exactly what `specforge generate` writes, so the
 * comparison also fails on a missing or an extra file.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { EXAMPLES, FIXTURES, readTree, ROOT, runCli, scratchDir } from '../helpers.js';

const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** Spec → the directory holding its golden output. The examples' committed output is their golden. */
const SCENARIOS: [name: string, spec: string, golden: string][] = [
  ['bookshop example', join(EXAMPLES, 'bookshop/openapi.yaml'), join(EXAMPLES, 'bookshop/generated')],
  ['petstore example', join(EXAMPLES, 'petstore/openapi.json'), join(EXAMPLES, 'petstore/generated')],
  ['minimal', join(FIXTURES, 'valid/minimal.yaml'), join(ROOT, 'test/golden/minimal')],
  ['already enveloped', join(FIXTURES, 'valid/enveloped.yaml'), join(ROOT, 'test/golden/enveloped')],
  ['OpenAPI 3.1 JSON', join(FIXTURES, 'valid/openapi-3.1.json'), join(ROOT, 'test/golden/openapi-3.1')],
  ['multi-file', join(FIXTURES, 'valid/multi-file/openapi.yaml'), join(ROOT, 'test/golden/multi-file')],
];

describe.each(SCENARIOS)('golden output: %s', (_name, spec, golden) => {
  beforeAll(async () => {
    if (!UPDATE) return;
    // Regenerate from scratch so files no longer produced disappear from the golden tree.
    rmSync(golden, { recursive: true, force: true });
    const result = await runCli(['generate', relative(ROOT, spec), '--out', relative(ROOT, golden), '--quiet']);
    expect(result).toMatchObject({ code: 0 });
  });

  test('every generated file matches its golden copy, with no file missing or extra', async () => {
    expect(existsSync(golden)).toBe(true);
    const { dir, cleanup } = scratchDir();
    try {
      const result = await runCli(['generate', spec, '--out', dir, '--quiet']);
      expect(result).toMatchObject({ code: 0 });
      const fresh = readTree(dir);
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

  test('`specforge check` finds the committed output up to date', async () => {
    const result = await runCli(['check', relative(ROOT, spec), '--out', relative(ROOT, golden), '--quiet']);
    expect(result.stdout).toContain('is up to date');
    expect(result.code).toBe(0);
  });
});

describe('golden TypeScript type-checks under strict', () => {
  test.each(SCENARIOS)('%s', async (_name, _spec, golden) => {
    const ts = (await import('typescript')).default;
    const files = [...readTree(golden).keys()].filter((path) => path.endsWith('.ts')).map((path) => join(golden, path));
    expect(files.length).toBeGreaterThan(1);
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);
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
