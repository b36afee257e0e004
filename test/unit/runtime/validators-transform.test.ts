/**
 * The conformance suite's transform of the compiled validators: it takes out
 * the only TypeScript the generator writes into them, and nothing else.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { SourceTextModule } from 'node:vm';
import { RUNTIME_ROOT } from '../../../src/resources.js';
import { compileValidators } from '../../../src/render/targets/server/validators.js';

const transform = createRequire(import.meta.url)(join(RUNTIME_ROOT, 'conformance/validators-transform.cjs')) as {
  process(source: string): { code: string };
};

const compiled = compileValidators({
  dialect: '2020-12',
  registry: { $id: 'specforge:spec', components: { schemas: {} } },
  parameters: [['listBooksValidator', { type: 'object', properties: { query: { type: 'object', properties: { limit: { type: 'integer', maximum: 100 } } } } }]],
  patches: [],
  forms: [],
  bodies: [['createBookValidator', { type: 'object', required: ['title'], properties: { title: { type: 'string', format: 'date', minLength: 1 } } }]],
  operations: {},
});
if (!('sources' in compiled)) throw new Error(JSON.stringify(compiled.problems));
const { sources } = compiled;

test.each(['parameters', 'bodies'] as const)('the %s module becomes JavaScript that exports every validator', (file) => {
  const source = sources[file];
  expect(() => new SourceTextModule(source)).toThrow(); // as generated: TypeScript
  const { code } = transform.process(source);
  expect(() => new SourceTextModule(code)).not.toThrow();
  const name = file === 'parameters' ? 'listBooksValidator' : 'createBookValidator';
  expect(code).toMatch(new RegExp(`export const ${name} = validate\\d+;`));
  // The compiled code itself is left as it was.
  expect(code.replace(/\s+/g, '')).toBe(source.replace(/^import type [^\n]*;$/m, '').replace(': Validator = ', ' = ').replace(/\s+/g, ''));
});
