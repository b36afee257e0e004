/**
 * Hostile specs at the load stage, run through the compiled CLI in a sandbox
 * (test/hostile.ts) beside a neighbour's files: each case is refused with its
 * diagnostic (exit 1, no stack trace, nothing touched outside `out/`, the
 * neighbour's secret nowhere in `out/`), or, for the `$ref` fan-out,
 * generates. Each case is its own file under test/fixtures/hostile/.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTree, runCli } from '../helpers.js';
import { expectRefused, HOSTILE, runInSandbox, sandbox, STACK_LINE, type Sandbox } from '../hostile.js';

const SECRET = 'NEIGHBOUR-SECRET-7f3a';

/** A sandbox holding one hostile fixture as `spec/<name>`, `__SANDBOX__` replaced by the sandbox's path. */
function boxWith(fixture: string): Sandbox {
  const box = sandbox();
  const text = readFileSync(join(HOSTILE, fixture));
  writeFileSync(join(box.specDir, fixture), text.includes('__SANDBOX__') ? text.toString('utf8').replaceAll('__SANDBOX__', box.root) : text);
  return box;
}

/** Every file of `out/` that holds the neighbour's secret (none is the only right answer). */
function secretsIn(box: Sandbox): string[] {
  if (!existsSync(box.out)) return [];
  return [...readTree(box.out)].filter(([, text]) => text.includes(SECRET)).map(([path]) => path);
}

/** Runs `generate spec/<fixture> --out out` and expects it refused with `code`, nothing written. */
async function expectGenerateRefused(box: Sandbox, fixture: string, code: string, extra: string[] = []) {
  const run = await runInSandbox(box, ['generate', join('spec', fixture), '--out', 'out', ...extra]);
  expectRefused(run, code);
  expect(existsSync(box.out)).toBe(false);
  expect(secretsIn(box)).toEqual([]);
  return run;
}

/** A run of `cases`, each with its sandbox cleaned up after. */
function inSandbox(name: string, fixture: string, body: (box: Sandbox) => Promise<void>) {
  test(name, async () => {
    const box = boxWith(fixture);
    try {
      await body(box);
    } finally {
      box.cleanup();
    }
  });
}

