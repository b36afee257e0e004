/**
 * Regenerating a service after the spec changes: the user's handler files
 * are kept as edited, a new operation is reported and is a type error in its
 * handler file until implemented, a removed one is reported and is a type
 * error until deleted.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES, scratchDir } from '../helpers.js';
import { compile, generateService, linkDependencies } from '../service.js';

type Spec = { paths: Record<string, Record<string, unknown>> };

describe('regenerating a service after the spec changes', () => {
  const scratch = scratchDir();
  const spec = join(scratch.dir, 'openapi.json');
  const project = join(scratch.dir, 'service');
  const handlerFile = join(project, 'src/handlers/pets.ts');
  const editSpec = (change: (document: Spec) => void) => {
    const document = JSON.parse(readFileSync(spec, 'utf8')) as Spec;
    change(document);
    writeFileSync(spec, JSON.stringify(document, null, 2));
  };
  let firstRun: string;

  beforeAll(async () => {
    copyFileSync(join(EXAMPLES, 'petstore/openapi.json'), spec);
    firstRun = await generateService(spec, project);
    linkDependencies(project);
  });
  afterAll(() => scratch.cleanup());

  test('a first generation reports no operation changes and type-checks', async () => {
    expect(firstRun).not.toContain('New operations');
    expect(await compile(project, { emit: false })).toBe('');
  });

  test('a new operation is reported, the edited handler file is kept, and it fails to type-check until implemented', async () => {
    const edited = readFileSync(handlerFile, 'utf8').replace('listPets: (request) =>', '// my own listing\n  listPets: (request) =>');
    writeFileSync(handlerFile, edited);
    editSpec((document) => {
      const item = document.paths['/pets/{pet_id}']!;
      item.patch = {
        operationId: 'updatePet',
        summary: 'Rename a pet',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } } },
        responses: { '200': { description: 'The pet.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      };
    });
    const output = await generateService(spec, project);
    expect(output).toContain('New operations: implement each in its handler file');
    expect(output).toContain('+ PATCH /pets/{pet_id}  updatePet  in src/handlers/pets.ts');
    expect(output).toMatch(/kept\s+src\/handlers\/pets\.ts/);
    expect(readFileSync(handlerFile, 'utf8')).toBe(edited);
    const problems = await compile(project, { emit: false });
    expect(problems).toContain('src/handlers/pets.ts');
    expect(problems).toContain("Property 'updatePet' is missing");
  });

  test('once the user implements it, the project type-checks again', async () => {
    writeFileSync(handlerFile, readFileSync(handlerFile, 'utf8').replace('};', '  updatePet: (request) => store.pets.update(request),\n};'));
    expect(await compile(project, { emit: false })).toBe('');
  });

  test('a removed operation is reported and its method becomes a type error', async () => {
    editSpec((document) => {
      delete document.paths['/pets/{pet_id}']!.delete;
    });
    const output = await generateService(spec, project);
    expect(output).toContain('Operations removed from the spec: delete each from its handler file');
    expect(output).toContain('- DELETE /pets/{pet_id}  deletePet  in src/handlers/pets.ts');
    const problems = await compile(project, { emit: false });
    expect(problems).toContain('src/handlers/pets.ts');
    expect(problems).toContain("'deletePet' does not exist in type 'PetsHandlers'");
  });
});
