/**
 * `test/conformance/`: a jest suite that checks a running service against
 * the merged spec and the conventions, in-process or at BASE_URL. The
 * harness, assertions and checks are the same for every API; `api.json`
 * (what the suite knows of the API), `schemas.json` (the response schemas)
 * and one test file per resource come from the spec.
 */
import type { OpenApiDocument } from '../../../openapi/document.js';
import { lookup, type OperationObject } from '../../../openapi/document.js';
import { toJsonSchema } from '../../../openapi/json-schema.js';
import { successResponse, jsonSchemaOf } from '../../../openapi/classify.js';
import type { ApiModel } from '../../../model/index.js';
import type { OutputFile, Target } from '../../target.js';
import { apiTests, conformanceView } from './view.js';

const DIRECTORY = 'test/conformance';

/** Modules the same for every API: template name → file. */
const FIXED = ['harness.ts', 'assertions.ts', 'checks.ts', 'conventions.ts', 'jest.config.js', 'sequencer.cjs'];

export const conformanceTarget: Target = {
  name: 'conformance',
  async render({ document, model, renderer }) {
    const view = conformanceView(model, document);
    const api = apiTests(model);
    const file = (name: string, contents: string, format: OutputFile['format']): OutputFile => ({ path: `${DIRECTORY}/${name}`, contents, kind: 'generated', format });
    const typescript = (name: string, template: string, data: object) => file(name, renderer.render(`conformance/${template}`, data), name.endsWith('.ts') || name.endsWith('.js') ? 'typescript' : 'as-is');
    return [
      ...FIXED.map((name) => typescript(name, `${name}.hbs`, {})),
      file('tsconfig.json', renderer.render('conformance/tsconfig.json.hbs', {}), 'json'),
      // Data, written as JSON without prettier: on a large API it runs to megabytes.
      file('api.json', `${JSON.stringify(view.api, null, 2)}\n`, 'as-is'),
      file('schemas.json', `${JSON.stringify(responseSchemas(document, model))}\n`, 'as-is'),
      ...view.files.map((resource) => typescript(`${resource.file}.test.ts`, 'resource.test.ts.hbs', resource)),
      ...(api ? [typescript('conventions.test.ts', 'conventions.test.ts.hbs', api), typescript('rate-limit.test.ts', 'rate-limit.test.ts.hbs', api.rateLimit)] : []),
    ];
  },
};

/** The registry every response schema's `$ref`s point into: the merged spec's schemas, as responses read them. */
const REGISTRY = 'specforge:responses';

function responseSchemas(document: OpenApiDocument, model: ApiModel): object {
  const resolve = (ref: string) => lookup(document, ref);
  const intoRegistry = (ref: string) => (ref.startsWith('#') ? `${REGISTRY}${ref}` : ref);
  const schemas = document.components?.schemas ?? {};
  const registry = {
    $id: REGISTRY,
    components: { schemas: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, toJsonSchema(schema, { direction: 'response', ref: (ref) => ref, resolve })])) },
  };
  const responses: Record<string, unknown> = {};
  for (const operation of model.operations) {
    const source = document.paths?.[operation.path]?.[operation.method] as OperationObject | undefined;
    const response = source && successResponse(document, source);
    const schema = response && jsonSchemaOf(response.response);
    if (schema !== undefined) responses[operation.operationId] = toJsonSchema(schema, { direction: 'response', ref: intoRegistry, resolve });
  }
  return { dialect: document.openapi.startsWith('3.0') ? 'draft-07' : '2020-12', registry, responses };
}
