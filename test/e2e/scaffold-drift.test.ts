/**
 * Scaffold drift through the real CLI: a spec change that changes what a
 * scaffold would contain (the item path's id renamed, so the handler file's
 * heading) is listed after each run until accepted, `diff-scaffold` prints
 * a patch the user can apply to their own edited file, and no manifest or
 * link planted in the output makes it read or write outside --out.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyInto, EXAMPLES, runCli, scratchDir } from '../helpers.js';

let work: ReturnType<typeof scratchDir>;
beforeEach(() => {
  work = scratchDir();
});
afterEach(() => work.cleanup());

const HANDLERS = 'src/handlers/pets.ts';

/** A private copy of the petstore example, generated once. */
async function petstore(): Promise<{ spec: string; out: string; handlers: string }> {
  const root = copyInto(join(EXAMPLES, 'petstore'), join(work.dir, 'petstore'));
  const spec = join(root, 'openapi.json');
  const out = join(work.dir, 'service');
  expect((await runCli(['generate', spec, '--out', out, '--quiet'])).code).toBe(0);
  return { spec, out, handlers: join(out, HANDLERS) };
}

function edit(file: string, change: (text: string) => string): void {
  writeFileSync(file, change(readFileSync(file, 'utf8')));
}

/** The item path's id parameter renamed: the handler file's heading (and the generated store's idParam) would change. */
const renameId = (text: string) => text.replaceAll('pet_id', 'id');

/** The scaffolds a run's output lists as drifted, with the command it gives for each. */
function driftListed(stdout: string): Map<string, string> {
  return new Map([...stdout.matchAll(/^ {2}~ (\S+) {2}`specforge (.+)`$/gm)].map((match) => [match[1]!, match[2]!]));
}

