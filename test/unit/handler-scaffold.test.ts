/**
 * The handler scaffolds (`src/handlers/<resource>.ts`) come out of their
 * template in prettier's form, for names of every length: the object on the
 * declaration's line where `= {` fits, on the next line where it does not,
 * and past the margin a head prettier cannot break. What the printer does
 * not model (a name past every margin) goes to prettier.
 */
import * as prettier from 'prettier';
import { PRETTIER_OPTIONS } from '../../src/format/index.js';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { createRenderer } from '../../src/render/handlebars.js';
import type { OutputFile } from '../../src/render/target.js';
import { serverTarget } from '../../src/render/targets/server/index.js';
import { loadResources } from '../../src/resources.js';
import { mergedModel } from '../model.js';
import { ok, ref } from '../openapi-parts.js';

const resources = loadResources();

/** A spec with one resource per name length: `/a…a` (a collection) and `/a…a/{id}` (its items), and one operation left unimplemented. */
function spec(lengths: number[]): OpenApiDocument {
  const paths: NonNullable<OpenApiDocument['paths']> = {};
  for (const length of lengths) {
    const name = `r${'a'.repeat(length)}`;
    paths[`/${name}`] = {
      get: { operationId: `list${name}`, responses: { '200': ok({ type: 'array', items: ref('Thing') }) } },
      post: { operationId: `create${name}`, requestBody: { content: { 'application/json': { schema: ref('Thing') } } }, responses: { '201': ok(ref('Thing')) } },
    };
    paths[`/${name}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: `get${name}`, responses: { '200': ok(ref('Thing')) } },
      put: { operationId: `replace${name}`, requestBody: { content: { 'application/json': { schema: ref('Thing') } } }, responses: { '204': { description: 'Replaced' } } },
    };
    paths[`/${name}/{id}/archive`] = { post: { operationId: `archive${name}`, responses: { '200': ok({ type: 'object' }) } } };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Lengths', version: '1' },
    paths,
    components: { schemas: { Thing: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } } } },
  };
}

async function handlerScaffolds(lengths: number[]): Promise<OutputFile[]> {
  const { document, model } = mergedModel(spec(lengths));
  const files = await serverTarget.render({ document, model, renderer: createRenderer(resources.templates), runtime: resources.runtime, specName: 'openapi.json' });
  const settled = await Promise.all(files);
  return settled.filter((file): file is OutputFile => 'contents' in file && file.path.startsWith('src/handlers/'));
}

const format = (text: string) => prettier.format(text, { ...PRETTIER_OPTIONS, parser: 'typescript' });

test('handler scaffolds of names of every length: as prettier prints them where printed, and most printed', async () => {
  const files = await handlerScaffolds(Array.from({ length: 66 }, (_, index) => 4 + index));
  let printed = 0;
  let brokenHeads = 0;
  let brokenComparisons = 0;
  for (const file of files) {
    if (file.format !== 'as-is') continue;
    printed++;
    if (/ =\n  \{\n/.test(file.contents)) brokenHeads++;
    if (/ !==\n +undefined,/.test(file.contents)) brokenComparisons++;
    expect(file.contents).toBe(await format(file.contents));
  }
  // Every name length through the head past the margin; only bodies prettier breaks are handed over.
  expect(printed).toBeGreaterThan(files.length * 0.8);
  expect(brokenHeads).toBeGreaterThan(10);
  expect(brokenComparisons).toBeGreaterThan(5);
});
