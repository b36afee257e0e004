/**
 * The public specs' types come out of render already in prettier's form:
 * prettier changes nothing in them, and almost all of the text is printed
 * by the layout printer rather than handed to prettier (test/unit/types-layout
 * holds the layout cases; this is the proof on specs nobody here wrote).
 */
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import * as prettier from 'prettier';
import { PRETTIER_OPTIONS } from '../../src/format/index.js';
import { formatJob } from '../../src/format/prettier.js';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { printTypes } from '../../src/render/targets/types-print.js';

const SPECS = [
  'node_modules/@octokit/openapi/generated/api.github.com.json',
  'node_modules/@directus/specs/dist/openapi.json',
  'node_modules/@blockfrost/openapi/openapi.yaml',
  'node_modules/@ideal-postcodes/openapi/dist/openapi.json',
  'node_modules/@digdir/dialogporten-schema/swagger.verified.json',
];

describe('public specs’ types in prettier’s form without prettier', () => {
  test.each(SPECS)('%s', async (file) => {
    const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
    const document = (file.endsWith('.json') ? JSON.parse(text) : yaml.load(text)) as OpenApiDocument;
    const texts: string[] = [];
    let handedOver = 0;
    for (const part of printTypes(document)) {
      if (part.as !== 'verbatim') handedOver += part.text.length;
      texts.push(await formatJob({ ...part, format: 'typescript' }));
    }
    const types = texts.join('');
    expect(await prettier.format(types, { ...PRETTIER_OPTIONS, parser: 'babel-ts' })).toBe(types);
    // Less than 1% left to prettier (GitHub: 16 kB of 7.5 MB).
    expect(handedOver).toBeLessThan(types.length / 100);
  });
});
