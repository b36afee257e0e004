/**
 * --overlay (and "overlay" in specforge.config.json): generating from a spec
 * with a known fault without editing it. The fixture spec has the fault
 * @directus/specs has (`schema: null` in a request body); its overlay fixes
 * it. Through the compiled CLI (`npm run build` first), in a scratch project.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, FIXTURES, runCli, scratchDir } from '../helpers.js';

let work: ReturnType<typeof scratchDir>;
let root: string;
beforeEach(() => {
  work = scratchDir('specforge-overlay-');
  root = join(work.dir, 'project');
  cpSync(join(FIXTURES, 'overlay'), root, { recursive: true });
  mkdirSync(join(root, '.git')); // a project of its own: no config file above it is found
});
afterEach(() => work.cleanup());

const SPEC = 'openapi.yaml';
const FIX = 'fix.overlay.yaml';
const overlay = (...actions: string[]) => `overlay: 1.0.0\ninfo:\n  title: Fixes\n  version: 1.0.0\nactions:\n${actions.join('')}`;
const FIX_BODY = `  - target: $.paths['/notes'].post.requestBody.content['application/json']\n    update:\n      schema:\n        $ref: "#/components/schemas/Note"\n`;

describe('a spec with a known fault', () => {
  test('without the overlay: SPEC_INVALID at the fault (file:line and pointer), exit 1, nothing written', async () => {
    const result = await runCli(['generate', SPEC, '--out', 'gen'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('✘ SPEC_INVALID  openapi.yaml:27:13  #/paths/~1notes/post/requestBody/content/application~1json/schema');
    expect(existsSync(join(root, 'gen'))).toBe(false);
  });

  test('with --overlay: generates (exit 0), the body fixed in the merged spec, the overlay recorded as an input', async () => {
    const result = await runCli(['generate', SPEC, '--out', 'gen', '--overlay', FIX, '--quiet'], { cwd: root });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(join(root, 'gen/openapi.merged.yaml'), 'utf8')).not.toMatch(/schema: null/);
    const manifest = JSON.parse(readFileSync(join(root, 'gen/.specforge/manifest.json'), 'utf8')) as { inputs: { path: string }[]; overlay?: string };
    expect(manifest.overlay).toBe(FIX);
    expect(manifest.inputs.map((input) => input.path)).toEqual([FIX, SPEC]);
  });

  test('with "overlay" in specforge.config.json (relative to the file): generates, and check passes', async () => {
    mkdirSync(join(root, 'fixes'));
    cpSync(join(root, FIX), join(root, 'fixes', FIX));
    writeFileSync(join(root, 'specforge.config.json'), JSON.stringify({ spec: SPEC, out: 'gen', overlay: `fixes/${FIX}` }));
    mkdirSync(join(root, 'docs'));
    expect(await runCli(['generate', '--quiet'], { cwd: join(root, 'docs') })).toMatchObject({ code: 0, stderr: '' });
    expect((await runCli(['check'], { cwd: join(root, 'docs') })).code).toBe(0);
  });

  test('lint and merge apply it too', async () => {
    expect((await runCli(['lint', SPEC], { cwd: root })).code).toBe(1);
    expect((await runCli(['lint', SPEC, '--overlay', FIX], { cwd: root })).code).toBe(0);
    const merged = await runCli(['merge', SPEC, '--overlay', FIX, '--out', '-'], { cwd: root });
    expect(merged.code).toBe(0);
    expect(merged.stdout).not.toMatch(/schema: null/);
  });

  test('merge refuses to write over the overlay, as over any input', async () => {
    const result = await runCli(['merge', SPEC, '--overlay', FIX, '--out', FIX], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('OUTPUT_NOT_OURS');
  });
});

describe('the overlay is an input of the generation', () => {
  const generate = (...more: string[]) => runCli(['generate', SPEC, '--out', 'gen', ...more], { cwd: root });

  test('unchanged: the next generate is up to date; check with it passes', async () => {
    expect((await generate('--overlay', FIX, '--quiet')).code).toBe(0);
    const again = await generate('--overlay', FIX);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Up to date');
    const checked = await runCli(['check', SPEC, '--out', 'gen', '--overlay', FIX], { cwd: root });
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain('is up to date');
  });

  test('changed: the next generate regenerates, and writes what the new overlay says', async () => {
    expect((await generate('--overlay', FIX, '--quiet')).code).toBe(0);
    writeFileSync(join(root, FIX), overlay(FIX_BODY, `  - target: $.info\n    update:\n      description: Patched by an overlay.\n`));
    const again = await generate('--overlay', FIX);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('Up to date');
    expect(again.stdout).toMatch(/updated\s+openapi\.merged\.yaml/);
    expect(readFileSync(join(root, 'gen/openapi.merged.yaml'), 'utf8')).toContain('Patched by an overlay.');
    expect((await runCli(['check', SPEC, '--out', 'gen', '--overlay', FIX], { cwd: root })).code).toBe(0);
  });

  test('left out, or another one named, where the files are unchanged: not up to date', async () => {
    expect((await generate('--overlay', FIX, '--quiet')).code).toBe(0);
    const without = await generate();
    expect(without.code).toBe(1); // regenerates, and meets the fault
    expect(without.stderr).toContain('SPEC_INVALID');
    cpSync(join(root, FIX), join(root, 'same.overlay.yaml'));
    const renamed = await generate('--overlay', 'same.overlay.yaml');
    expect(renamed.code).toBe(0);
    expect(renamed.stdout).not.toContain('Up to date');
    const stale = await runCli(['check', SPEC, '--out', 'gen', '--overlay', FIX], { cwd: root });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/stale\s+\.specforge\/manifest\.json/);
    expect(stale.stdout).toContain(`specforge generate ${SPEC} --out gen --overlay ${FIX}`);
  });

  test('outside the spec\'s ref roots (a vendored spec in a repository of its own): still up to date when unchanged', async () => {
    mkdirSync(join(root, 'vendor/api/.git'), { recursive: true });
    cpSync(join(root, SPEC), join(root, 'vendor/api', SPEC));
    const vendored = () => runCli(['generate', `vendor/api/${SPEC}`, '--out', 'gen', '--overlay', FIX], { cwd: root });
    expect((await vendored()).code).toBe(0);
    expect(JSON.parse(readFileSync(join(root, 'gen/.specforge/manifest.json'), 'utf8')).overlay).toBe(`../../${FIX}`);
    const again = await vendored();
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Up to date');
  });

  test('--watch watches it: a change to the overlay regenerates', async () => {
    const watcher = spawn(process.execPath, [CLI, 'generate', SPEC, '--out', 'gen', '--overlay', FIX, '--watch'], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stderr = '';
    watcher.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const until = async (text: RegExp) => {
      for (let waited = 0; !text.test(stderr); waited += 50) {
        if (waited > 60_000) throw new Error(`timed out waiting for ${text}; stderr so far:\n${stderr}`);
        await new Promise((resume) => setTimeout(resume, 50));
      }
    };
    try {
      await until(/Watching 2 files/);
      writeFileSync(join(root, FIX), overlay(FIX_BODY, `  - target: $.info\n    update:\n      description: Watched.\n`));
      await until(/Change detected; regenerating\.[\s\S]*Watching 2 files/);
      expect(readFileSync(join(root, 'gen/openapi.merged.yaml'), 'utf8')).toContain('Watched.');
    } finally {
      watcher.kill('SIGTERM');
    }
  });
});

describe('problems with the overlay', () => {
  test('a missing file: OVERLAY_NOT_FOUND naming it, exit 1, nothing written', async () => {
    const result = await runCli(['generate', SPEC, '--out', 'gen', '--overlay', 'nope.yaml'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`✘ OVERLAY_NOT_FOUND  nope.yaml\n  The overlay ${join(root, 'nope.yaml')} does not exist`);
    expect(existsSync(join(root, 'gen'))).toBe(false);
  });

  test('a folder: OVERLAY_NOT_FOUND, "is not a file"', async () => {
    mkdirSync(join(root, 'fixes'));
    const result = await runCli(['lint', SPEC, '--overlay', 'fixes'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is not a file');
  });

  test('an invalid overlay: OVERLAY_INVALID at its file:line:column and pointer, each problem', async () => {
    writeFileSync(join(root, FIX), overlay(`  - target: $.paths[\n    update: {}\n`, `  - target: $.info\n`));
    const result = await runCli(['generate', SPEC, '--out', 'gen', '--overlay', FIX], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`✘ OVERLAY_INVALID  ${FIX}:6:5  #/actions/0/target`);
    expect(result.stderr).toContain(`✘ OVERLAY_INVALID  ${FIX}:8:5  #/actions/1\n  actions[1] does nothing`);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  test('a YAML error in it, or a file nested too deep: the same checks as a spec, placed in the overlay', async () => {
    writeFileSync(join(root, FIX), 'overlay: 1.0.0\n  info: x\n');
    const broken = await runCli(['generate', SPEC, '--out', 'gen', '--overlay', FIX], { cwd: root });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`✘ SPEC_PARSE_ERROR  ${FIX}:1:10`);
    writeFileSync(join(root, FIX), overlay(`  - target: $\n    update: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`));
    const deep = await runCli(['generate', SPEC, '--out', 'gen', '--overlay', FIX], { cwd: root });
    expect(deep.code).toBe(1);
    expect(deep.stderr).toContain(`✘ SPEC_TOO_DEEP  ${FIX}`);
    expect(deep.stderr).not.toMatch(/^\s+at /m);
  });

  test('a target that selects nothing: a warning at it; the run goes on (and the warning stays with the errors it may explain)', async () => {
    writeFileSync(join(root, FIX), overlay(`  - target: $.paths['/note'].post\n    remove: true\n`, FIX_BODY));
    const result = await runCli(['generate', SPEC, '--out', 'gen', '--overlay', FIX], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`⚠ OVERLAY_TARGET_UNMATCHED  ${FIX}:6:5  #/actions/0/target`);

    writeFileSync(join(root, FIX), overlay(`  - target: $.paths['/note'].post.requestBody.content['application/json']\n    update:\n      schema: {}\n`));
    const failed = await runCli(['generate', SPEC, '--out', 'gen2', '--overlay', FIX], { cwd: root });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/⚠ OVERLAY_TARGET_UNMATCHED[\s\S]*✘ SPEC_INVALID  openapi\.yaml:27:13/);
  });

  test('a problem an update brings in is placed in the overlay', async () => {
    writeFileSync(join(root, FIX), overlay(`  - target: $.paths['/notes'].post.requestBody.content['application/json']\n    update:\n      schema:\n        type: objekt\n`));
    const result = await runCli(['lint', SPEC, '--overlay', FIX], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`✘ SPEC_INVALID  ${FIX}:9:9  #/actions/0/update/schema/type`);
  });

  test('a problem in the spec past an item the overlay removed: at its own line in the spec', async () => {
    const spec = readFileSync(join(root, SPEC), 'utf8').replace(
      '    get:\n      operationId: listNotes',
      '    parameters:\n      - { name: a, in: query }\n      - { name: b, in: nowhere }\n    get:\n      operationId: listNotes',
    );
    writeFileSync(join(root, 'params.yaml'), spec);
    writeFileSync(join(root, FIX), overlay(FIX_BODY, `  - target: $.paths['/notes'].parameters[?@.name == 'a']\n    remove: true\n`));
    const result = await runCli(['lint', 'params.yaml', '--overlay', FIX], { cwd: root });
    expect(result.code).toBe(1);
    // parameters/0 of the patched spec: parameters/1 of the file, on line 11 (not a's, on line 10).
    expect(result.stderr).toContain('✘ SPEC_INVALID  params.yaml:11:20  #/paths/~1notes/parameters/1/in');
    expect(result.stderr).not.toContain('params.yaml:10:');
  });

  test('a misspelt --overlay gets a suggestion', async () => {
    const result = await runCli(['generate', SPEC, '--out', 'gen', '--overlya', FIX], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--overlya: did you mean --overlay?');
  });
});
