/**
 * `test/conformance/schemas.json`: the merged spec's schemas as JSON Schema,
 * in two registries — as responses read them (write-only fields may be
 * missing) and as requests do (read-only fields are never required) — and,
 * per operation, the schema of its success answer and of its inputs: what
 * the suite validates answers against and draws random requests from.
 */
import { lookup, type OpenApiDocument, type OperationObject } from '../../../openapi/document.js';
import { toJsonSchema, type SchemaDirection } from '../../../openapi/json-schema.js';
import { successResponse, jsonSchemaOf } from '../../../openapi/classify.js';
import type { ApiModel, OperationModel, ParameterModel } from '../../../model/index.js';
import type { QueryInput, SuiteSchemas } from '../../../runtime/conformance/plan.js';
import { bodySchemaOf } from '../resource-types.js';

/** Each registry's `$id`: the `$ref`s of the schemas below point into it. */
const REGISTRY: Record<SchemaDirection, string> = { response: 'specforge:responses', request: 'specforge:requests' };

export function suiteSchemas(document: OpenApiDocument, model: ApiModel): SuiteSchemas {
  const responses: SuiteSchemas['responses'] = {};
  const requests: SuiteSchemas['requests'] = {};
  for (const operation of model.operations) {
    const source = document.paths?.[operation.path]?.[operation.method] as OperationObject | undefined;
    const response = source && successResponse(document, source);
    const schema = response && jsonSchemaOf(response.response);
    if (schema !== undefined) responses[operation.operationId] = convert(document, schema, 'response');
    const inputs = requestInputsOf(document, operation);
    if (inputs) requests[operation.operationId] = inputs;
  }
  return {
    dialect: document.openapi.startsWith('3.0') ? 'draft-07' : '2020-12',
    registry: registryOf(document, 'response'),
    requestRegistry: registryOf(document, 'request'),
    responses,
    requests,
  };
}

function registryOf(document: OpenApiDocument, direction: SchemaDirection): object {
  const schemas = document.components?.schemas ?? {};
  const resolve = (ref: string) => lookup(document, ref);
  return {
    $id: REGISTRY[direction],
    components: { schemas: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, toJsonSchema(schema, { direction, ref: (ref) => ref, resolve })])) },
  };
}

function convert(document: OpenApiDocument, schema: unknown, direction: SchemaDirection): object {
  const resolve = (ref: string) => lookup(document, ref);
  const intoRegistry = (ref: string) => (ref.startsWith('#') ? `${REGISTRY[direction]}${ref}` : ref);
  return toJsonSchema(schema, { direction, ref: intoRegistry, resolve }) as object;
}

/** Its JSON body's schema, the query parameters the suite can write (a scalar, or an array sent as `form` exploded, the default), its path parameters' schemas. */
function requestInputsOf(document: OpenApiDocument, operation: OperationModel): SuiteSchemas['requests'][string] | undefined {
  const body = bodySchemaOf(document, operation);
  const query = operation.parameters.query.filter(isWritableQuery).map((parameter): QueryInput => ({ name: parameter.name, required: parameter.required, schema: convert(document, parameter.schema, 'request') }));
  const path = Object.fromEntries(operation.parameters.path.map((parameter) => [parameter.name, convert(document, parameter.schema, 'request')]));
  if (body === undefined && query.length === 0 && operation.parameters.path.length === 0) return undefined;
  return {
    ...(body !== undefined ? { body: convert(document, body, 'request') } : {}),
    ...(query.length > 0 ? { query } : {}),
    ...(operation.parameters.path.length > 0 ? { path } : {}),
  };
}

/** A query parameter the suite can draw values for: a scalar, or an array sent as `form` exploded (the default). */
export const isWritableQuery = (parameter: ParameterModel) => parameter.structure === undefined || (parameter.structure === 'array' && parameter.style === 'form' && parameter.explode);
