/**
 * The committed-code workflow end to end, through the real CLI on real
 * files: determinism, idempotence, regeneration that never loses a person's
 * work, `check` for CI, --dry-run and --watch.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CLI, copyInto, EXAMPLES, readTree, runCli, scratchDir } from '../helpers.js';

let work: ReturnType<typeof scratchDir>;
beforeEach(() => {
  work = scratchDir();
});
afterEach(() => work.cleanup());

/** A private copy of the bookshop example, so a test may change its spec. */
function bookshop(): { spec: string; out: string } {
  const root = copyInto(join(EXAMPLES, 'bookshop'), join(work.dir, 'bookshop'));
  return { spec: join(root, 'openapi.yaml'), out: join(work.dir, 'service') };
}

function edit(file: string, change: (text: string) => string): void {
  writeFileSync(file, change(readFileSync(file, 'utf8')));
}

describe('determinism', () => {
  test('the same spec gives the same bytes, whatever the cwd and its prettier config', async () => {
    const { spec } = bookshop();
    const hostile = join(work.dir, 'hostile');
    copyInto(join(EXAMPLES, 'petstore'), hostile);
    writeFileSync(join(hostile, '.prettierrc'), JSON.stringify({ semi: false, singleQuote: false, tabWidth: 8 }));
    writeFileSync(join(hostile, '.editorconfig'), 'root = true\n[*]\nindent_style = tab\nend_of_line = crlf\n');

    const first = await runCli(['generate', spec, '--out', join(work.dir, 'a')]);
    const second = await runCli(['generate', spec, '--out', join(work.dir, 'b')], { cwd: hostile, env: { TZ: 'Asia/Tokyo', LANG: 'tr_TR.UTF-8' } });
    expect([first.code, second.code]).toEqual([0, 0]);
    const a = readTree(join(work.dir, 'a'));
    expect(a.size).toBeGreaterThan(5);
    expect(readTree(join(work.dir, 'b'))).toEqual(a);
  });
});

