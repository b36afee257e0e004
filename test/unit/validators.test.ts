/** The request validators the service is generated with, compiled by ajv and run as the service runs them. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import type { OpenApiDocument, SchemaObject } from '../../src/openapi/document.js';
import { compileValidators, validatorInputs, type ValidatorInputs, type ValidatorSources } from '../../src/render/targets/server/validators.js';
import { problemsOf, type Validator } from '../../src/runtime/server/generated/conventions/validation.js';
import { ROOT } from '../helpers.js';
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

// Inside the repository (its git-ignored tmp/), where the compiled code finds ajv's runtime helpers.
mkdirSync(join(ROOT, 'tmp'), { recursive: true });
const scratch = mkdtempSync(join(ROOT, 'tmp/validators-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let compilations = 0;

function sourcesOf(inputs: ValidatorInputs): ValidatorSources {
  const compiled = compileValidators(inputs);
  if (!('sources' in compiled)) throw new Error(JSON.stringify(compiled.problems));
  return compiled.sources;
}

/** The compiled modules, as JavaScript, imported. */
async function compiled(spec: OpenApiDocument): Promise<Record<keyof ValidatorSources, Record<string, Validator>>> {
  const { document, model } = mergedModel(spec);
  const sources = sourcesOf(validatorInputs(document, model.operations, model.operations.map((operation) => operation.operationId)));
  const run = compilations++;
  const load = async (name: keyof ValidatorSources) => {
    const file = join(scratch, `${name}-${run}.mjs`);
    writeFileSync(file, ts.transpileModule(sources[name], { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
    return (await import(pathToFileURL(file).href)) as Record<string, Validator>;
  };
  return { parameters: await load('parameters'), bodies: await load('bodies'), patches: await load('patches'), forms: await load('forms') };
}

describe('request bodies and schema defaults', () => {
  let modules: Awaited<ReturnType<typeof compiled>>;
  beforeAll(async () => {
    modules = await compiled(SPEC);
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

  test('operations with the same schema share one compiled validator (GitHub: 1,223 parameter sets, 603 distinct)', () => {
    const { document, model } = mergedModel(SPEC);
    const sources = sourcesOf(validatorInputs(document, model.operations, model.operations.map((operation) => operation.operationId)));
    expect(sources.bodies).toContain('export const replaceNote: Validator = createNote;');
    expect(sources.bodies.match(/sourceURL="specforge:operation\/\w+"/g)).toEqual(['sourceURL="specforge:operation/createNote"']);
    expect(modules.bodies.replaceNote).toBe(modules.bodies.createNote);
  });
});

// Before: a JSON media type without a schema compiled no validator, and the generated routes named one that was not
// there (bodies.createNote; patches.updateNote, with no patches module at all): the project did not type-check.
describe('a JSON body without a schema', () => {
  const schemaless = { content: { 'application/json': {} } };
  const spec: OpenApiDocument = {
    ...SPEC,
    paths: {
      '/notes': { post: { operationId: 'createNote', requestBody: schemaless, responses: ok('201') } },
      '/notes/{note_id}': { parameters: id, patch: { operationId: 'updateNote', requestBody: schemaless, responses: ok('200') } },
    },
  };

  test('has a validator where its route looks for it, taking any JSON', async () => {
    const modules = await compiled(spec);
    expect(modules.bodies.createNote!({ anything: [1] })).toBe(true);
    expect(modules.patches.updateNote!('text')).toBe(true);
  });
});

// Operations repeat the same parameters: each distinct parameter schema is compiled once and called where it is used.
describe('parameters', () => {
  const year = { name: 'year', in: 'path' as const, required: true, schema: { type: 'integer' } };
  const positive = (name: string) => ({ name, in: 'query' as const, schema: { type: 'integer', minimum: 1, default: 20 } });
  const spec = (schema: SchemaObject = { type: 'integer', minimum: 1, default: 20 }): OpenApiDocument => ({
    openapi: '3.0.3',
    info: { title: 'Reports', version: '1.0.0' },
    paths: {
      '/reports/{year}': { get: { operationId: 'getReport', parameters: [year, { ...positive('size'), schema }], responses: ok('200') } },
      '/charts/{year}': { get: { operationId: 'getChart', parameters: [year, { ...positive('count'), schema }], responses: ok('200') } },
    },
    components: { schemas: { Note: NOTE } },
  });
  const request = (query: Record<string, unknown>) => ({ path: { year: '2024' }, query, headers: {} });

  test('each operation coerces its values from text and fills in its defaults through the shared validators', async () => {
    const { parameters } = await compiled(spec());
    const report = request({ size: '5' });
    expect(problemsOf(parameters.getReport!, report)).toEqual([]);
    expect(report).toEqual({ path: { year: 2024 }, query: { size: 5 }, headers: {} });
    const chart = request({});
    expect(problemsOf(parameters.getChart!, chart)).toEqual([]);
    expect(chart.query).toEqual({ count: 20 });
  });

  test("a shared parameter's problems are told under each operation's own name for it", async () => {
    const { parameters } = await compiled(spec());
    expect(problemsOf(parameters.getChart!, request({ count: '0' }))).toEqual([{ field: 'query.count', code: 'OUT_OF_RANGE', message: 'must be >= 1' }]);
    expect(problemsOf(parameters.getReport!, request({ size: 'x', extra: '1' }))).toEqual([
      { field: 'query.extra', code: 'UNKNOWN_FIELD', message: 'is not a known field' },
      { field: 'query.size', code: 'INVALID_TYPE', message: 'must be integer' },
    ]);
  });

  test('a parameter schema two operations use is compiled once', () => {
    const { document, model } = mergedModel(spec());
    const sources = sourcesOf(validatorInputs(document, model.operations, model.operations.map((operation) => operation.operationId)));
    expect(sources.parameters.match(/must be >= 1/g)).toHaveLength(1);
  });

  test('a shared parameter schema ajv refuses is told at each operation, as its parameter there', () => {
    const { document, model } = mergedModel(spec({ type: 'integr' }));
    const compiled = compileValidators(validatorInputs(document, model.operations, model.operations.map((operation) => operation.operationId)));
    const problems = 'problems' in compiled ? compiled.problems : [];
    expect(problems.map((problem) => [problem.pointer, problem.message])).toEqual([
      ['#/paths/~1reports~1{year}/get', expect.stringContaining('operation "getReport" cannot be compiled: query parameter size: type must be equal to one of the allowed values')],
      ['#/paths/~1charts~1{year}/get', expect.stringContaining('operation "getChart" cannot be compiled: query parameter count: type must be equal to one of the allowed values')],
    ]);
  });
});

const pets = (pet: SchemaObject, components: Record<string, SchemaObject>): OpenApiDocument => ({
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.0.0' },
  paths: {
    '/owners': {
      post: {
        operationId: 'createOwner',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, pet } } } },
        },
        responses: { '201': { description: 'ok' } },
      },
    },
  },
  components: { schemas: components },
});
const tagged = (kind: string, field: string) => ({
  type: 'object',
  required: ['kind', field],
  properties: { kind: { type: 'string', enum: [kind] }, [field]: { type: 'string', maxLength: 10 } },
});
const PETS = { Dog: tagged('dog', 'bark'), Cat: tagged('cat', 'meow') };
const branches = [{ $ref: '#/components/schemas/Dog' }, { $ref: '#/components/schemas/Cat' }];