describe('schemas ajv cannot compile', () => {
  inSandbox('schema-uncompilable.yaml: SPEC_INVALID at the operation, naming the parameter, no stack trace', 'schema-uncompilable.yaml', async (box) => {
    const run = await expectGenerateRefused(box, 'schema-uncompilable.yaml', 'SPEC_INVALID');
    expect(run.result.stderr).toMatch(/spec\/schema-uncompilable\.yaml:\d+:\d+ {2}#\/paths\/~1notes\/get/);
    expect(run.result.stderr).toContain('query parameter kind: type must be equal to one of the allowed values');
  });
});

describe('$ref outside the ref root', () => {
  inSandbox('ref-parent.yaml: `../neighbour/secret.txt` is SPEC_REF_OUTSIDE_ROOT at the $ref', 'ref-parent.yaml', async (box) => {
    const run = await expectGenerateRefused(box, 'ref-parent.yaml', 'SPEC_REF_OUTSIDE_ROOT');
    expect(run.result.stderr).toMatch(/spec\/ref-parent\.yaml:\d+:\d+ {2}#\/paths\/~1notes\/get\/.*\/items\/\$ref/);
  });

  inSandbox('ref-absolute.yaml: an absolute path is SPEC_REF_ABSOLUTE', 'ref-absolute.yaml', async (box) => {
    await expectGenerateRefused(box, 'ref-absolute.yaml', 'SPEC_REF_ABSOLUTE');
  });

  inSandbox('ref-file-url.yaml: a file: URL is SPEC_REF_ABSOLUTE', 'ref-file-url.yaml', async (box) => {
    await expectGenerateRefused(box, 'ref-file-url.yaml', 'SPEC_REF_ABSOLUTE');
  });

  inSandbox('ref-symlink.yaml: a symlink beside the spec into the neighbour is SPEC_REF_OUTSIDE_ROOT (where it leads counts)', 'ref-symlink.yaml', async (box) => {
    symlinkSync(join(box.root, 'neighbour'), join(box.specDir, 'link'));
    await expectGenerateRefused(box, 'ref-symlink.yaml', 'SPEC_REF_OUTSIDE_ROOT');
  });

  inSandbox('ref-sibling.yaml: a sibling folder is refused by default and allowed with --ref-root', 'ref-sibling.yaml', async (box) => {
    mkdirSync(join(box.root, 'shared'));
    copyFileSync(join(HOSTILE, 'shared-note.yaml'), join(box.root, 'shared', 'note.yaml'));
    await expectGenerateRefused(box, 'ref-sibling.yaml', 'SPEC_REF_OUTSIDE_ROOT');
    for (const command of ['lint', 'merge']) {
      const args = command === 'merge' ? [command, 'spec/ref-sibling.yaml', '--out', 'out/merged.yaml'] : [command, 'spec/ref-sibling.yaml'];
      expectRefused(await runInSandbox(box, args), 'SPEC_REF_OUTSIDE_ROOT');
    }

    const widened = await runInSandbox(box, ['generate', 'spec/ref-sibling.yaml', '--out', 'out', '--ref-root', '.']);
    expect({ code: widened.result.code, stderr: widened.result.stderr }).toEqual({ code: 0, stderr: expect.not.stringMatching(STACK_LINE) });
    expect(widened.outside).toEqual([]);
    expect(readFileSync(join(box.out, 'openapi.merged.yaml'), 'utf8')).toContain('maxLength: 64'); // shared/note.yaml's schema
    const manifest = JSON.parse(readFileSync(join(box.out, '.specforge/manifest.json'), 'utf8')) as { inputs: { path: string }[] };
    expect(manifest.inputs.map((input) => input.path)).toEqual(['../shared/note.yaml', 'ref-sibling.yaml']);
    expect(secretsIn(box)).toEqual([]);

    // Widened once is not widened for good: the recorded input is outside the default root again.
    const check = await runInSandbox(box, ['check', 'spec/ref-sibling.yaml', '--out', 'out']);
    expectRefused(check, 'SPEC_REF_OUTSIDE_ROOT');
    const again = await runInSandbox(box, ['check', 'spec/ref-sibling.yaml', '--out', 'out', '--ref-root', '.']);
    expect(again.result.code).toBe(0);
  });
});

describe('bombs and odd bytes', () => {
  inSandbox('alias-bomb.yaml: SPEC_ALIAS_EXPANSION, at once', 'alias-bomb.yaml', async (box) => {
    await expectGenerateRefused(box, 'alias-bomb.yaml', 'SPEC_ALIAS_EXPANSION');
  });

  inSandbox('deep.yaml: 300 levels is SPEC_TOO_DEEP at the level past the limit', 'deep.yaml', async (box) => {
    const run = await expectGenerateRefused(box, 'deep.yaml', 'SPEC_TOO_DEEP');
    expect(run.result.stderr).toMatch(/spec\/deep\.yaml:7:\d+ {2}#\/x-deep\/0\/0/);
  });

  inSandbox('deep.json: 300 levels is SPEC_TOO_DEEP', 'deep.json', async (box) => {
    await expectGenerateRefused(box, 'deep.json', 'SPEC_TOO_DEEP');
  });

  test.each([
    ['deep-100k.yaml', (n: number) => `openapi: 3.0.3\ninfo: {title: Hostile, version: "1"}\npaths: {}\nx-deep: ${'['.repeat(n)}${']'.repeat(n)}\n`],
    ['deep-100k-block.yaml', (n: number) => `openapi: 3.0.3\ninfo: {title: Hostile, version: "1"}\npaths: {}\nx-deep:\n  ${'- '.repeat(n)}x\n`],
    ['deep-100k.json', (n: number) => `{"openapi": "3.0.3", "info": {"title": "Hostile", "version": "1"}, "paths": {}, "x-deep": ${'['.repeat(n)}${']'.repeat(n)}}`],
  ])('%s (100,000 levels, written at test time): SPEC_TOO_DEEP', async (name, text) => {
    const box = sandbox({ [name]: text(100_000) });
    try {
      await expectGenerateRefused(box, name, 'SPEC_TOO_DEEP');
    } finally {
      box.cleanup();
    }
  });

  inSandbox('nul-byte.yaml: a NUL byte in the text is SPEC_NUL_CHARACTER at its line', 'nul-byte.yaml', async (box) => {
    const run = await expectGenerateRefused(box, 'nul-byte.yaml', 'SPEC_NUL_CHARACTER');
    expect(run.result.stderr).toContain('spec/nul-byte.yaml:3:');
  });

  inSandbox('nul-key.json: a \\u0000 in a key is SPEC_NUL_CHARACTER at the object holding it', 'nul-key.json', async (box) => {
    const run = await expectGenerateRefused(box, 'nul-key.json', 'SPEC_NUL_CHARACTER');
    expect(run.result.stderr).toMatch(/spec\/nul-key\.json:1:\d+ {2}#\/paths$/m);
  });

  inSandbox('not-utf8.yaml: a Latin-1 byte is SPEC_NOT_UTF8 at its line', 'not-utf8.yaml', async (box) => {
    const run = await expectGenerateRefused(box, 'not-utf8.yaml', 'SPEC_NOT_UTF8');
    expect(run.result.stderr).toContain('spec/not-utf8.yaml:3:');
  });

  test('a spec over the size limit (a sparse file of 300 MB) is SPEC_TOO_LARGE, unread', async () => {
    const box = sandbox({ 'huge.yaml': 'openapi: 3.0.3\n' });
    try {
      truncateSync(join(box.specDir, 'huge.yaml'), 300 * 1024 * 1024);
      const run = await expectGenerateRefused(box, 'huge.yaml', 'SPEC_TOO_LARGE');
      expect(run.result.stderr).toContain('at most 256 MB');
    } finally {
      box.cleanup();
    }
  });
});

describe('an exponential $ref fan-out', () => {
  test.each([
    ['ref-fanout.yaml', 30], // two properties per level
    ['ref-fanout-wide.yaml', 12], // eight properties per level
  ])('%s (each of %i levels references the next from every property) generates, each schema once', async (fixture, levels) => {
    const box = boxWith(fixture);
    try {
      const run = await runInSandbox(box, ['generate', join('spec', fixture), '--out', 'out']);
      expect({ code: run.result.code, stack: STACK_LINE.test(run.result.stderr) }).toEqual({ code: 0, stack: false });
      expect(run.outside).toEqual([]);
      const types = readFileSync(join(box.out, 'src/generated/types.ts'), 'utf8');
      // Referenced by name, never inlined: each schema declared once.
      for (const level of [0, levels / 2, levels]) expect(types.match(new RegExp(`^\\s+Level${level}: \\{`, 'gm'))).toHaveLength(1);
      const total = [...readTree(box.out).values()].reduce((sum, text) => sum + text.length, 0);
      expect(total).toBeLessThan(2_000_000);
    } finally {
      box.cleanup();
    }
  });
});

describe('Node.js older than engines', () => {
  test('one line naming the version needed and the one running, exit 1, before any dependency loads', async () => {
    const box = sandbox({ 'node18.mjs': "Object.defineProperty(process.versions, 'node', { value: '18.19.0' });\n" });
    try {
      const result = await runCli(['generate', 'missing.yaml', '--out', 'out'], {
        cwd: box.root,
        env: { NODE_OPTIONS: `--import ${join(box.specDir, 'node18.mjs')}` },
      });
      expect(result).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^specforge needs Node\.js >=20\.11; this is 18\.19\.0\.[^\n]*\n$/) });
      expect(existsSync(box.out)).toBe(false);
    } finally {
      box.cleanup();
    }
  });
});
