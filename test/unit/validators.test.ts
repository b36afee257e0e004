/** The request validators the service is generated with, compiled by ajv and run as the service runs them. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { compileValidators, validatorInputs, type ValidatorSources } from '../../src/render/targets/server/validators.js';
import type { Validator } from '../../src/runtime/server/generated/conventions/validation.js';
import { mergedModel } from '../model.js';

const NOTE = {
  type: 'object',
  properties: {
    id: { type: 'integer', readOnly: true },
    title: { type: 'string' },
    status: { type: 'string', enum: ['draft', 'published'], default: 'draft' },
    meta: { type: 'object', properties: { pinned: { type: 'boolean', default: false } } },
  },
};
const body = { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } };
const ok = (status: string) => ({ [status]: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } } });
const id = [{ name: 'note_id', in: 'path' as const, required: true, schema: { type: 'integer' } }];

const SPEC: OpenApiDocument = {
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1.0.0' },
  paths: {
    '/notes': { post: { operationId: 'createNote', requestBody: body, responses: ok('201') } },
    '/notes/{note_id}': {
      parameters: id,
      put: { operationId: 'replaceNote', requestBody: body, responses: ok('200') },
      patch: { operationId: 'updateNote', requestBody: body, responses: ok('200') },
    },
  },
  components: { schemas: { Note: NOTE } },
};

const scratch = mkdtempSync(join(tmpdir(), 'specforge-validators-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The compiled modules, as JavaScript, imported. */
async function compiled(): Promise<Record<keyof ValidatorSources, Record<string, Validator>>> {
  const { document, model } = mergedModel(SPEC);
  const sources = compileValidators(validatorInputs(document, model.operations, model.operations.map((operation) => operation.operationId)));
  const load = async (name: keyof ValidatorSources) => {
    const file = join(scratch, `${name}.mjs`);
    writeFileSync(file, ts.transpileModule(sources[name], { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
    return (await import(pathToFileURL(file).href)) as Record<string, Validator>;
  };
  return { parameters: await load('parameters'), bodies: await load('bodies'), patches: await load('patches') };
}

describe('request bodies and schema defaults', () => {
  let modules: Awaited<ReturnType<typeof compiled>>;
  beforeAll(async () => {
    modules = await compiled();
  });

  test('a create and a replace get the defaults of the fields they leave out', () => {
    for (const name of ['createNote', 'replaceNote']) {
      const given = { title: 'Groceries', meta: {} };
      expect(modules.bodies[name]!(given)).toBe(true);
      expect(given).toEqual({ title: 'Groceries', status: 'draft', meta: { pinned: false } });
    }
  });

  test('a PATCH body keeps only what it names, nested objects included', () => {
    expect(modules.bodies.updateNote).toBeUndefined();
    const given = { title: 'Groceries', meta: {} };
    expect(modules.patches.updateNote!(given)).toBe(true);
    expect(given).toEqual({ title: 'Groceries', meta: {} });
  });

  test('a PATCH body is still validated', () => {
    expect(modules.patches.updateNote!({ status: 'gone' })).toBe(false);
  });
});