describe('oneOf problems', () => {
  test('with a discriminator, only the branch the tag names is checked, and its problems told', async () => {
    const { bodies } = await compiled(pets({ oneOf: branches, discriminator: { propertyName: 'kind' } }, PETS));
    const problems = (pet: object) => problemsOf(bodies.createOwner!, { name: 'Ann', pet }, 'body');
    expect(problems({ kind: 'dog', bark: 'x'.repeat(11) })).toEqual([
      { field: 'body.pet.bark', code: 'OUT_OF_RANGE', message: 'must NOT have more than 10 characters' },
    ]);
    expect(problems({ kind: 'cow' })).toEqual([{ field: 'body.pet.kind', code: 'INVALID_VALUE', message: 'must name one of the schemas of oneOf' }]);
    expect(problems({ bark: 'woof' })).toEqual([{ field: 'body.pet.kind', code: 'REQUIRED', message: "must have required property 'kind'" }]);
    expect(problems({ kind: 'cat', meow: 'purr' })).toEqual([]);
  });

  test('a discriminator ajv cannot read (a branch without const or enum for the tag) is left to JSON Schema', async () => {
    const loose = { ...PETS, Cat: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } } } };
    const { bodies } = await compiled(pets({ oneOf: branches, discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat' } } }, loose));
    expect(problemsOf(bodies.createOwner!, { name: 'Ann', pet: { kind: 5 } }, 'body')).toEqual([
      { field: 'body.pet', code: 'INVALID_VALUE', message: 'must match exactly one of Dog, Cat' },
    ]);
    // Matching both branches is a failure too; then no branch has a problem to name.
    expect(problemsOf(bodies.createOwner!, { name: 'Ann', pet: { kind: 'dog', bark: 'woof' } }, 'body')).toEqual([
      { field: 'body.pet', code: 'INVALID_VALUE', message: 'must match exactly one schema in oneOf' },
    ]);
  });

  // Before: each of these made ajv throw while compiling, and `generate` stopped with a stack trace.
  test.each([
    ['a nullable tag (null joins its enum)', { Dog: { ...tagged('dog', 'bark'), properties: { kind: { type: 'string', enum: ['dog'], nullable: true } } } }],
    ['a value two branches share', { Dog: { ...tagged('dog', 'bark'), properties: { kind: { type: 'string', enum: ['dog', 'cat'] } } } }],
    ['a number for a value', { Dog: { ...tagged('dog', 'bark'), properties: { kind: { type: 'integer', enum: [1] } } } }],
    ['a read-only tag (a request drops it from required)', { Dog: { ...tagged('dog', 'bark'), properties: { kind: { type: 'string', enum: ['dog'], readOnly: true } } } }],
    ['a nullable branch', { Dog: { ...tagged('dog', 'bark'), nullable: true } }],
  ])('a discriminator ajv would refuse is left to JSON Schema: %s', async (_name, changed) => {
    const { bodies } = await compiled(pets({ oneOf: branches, discriminator: { propertyName: 'kind' } }, { ...PETS, ...changed } as Record<string, SchemaObject>));
    expect(problemsOf(bodies.createOwner!, { name: 'Ann', pet: { kind: 'cat', meow: 'purr' } }, 'body')).toEqual([]);
  });

  // ajv follows a branch's $ref only where nothing else stands in the branch; else it reads the branch's own properties.
  test.each([
    ['a constraint beside the $ref', { $ref: '#/components/schemas/Dog', required: ['bark'] }],
    ['nullable beside the $ref (the branch becomes an anyOf)', { $ref: '#/components/schemas/Dog', nullable: true }],
  ])('a discriminator ajv would refuse is left to JSON Schema: %s', async (_name, dog) => {
    const { bodies } = await compiled(pets({ oneOf: [dog, branches[1]!], discriminator: { propertyName: 'kind' } } as SchemaObject, PETS));
    expect(problemsOf(bodies.createOwner!, { name: 'Ann', pet: { kind: 'cat', meow: 'purr' } }, 'body')).toEqual([]);
    expect(problemsOf(bodies.createOwner!, { name: 'Ann', pet: { kind: 'dog' } }, 'body')).toEqual([
      { field: 'body.pet', code: 'INVALID_VALUE', message: expect.stringMatching(/^must match exactly one /) },
    ]);
  });

  test('a problem of a keyword beside the oneOf (type) is told as it is', async () => {
    const { bodies } = await compiled(pets({ type: 'object', oneOf: branches }, PETS));
    expect(problemsOf(bodies.createOwner!, { name: 'Ann', pet: 'rex' }, 'body')).toEqual([{ field: 'body.pet', code: 'INVALID_TYPE', message: 'must be object' }]);
  });

  test("without one, the failure is told once at the oneOf's field, naming its branches, with no branch's problems", async () => {
    const { bodies } = await compiled(pets({ oneOf: branches }, PETS));
    expect(problemsOf(bodies.createOwner!, { pet: { kind: 'cow' } }, 'body')).toEqual([
      { field: 'body.name', code: 'REQUIRED', message: "must have required property 'name'" },
      { field: 'body.pet', code: 'INVALID_VALUE', message: 'must match exactly one of Dog, Cat' },
    ]);
  });
});