describe('idempotence', () => {
  test('merging the merged spec changes nothing', async () => {
    const { spec, out } = bookshop();
    expect((await runCli(['generate', spec, '--out', out, '--quiet'])).code).toBe(0);
    const merged = join(out, 'openapi.merged.yaml');
    const again = join(work.dir, 'again.yaml');
    expect((await runCli(['merge', merged, '--out', again])).code).toBe(0);
    const withoutBanner = (text: string) => text.replace(/^(#.*\n)+\n/, '');
    expect(readFileSync(again, 'utf8')).toBe(withoutBanner(readFileSync(merged, 'utf8')));
    expect(parse(readFileSync(again, 'utf8'))).toEqual(parse(readFileSync(merged, 'utf8')));
  });
});

describe('regeneration', () => {
  test('an unchanged spec is recognised without running the pipeline', async () => {
    const { spec, out } = bookshop();
    await runCli(['generate', spec, '--out', out]);
    const second = await runCli(['generate', spec, '--out', out]);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^Up to date/);
  });

  test('a generated file edited by hand is not overwritten without --force, and is backed up with it', async () => {
    const { spec, out } = bookshop();
    await runCli(['generate', spec, '--out', out]);
    const types = join(out, 'src/generated/types.ts');
    edit(types, (text) => text + '\n// my precious change\n');
    edit(spec, (text) => text.replace('title: Bookshop API', 'title: Bookshop API v2'));

    const refused = await runCli(['generate', spec, '--out', out]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('OUTPUT_HAND_EDITED');
    expect(refused.stderr).toContain('src/generated/types.ts');
    expect(readFileSync(types, 'utf8')).toContain('my precious change');
    // Nothing was written: the refusal comes before any file changes.
    expect(readFileSync(join(out, 'openapi.merged.yaml'), 'utf8')).not.toContain('Bookshop API v2');

    const forced = await runCli(['generate', spec, '--out', out, '--force']);
    expect(forced.code).toBe(0);
    const saved = /overwrote\s+src\/generated\/types\.ts \(your version saved as (\S+)\)/.exec(forced.stdout)?.[1];
    expect(saved).toMatch(/^\.specforge\/backup\/src\/generated\/types\.ts\.[0-9a-f]{12}$/);
    expect(readFileSync(types, 'utf8')).not.toContain('my precious change');
    expect(readFileSync(join(out, saved!), 'utf8')).toContain('my precious change');

    // A second forced overwrite of another edit keeps the first backup too.
    edit(types, (text) => text + '\n// another change\n');
    edit(spec, (text) => text.replace('title: Bookshop API v2', 'title: Bookshop API v3'));
    const again = await runCli(['generate', spec, '--out', out, '--force']);
    const savedAgain = /your version saved as (\S+)\)/.exec(again.stdout)?.[1];
    expect(savedAgain).not.toBe(saved);
    expect(readFileSync(join(out, saved!), 'utf8')).toContain('my precious change');
    expect(readFileSync(join(out, savedAgain!), 'utf8')).toContain('another change');
  });

  test('a file specforge did not write is never overwritten', async () => {
    const { spec, out } = bookshop();
    const mine = join(out, 'src/generated/resources/authors.ts');
    await runCli(['generate', spec, '--out', out]);
    // Forget the manifest: the files now look like someone else's.
    writeFileSync(join(out, '.specforge/manifest.json'), JSON.stringify({ manifestVersion: 1, generator: 'x', inputs: [], settings: '', files: {} }));
    edit(mine, () => 'export const mine = 1;\n');
    const refused = await runCli(['generate', spec, '--out', out]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('OUTPUT_NOT_OURS');
    expect(readFileSync(mine, 'utf8')).toBe('export const mine = 1;\n');
  });

  test('scaffold files are kept as the user edited them', async () => {
    const { spec, out } = bookshop();
    await runCli(['generate', spec, '--out', out]);
    const readme = join(out, 'README.md');
    edit(readme, () => '# My service\n');
    edit(spec, (text) => text.replace('title: Bookshop API', 'title: Bookshop'));
    const result = await runCli(['generate', spec, '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/kept\s+README\.md/);
    expect(readFileSync(readme, 'utf8')).toBe('# My service\n');
    expect(readFileSync(join(out, 'openapi.merged.yaml'), 'utf8')).toContain('title: Bookshop\n');

    // Deleted, it stays deleted; --force brings it back.
    rmSync(readme);
    edit(spec, (text) => text.replace('title: Bookshop\n', 'title: Bookshop again\n'));
    const afterDelete = await runCli(['generate', spec, '--out', out]);
    expect(afterDelete.stdout).toMatch(/skipped\s+README\.md/);
    expect(existsSync(readme)).toBe(false);
    expect((await runCli(['check', spec, '--out', out])).code).toBe(0);
    await runCli(['generate', spec, '--out', out, '--force']);
    expect(readFileSync(readme, 'utf8')).toContain('# Bookshop again');
  });

  test('a resource removed from the spec takes its generated files with it', async () => {
    const { spec, out } = bookshop();
    await runCli(['generate', spec, '--out', out]);
    const reviews = join(out, 'src/generated/resources/reviews.ts');
    expect(existsSync(reviews)).toBe(true);
    edit(spec, (text) => text.replace(/\n  \/reviews:[\s\S]*?(?=\n  \/genres:)/, ''));
    const result = await runCli(['generate', spec, '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/deleted\s+src\/generated\/resources\/reviews\.ts/);
    expect(existsSync(reviews)).toBe(false);
    expect(readFileSync(join(out, 'src/generated/types.ts'), 'utf8')).not.toContain('listReviews');
  });

  test('--dry-run that would refuse still prints its plan, then the refusals (exit 1, nothing written)', async () => {
    const { spec, out } = bookshop();
    await runCli(['generate', spec, '--out', out, '--quiet']);
    const genres = join(out, 'src/generated/resources/genres.ts');
    edit(genres, (text) => text + '// edited\n');
    edit(spec, (text) => text.replace('title: Bookshop API', 'title: Bookshop'));
    const result = await runCli(['generate', spec, '--out', out, '--dry-run']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/would be updated\s+openapi\.merged\.yaml/);
    expect(result.stdout).toMatch(/conflict\s+src\/generated\/resources\/genres\.ts \(refused: see below\)/);
    expect(result.stdout).toMatch(/Dry run: .*, 1 refused$/m);
    expect(result.stderr).toContain('✘ OUTPUT_HAND_EDITED');
    expect(readFileSync(genres, 'utf8')).toContain('// edited');
    expect(readFileSync(join(out, 'openapi.merged.yaml'), 'utf8')).toContain('title: Bookshop API');
  });

  test('--dry-run reports the plan and writes nothing', async () => {
    const { spec, out } = bookshop();
    const result = await runCli(['generate', spec, '--out', out, '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/would be created\s+src\/generated\/types\.ts/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('check', () => {
  test('passes on fresh output and names every drift: stale, hand-edited, missing, orphaned', async () => {
    const { spec, out } = bookshop();
    await runCli(['generate', spec, '--out', out]);
    expect((await runCli(['check', spec, '--out', out])).code).toBe(0);

    edit(join(out, 'src/generated/resources/genres.ts'), (text) => text + '// edited\n');
    rmSync(join(out, 'src/generated/resources/books.ts'));
    // Removing reviews from the spec makes types.ts stale and reviews.ts an orphan.
    edit(spec, (text) => text.replace(/\n  \/reviews:[\s\S]*?(?=\n  \/genres:)/, ''));

    const result = await runCli(['check', spec, '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/stale\s+src\/generated\/types\.ts/);
    expect(result.stdout).toMatch(/hand-edited\s+src\/generated\/resources\/genres\.ts/);
    expect(result.stdout).toMatch(/missing\s+src\/generated\/resources\/books\.ts/);
    expect(result.stdout).toMatch(/orphaned\s+src\/generated\/resources\/reviews\.ts/);
    expect(result.stdout).not.toContain('authors.ts');

    // The fix for each kind: a plain generate refuses a hand-edited file, so that one is told --force or --templates.
    const generate = `specforge generate ${spec} --out ${out}`;
    expect(result.stdout).toContain(`  missing, stale: run \`${generate}\` and commit the result.`);
    expect(result.stdout).toContain(`  orphaned: run \`${generate}\` (it deletes them) and commit the result.`);
    expect(result.stdout).toMatch(/ {2}hand-edited: to keep the change, move it into a template override \(--templates, see the README\) or a scaffold.*; to discard it, run `.* --force`/);
  });

  test("nothing changed: decided by the manifest's fingerprints; --full, or a manifest not as specforge wrote it, regenerates to compare", async () => {
    const { spec, out } = bookshop();
    await runCli(['generate', spec, '--out', out, '--quiet']);
    const fast = await runCli(['check', spec, '--out', out]);
    expect(fast.code).toBe(0);
    expect(fast.stdout).toContain("up to date with " + spec + " (by the manifest's fingerprints");
    const full = await runCli(['check', spec, '--out', out, '--full']);
    expect(full.code).toBe(0);
    expect(full.stdout).not.toContain('fingerprints');

    // An edit, and a manifest made to record it: only a full comparison can tell.
    const manifestFile = join(out, '.specforge/manifest.json');
    const file = 'src/generated/resources/genres.ts';
    edit(join(out, file), (text) => text + '// edited\n');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { files: Record<string, { sha256: string }> };
    manifest.files[file]!.sha256 = createHash('sha256').update(readFileSync(join(out, file))).digest('hex');
    writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + '\n');
    const tampered = await runCli(['check', spec, '--out', out, '--full']);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toMatch(/src\/generated\/resources\/genres\.ts/);

    // Reformatted by hand: no longer as specforge wrote it, so the fingerprints are not trusted.
    writeFileSync(manifestFile, JSON.stringify(manifest, null, 4) + '\n');
    const reformatted = await runCli(['check', spec, '--out', out]);
    expect(reformatted.code).toBe(1);
    expect(reformatted.stdout).not.toContain('fingerprints');
  });

  test('the generate it advises is the one that fixes it: hand-edited → --force', async () => {
    const { spec, out } = bookshop();
    await runCli(['generate', spec, '--out', out, '--quiet']);
    edit(join(out, 'src/generated/resources/genres.ts'), (text) => text + '// edited\n');
    const result = await runCli(['check', spec, '--out', out]);
    const advised = /`specforge (generate .* --force)`/.exec(result.stdout);
    expect(advised).not.toBeNull();
    expect((await runCli([...advised![1]!.split(' '), '--quiet'])).code).toBe(0);
    expect((await runCli(['check', spec, '--out', out])).code).toBe(0);
  });
});

describe('--watch', () => {
  test('regenerates when a file the spec references changes', async () => {
    const { spec, out } = bookshop();
    const child = spawn(process.execPath, [CLI, 'generate', spec, '--out', out, '--watch'], { env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const waitFor = async (predicate: () => boolean, what: string) => {
      const deadline = Date.now() + 60_000;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stderr:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    try {
      await waitFor(() => /Watching \d+ files/.test(stderr), 'the watcher');
      // A change in a referenced file, not the root spec.
      edit(join(spec, '../schemas/genre.yaml'), (text) => text.replace(/description: .*/, 'description: Watched change.'));
      await waitFor(() => readFileSync(join(out, 'openapi.merged.yaml'), 'utf8').includes('Watched change.'), 'the regeneration');
      expect(stderr).toContain('Change detected');
    } finally {
      child.kill('SIGINT');
    }
  });
});

/** A --templates directory overriding the resource-types template with `source`. */
function resourceTemplateOverride(source: string): string {
  const overrides = join(work.dir, 'templates');
  mkdirSync(join(overrides, 'types'), { recursive: true });
  writeFileSync(join(overrides, 'types/resource.ts.hbs'), source);
  return overrides;
}

describe('--templates', () => {
  test('a template in the override directory replaces the built-in one of the same path', async () => {
    const { spec, out } = bookshop();
    // The view names the resource in `label` (it had `name` once).
    const overrides = resourceTemplateOverride('// Team layout for {{label}}\nexport {};\n');
    const result = await runCli(['generate', spec, '--out', out, '--templates', overrides]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(out, 'src/generated/resources/books.ts'), 'utf8')).toContain('// Team layout for the `books` resource\nexport {};\n');
    // The other templates are still the built-in ones.
    expect(readFileSync(join(out, 'src/generated/types.ts'), 'utf8')).toContain('export interface paths');
    // A run without them would revert the customised files: it stops; --force goes back to the built-in templates.
    const refused = await runCli(['generate', spec, '--out', out]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('TEMPLATES_NOT_GIVEN');
    const back = await runCli(['generate', spec, '--out', out, '--force']);
    expect(back.stdout).toMatch(/updated\s+src\/generated\/resources\/books\.ts/);
  });
});

describe('--templates: a template that renders code that does not parse', () => {
  test('is a TEMPLATE_ERROR naming the rendered file, exit 1, and nothing is written', async () => {
    const { spec, out } = bookshop();
    const overrides = resourceTemplateOverride('export const = {{json name}};\n');
    const result = await runCli(['generate', spec, '--out', out, '--templates', overrides]);
    expect(result.code).toBe(1);
    // Line 4 of the rendered file: the do-not-edit banner takes three.
    expect(result.stderr).toMatch(/TEMPLATE_ERROR {2}src\/generated\/resources\/\w+\.ts:4\n/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });
});

describe('merge', () => {
  test('refuses to write over a file of the spec itself', async () => {
    const { spec } = bookshop();
    const before = readFileSync(spec, 'utf8');
    const result = await runCli(['merge', spec, '--out', spec]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('OUTPUT_NOT_OURS');
    expect(readFileSync(spec, 'utf8')).toBe(before);
  });
});
