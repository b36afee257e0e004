/**
 * Files rendered in prettier's form skip the format pass (templates that
 * say so, with every value printed by {{js}}): on the fixtures and on the
 * public specs, prettier must change nothing in any of them, and the
 * templates that say so must come out in form, not handed to prettier.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as prettier from 'prettier';
import { PRETTIER_OPTIONS } from '../../src/format/index.js';
import type { OutputFile } from '../../src/render/index.js';
import { NARROW_CHARACTERS } from '../../src/render/prettier-form.js';
import { ROOT, scratchDir } from '../helpers.js';

const specsIn = (folder: string, only = /\.(ya?ml|json)$/) =>
  readdirSync(folder)
    .filter((name) => only.test(name))
    .map((name) => join(folder, name));

/** The examples, the valid fixtures, the conformance corpus (one thing varied at a time) and the hostile names. */
const FIXTURES = [
  'examples/bookshop/openapi.yaml',
  'examples/petstore/openapi.json',
  ...specsIn('test/fixtures/valid'),
  'test/fixtures/valid/multi-file/openapi.yaml',
  ...specsIn('test/fixtures/conformance'),
  ...specsIn('test/fixtures/conformance/corpus'),
  ...specsIn('test/fixtures/hostile', /^name-.*\.yaml$/),
];

/** The public specs, with the overlays that make three of them valid (as in real-specs.test.ts). */
const PUBLIC = [
  'node_modules/@octokit/openapi/generated/api.github.com.json',
  'node_modules/@directus/specs/dist/openapi.json test/fixtures/real/directus.overlay.yaml',
  'node_modules/@blockfrost/openapi/openapi.yaml test/fixtures/real/blockfrost.overlay.yaml',
  'node_modules/@ideal-postcodes/openapi/dist/openapi.json',
  'node_modules/@digdir/dialogporten-schema/swagger.verified.json test/fixtures/real/dialogporten.overlay.yaml',
];

/** Outputs the in-form templates print. */
const IN_FORM_TEMPLATES =
  /^(test\/conformance\/(resources\/.*\.test\.ts|conventions\.test\.ts|rate-limit\.test\.ts)|src\/generated\/(routes|service|store|tables|app|handlers)\.ts|src\/generated\/resources\/.*\.ts|src\/handlers\/.*\.ts|src\/client\/index\.ts|src\/(main|migrate|store\/index)\.ts|package\.json)$/;

/**
 * Files a long name (of a handler, a type, a table) may push past the margin, or that hold types left to
 * prettier: most, not all, come out in form; on the examples, all of them.
 */
const MOSTLY_IN_FORM = /^src\/(generated\/(resources\/|store\.ts|tables\.ts|app\.ts|handlers\.ts)|handlers\/|client\/index\.ts)/;

/**
 * The in-form templates' files as the built pipeline makes them, before the
 * format stage would touch them. In a child process: under Jest, the
 * reference parser a multi-file spec needs cannot load.
 */
async function inFormOutputs(input: string): Promise<OutputFile[]> {
  const [spec, overlay] = input.split(' ');
  const { dir, cleanup } = scratchDir();
  try {
    const out = join(dir, 'outputs.json');
    const program = [
      `import { writeFileSync } from 'node:fs';`,
      `import { buildOutputs } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/pipeline.js')).href)};`,
      `const { files } = await buildOutputs(${JSON.stringify({ spec, lint: false, ...(overlay ? { overlay } : {}) })});`,
      `writeFileSync(${JSON.stringify(out)}, JSON.stringify(files.filter((file) => ${IN_FORM_TEMPLATES}.test(file.path))));`,
    ].join('\n');
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', program], { cwd: ROOT, maxBuffer: 1 << 26 });
    return JSON.parse(readFileSync(out, 'utf8')) as OutputFile[];
  } finally {
    cleanup();
  }
}

describe('files in prettier’s form without prettier', () => {
  test.each([...FIXTURES, ...PUBLIC])('%s', async (spec) => {
    const files = await inFormOutputs(spec);
    expect(files.length).toBeGreaterThan(0);
    // Every file of an in-form template came out in form, but for text prettier measures with Unicode tables…
    const narrow = new RegExp(`^[${NARROW_CHARACTERS}\\n]*$`);
    // (the resources' type aliases may also hold types it leaves to prettier, a form's `Omit<…> & {…}`, and a long name may push a line
    // of theirs or of a handler scaffold past the margin; most come out in form)
    const leftToPrettier = files.filter((file) => file.format !== 'as-is' && narrow.test(file.contents));
    const mayFallBack = spec.startsWith('examples/') ? /^src\/generated\/resources\// : MOSTLY_IN_FORM;
    expect(leftToPrettier.filter((file) => !mayFallBack.test(file.path)).map((file) => file.path)).toEqual([]);
    // (names made odd on purpose, long or beyond ASCII, may leave most of them to prettier)
    for (const folder of spec.includes('/hostile/') ? [] : ['src/generated/resources/', 'src/handlers/']) {
      const mostly = files.filter((file) => file.path.startsWith(folder));
      expect(mostly.filter((file) => file.format === 'as-is').length).toBeGreaterThanOrEqual(mostly.length * 0.5);
    }
    // …and prettier changes nothing in it.
    const changed: string[] = [];
    for (const file of files.filter((file) => file.format === 'as-is')) {
      const parser = file.path.endsWith('.json') ? 'json' : 'babel-ts';
      if ((await prettier.format(file.contents, { ...PRETTIER_OPTIONS, parser })) !== file.contents) changed.push(file.path);
    }
    expect(changed).toEqual([]);
  }, 300_000);
});