// Before: a schema ajv refuses (a pattern that is no regular expression, a `type` no JSON Schema names: the 3.1
// schema does not check a Schema Object) stopped generate with "internal error" and ajv's stack trace.
describe('a schema ajv cannot compile', () => {
  const withSchema = (schema: object, noteSchema: object = NOTE): OpenApiDocument => ({
    ...SPEC,
    openapi: '3.1.0',
    paths: {
      ...SPEC.paths,
      '/notes': { get: { operationId: 'listNotes', parameters: [{ name: 'q', in: 'query', schema: schema as SchemaObject }], responses: ok('200') } },
    },
    components: { schemas: { Note: noteSchema as SchemaObject } },
  });
  const problemsOfSpec = (spec: OpenApiDocument) => {
    const { document, model } = mergedModel(spec);
    const compiled = compileValidators(validatorInputs(document, model.operations, model.operations.map((operation) => operation.operationId)));
    return 'problems' in compiled ? compiled.problems : [];
  };

  test('a pattern that is no regular expression is told with its operation and place', () => {
    const [problem, ...others] = problemsOfSpec(withSchema({ type: 'string', pattern: '[' }));
    expect(others).toEqual([]);
    expect(problem).toMatchObject({ code: 'SPEC_INVALID', severity: 'error', pointer: '#/paths/~1notes/get' });
    expect(problem!.message).toMatch(/parameters schema of operation "listNotes" cannot be compiled: Invalid regular expression: \/\[\/u/);
  });

  test('a type JSON Schema does not name is told as the parameter it is', () => {
    const [problem] = problemsOfSpec(withSchema({ type: 'strin' }));
    expect(problem!.message).toContain('query parameter q: type must be equal to one of the allowed values');
  });

  test('a component schema that is no JSON Schema is told at each operation whose schema reaches it', () => {
    const problems = problemsOfSpec(withSchema({ type: 'string' }, { ...NOTE, properties: { title: { type: 'string', minLength: 'one' } } }));
    expect(problems.map((problem) => problem.pointer)).toEqual(['#/paths/~1notes~1{note_id}/put', '#/paths/~1notes~1{note_id}/patch']);
    for (const problem of problems) expect(problem.message).toMatch(/request body schema of operation "\w+" cannot be compiled: minLength value must be \["number"\]/);
  });

  test('valid schemas compile: no problems', () => {
    expect(problemsOfSpec(withSchema({ type: 'string', pattern: '^[a-z]+$' }))).toEqual([]);
  });
});
