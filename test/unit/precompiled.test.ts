/**
 * What the build compiles once (scripts/precompile.mjs): the OpenAPI schema
 * validators, as standalone code, judge every document as the validators Ajv
 * compiles at run time do; the built files, schemas and templates, are the
 * current ones. (That precompiled templates render as compiled ones do, the
 * golden tests show: they run the built CLI.)
 */
import { describe, expect, test } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { openApiSchemaAjv, precompiledFile, precompiledSource } from '../../src/load/validate.js';
import { PRECOMPILED_TEMPLATES, precompiledTemplatesSource } from '../../src/render/handlebars.js';
import { loadResources } from '../../src/resources.js';
import { FIXTURES, ROOT } from '../helpers.js';

type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null };
const VERSIONS = ['3.0', '3.1'] as const;

/** A CommonJS module's exports, from its text (its `require`s resolve from the project's root). */
function evaluate(source: string): Validate {
  const module = { exports: {} as unknown };
  const require = createRequire(join(ROOT, 'dist/load/validate.js'));
  new Function('module', 'exports', 'require', source)(module, module.exports, require);
  return module.exports as Validate;
}

function fixtureDocuments(): Record<string, unknown>[] {
  const documents: Record<string, unknown>[] = [];
  for (const folder of ['valid', 'invalid', 'conformance/corpus']) {
    for (const name of readdirSync(join(FIXTURES, folder))) {
      if (!/\.(ya?ml|json)$/.test(name)) continue;
      try {
        const document = parseYaml(readFileSync(join(FIXTURES, folder, name), 'utf8')) as unknown;
        if (typeof document === 'object' && document !== null && !Array.isArray(document)) documents.push(document as Record<string, unknown>);
      } catch {
        // a fixture that is not YAML (it tests the parser) has no document to validate
      }
    }
  }
  return documents;
}

/** Each document as written, and broken a few ways a spec's author breaks one. */
function corpus(version: '3.0' | '3.1'): unknown[] {
  const documents = fixtureDocuments().map((document) => ({ ...document, openapi: version === '3.0' ? '3.0.3' : '3.1.0' }));
  const broken = documents.flatMap((document) => [
    { ...document, info: { version: 1 } },
    { ...document, paths: { '/things': { get: { responses: { 200: { description: 7 } } } } } },
    { ...document, paths: { '/things/{id}': { get: { parameters: [{ name: 'id', in: 'path' }], responses: {} } } } },
    { ...document, components: { schemas: { Thing: { type: 'object', properties: [] } }, securitySchemes: { key: { type: 'apiKey' } } } },
    { ...document, 'x-ok': true, unexpected: true },
  ]);
  return [...documents, ...broken];
}

describe.each(VERSIONS)('OpenAPI %s schema, precompiled', (version) => {
  const { ajv, schema } = openApiSchemaAjv(version);
  const compiled = ajv.compile(schema) as Validate;
  const precompiled = evaluate(precompiledSource(version));

  test('judges every document of the corpus as the compiled validator does, errors and all', () => {
    const documents = corpus(version);
    expect(documents.length).toBeGreaterThan(50);
    let invalid = 0;
    for (const document of documents) {
      const expected = compiled(document);
      expect({ valid: precompiled(document), errors: precompiled.errors ?? null }).toEqual({ valid: expected, errors: compiled.errors ?? null });
      if (!expected) invalid++;
    }
    // Both outcomes are exercised: a validator that accepted (or refused) everything would not pass.
    expect(invalid).toBeGreaterThan(documents.length / 2);
    expect(invalid).toBeLessThan(documents.length);
  });

  test('the built file, where there is one, is the standalone code of the installed schema', () => {
    const built = join(ROOT, 'dist/load', precompiledFile(version));
    // Before the first build there is no dist; a build that ran tsc alone leaves the loader compiling on every run.
    if (!existsSync(join(ROOT, 'dist/load/validate.js'))) return;
    expect(readFileSync(built, 'utf8')).toBe(precompiledSource(version));
  });
});

describe('built-in templates, precompiled', () => {
  test('the built file, where there is one, holds every built-in template compiled from its current source', () => {
    const built = join(ROOT, 'dist/render', PRECOMPILED_TEMPLATES);
    if (!existsSync(join(ROOT, 'dist/render/handlebars.js'))) return; // before the first build
    const { templates } = loadResources();
    expect(readFileSync(built, 'utf8')).toBe(precompiledTemplatesSource(templates));
    expect(Object.keys(evaluate(readFileSync(built, 'utf8')) as object).sort()).toEqual([...templates.keys()].sort());
  });
});