describe('scaffold drift', () => {
  test('is listed after each run until accepted, and diff-scaffold prints a patch that applies to the edited file', async () => {
    const { spec, out, handlers } = await petstore();
    // The user's own change to the handlers, which the patch must leave in place.
    edit(handlers, (text) => text.replace('import type { PetsHandlers }', '// tuned by hand\nimport type { PetsHandlers }'));
    expect(readFileSync(handlers, 'utf8')).toContain('// tuned by hand');
    edit(spec, renameId);

    const regenerated = await runCli(['generate', spec, '--out', out]);
    expect(regenerated.code).toBe(0);
    const listed = driftListed(regenerated.stdout);
    expect([...listed.keys()]).toContain(HANDLERS);
    expect(listed.get(HANDLERS)).toBe(`diff-scaffold ${HANDLERS} ${spec} --out ${out}`);
    expect(readFileSync(handlers, 'utf8')).toContain('(/pets/{pet_id})'); // the user's file is never touched

    // Reported again by a run that has nothing to write, and by check, which still passes.
    const again = await runCli(['generate', spec, '--out', out]);
    expect(again.stdout).toMatch(/^Up to date/);
    expect([...driftListed(again.stdout).keys()]).toContain(HANDLERS);
    const checked = await runCli(['check', spec, '--out', out]);
    expect(checked.code).toBe(0);
    expect([...driftListed(checked.stdout).keys()]).toContain(HANDLERS);

    // The command as listed prints the change from the recorded origin to the fresh rendering.
    const diff = await runCli(listed.get(HANDLERS)!.split(' '));
    expect(diff.code).toBe(0);
    expect(diff.stdout).toMatch(new RegExp(`^--- a/${HANDLERS}\n\\+\\+\\+ b/${HANDLERS}\n@@ `));
    expect(diff.stdout).toContain('\n- * Operations on pets (/pets/{pet_id}).');
    expect(diff.stdout).toContain('\n+ * Operations on pets (/pets/{id}).');
    expect(diff.stderr).toContain('--accept');
    // `patch` applies it to the user's file, their own change kept.
    execFileSync('patch', ['-p1', '-d', out], { input: diff.stdout });
    expect(readFileSync(handlers, 'utf8')).toContain('(/pets/{id})');
    expect(readFileSync(handlers, 'utf8')).toContain('// tuned by hand');

    // Accepted: the fresh rendering is the origin, and the drift is no longer listed.
    const accepted = await runCli([...listed.get(HANDLERS)!.split(' '), '--accept']);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toBe('');
    const after = await runCli(['generate', spec, '--out', out]);
    expect(after.stdout).toMatch(/^Up to date/);
    expect([...driftListed(after.stdout).keys()]).not.toContain(HANDLERS);
    expect((await runCli(listed.get(HANDLERS)!.split(' '))).stdout).toBe('');
    expect((await runCli(['check', spec, '--out', out])).code).toBe(0);
  });

  test('a scaffold the user deleted is not drift; --force recreates it and records its new origin', async () => {
    const { spec, out, handlers } = await petstore();
    rmSync(handlers);
    edit(spec, renameId);
    const result = await runCli(['generate', spec, '--out', out]);
    expect(result.stdout).toMatch(/skipped\s+src\/handlers\/pets\.ts/);
    expect([...driftListed(result.stdout).keys()]).not.toContain(HANDLERS);

    const forced = await runCli(['generate', spec, '--out', out, '--force']);
    expect(forced.stdout).toMatch(/created\s+src\/handlers\/pets\.ts/);
    expect([...driftListed(forced.stdout).keys()]).not.toContain(HANDLERS);
    expect(readFileSync(join(out, '.specforge/scaffolds', HANDLERS), 'utf8')).toBe(readFileSync(handlers, 'utf8'));
  });

  test('a project generated before origins were kept gets them recorded, with no false report', async () => {
    const { spec, out } = await petstore();
    rmSync(join(out, '.specforge/scaffolds'), { recursive: true });
    edit(join(out, 'src/handlers/pets.ts'), (text) => text + '// mine\n');
    const result = await runCli(['generate', spec, '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/^Up to date/); // the missing origins make it a real run
    expect(driftListed(result.stdout).size).toBe(0);
    expect(readFileSync(join(out, '.specforge/scaffolds/src/handlers/pets.ts'), 'utf8')).not.toContain('// mine');
    expect(existsSync(join(out, '.specforge/scaffolds', HANDLERS))).toBe(true);
    expect((await runCli(['check', spec, '--out', out])).code).toBe(0);
  });

  test('...and one still as created is its own origin: a spec change to it is reported', async () => {
    const { spec, out } = await petstore();
    rmSync(join(out, '.specforge/scaffolds'), { recursive: true });
    edit(spec, renameId);
    const result = await runCli(['generate', spec, '--out', out]);
    expect([...driftListed(result.stdout).keys()]).toContain(HANDLERS);
    expect((await runCli(['diff-scaffold', HANDLERS, spec, '--out', out])).stdout).toContain('+ * Operations on pets (/pets/{id}).');
  });
});

describe('scaffold drift: hostile output folders', () => {
  test('a manifest naming a scaffold outside --out is MANIFEST_INVALID for generate and diff-scaffold; nothing outside is written', async () => {
    const { spec, out } = await petstore();
    const manifestFile = join(out, '.specforge/manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { files: Record<string, unknown> };
    manifest.files['../escape.ts'] = manifest.files[HANDLERS];
    writeFileSync(manifestFile, JSON.stringify(manifest));
    edit(spec, renameId);
    for (const args of [['generate', spec, '--out', out], ['diff-scaffold', HANDLERS, spec, '--out', out, '--accept']]) {
      const result = await runCli(args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('MANIFEST_INVALID');
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect(existsSync(join(work.dir, 'escape.ts'))).toBe(false);
    expect(existsSync(join(out, '.specforge/escape.ts'))).toBe(false);
  });

  test('a link planted at .specforge/scaffolds is never written or read through', async () => {
    const { spec, out } = await petstore();
    const elsewhere = join(work.dir, 'elsewhere');
    mkdirSync(join(elsewhere, 'src/handlers'), { recursive: true });
    writeFileSync(join(elsewhere, HANDLERS), 'secret\n');
    rmSync(join(out, '.specforge/scaffolds'), { recursive: true });
    symlinkSync(elsewhere, join(out, '.specforge/scaffolds'));
    edit(spec, renameId);
    for (const args of [['generate', spec, '--out', out], ['diff-scaffold', HANDLERS, spec, '--out', out, '--accept']]) {
      const result = await runCli(args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('OUTPUT_SYMLINK');
      expect(result.stdout).not.toContain('secret');
    }
    expect(readFileSync(join(elsewhere, HANDLERS), 'utf8')).toBe('secret\n');
    expect(existsSync(join(elsewhere, 'src/store'))).toBe(false);
  });

  test('diff-scaffold refuses a file outside --out, or one that is not a scaffold', async () => {
    const { spec, out } = await petstore();
    writeFileSync(join(work.dir, 'outside.ts'), 'x\n');
    const outside = await runCli(['diff-scaffold', '../outside.ts', spec, '--out', out, '--accept']);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/SCAFFOLD_UNKNOWN .*\n\s+"\.\.\/outside\.ts" is not a path inside --out/);
    const generated = await runCli(['diff-scaffold', join(out, 'src/generated/app.ts'), spec, '--out', out]);
    expect(generated.code).toBe(1);
    expect(generated.stderr).toContain('"src/generated/app.ts" is not a scaffold the spec produces');
  });
});
