/**
 * Whether a value a spec gives (an `example`, a `default`, a `const`) is
 * valid for the schema it stands in: specs ship examples that break their own
 * enums and patterns, and data built from them would break the answers the
 * suite checks. Judged the way the suite's assertions judge answers (ajv,
 * OpenAPI schemas read as JSON Schema in the given direction).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv as AjvDraft7, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { isObject, lookup, type OpenApiDocument } from '../../../openapi/document.js';
import { toJsonSchema, type SchemaDirection } from '../../../openapi/json-schema.js';

const REGISTRY = 'specforge:examples';

export type ExampleCheck = (schema: object, value: unknown) => boolean;

/** What of a schema a value breaks: the keyword, where it stands in the spec (a JSON pointer) and where in the value. */
export interface Breach {
  keyword: string;
  at: string;
  instancePath: string;
  params: Record<string, unknown>;
}

/** Every rule of the schema the value breaks; none for a valid value. */
export type ExampleErrors = (schema: object, value: unknown) => Breach[];

const checks = new WeakMap<OpenApiDocument, Partial<Record<SchemaDirection, ExampleCheck>>>();
const explainers = new WeakMap<OpenApiDocument, Partial<Record<SchemaDirection, ExampleErrors>>>();

/** One checker per document and direction; each schema compiled once, on first use. */
export function exampleCheckOf(document: OpenApiDocument, direction: SchemaDirection): ExampleCheck {
  const known = checks.get(document) ?? {};
  checks.set(document, known);
  return (known[direction] ??= newCheck(document, direction, false));
}

/** The same judgement, with every rule broken (for a skip that names what defeated the sampler, a violation that breaks one rule only). */
export function exampleErrorsOf(document: OpenApiDocument, direction: SchemaDirection): ExampleErrors {
  const known = explainers.get(document) ?? {};
  explainers.set(document, known);
  return (known[direction] ??= newErrors(document, direction));
}

function newCheck(document: OpenApiDocument, direction: SchemaDirection, allErrors: boolean): ExampleCheck {
  const validate = validatorOf(document, direction, allErrors);
  // A schema ajv cannot compile judges nothing: the value stands, as it would without this check.
  return (schema, value) => validate(schema)?.(value) ?? true;
}

function newErrors(document: OpenApiDocument, direction: SchemaDirection): ExampleErrors {
  const validate = validatorOf(document, direction, true);
  return (schema, value) => {
    const compiled = validate(schema);
    if (!compiled || compiled(value)) return [];
    return (compiled.errors ?? []).map((error) => ({
      keyword: error.keyword,
      // `specforge:examples#/components/…/pattern` → `#/components/…`: the keyword's place in the spec.
      at: error.schemaPath.replace(/^[^#]*#/, '#').replace(/\/[^/]*$/, '') || '#',
      instancePath: error.instancePath,
      params: error.params as Record<string, unknown>,
    }));
  };
}

function validatorOf(document: OpenApiDocument, direction: SchemaDirection, allErrors: boolean): (schema: object) => ValidateFunction | null {
  const resolve = (ref: string) => lookup(document, ref);
  const intoRegistry = (ref: string) => (ref.startsWith('#') ? `${REGISTRY}${ref}` : ref);
  const Dialect = document.openapi.startsWith('3.0') ? AjvDraft7 : Ajv2020;
  const ajv = new Dialect({ strict: false, logger: false, allErrors, validateSchema: false });
  addFormats.default(ajv);
  const schemas = document.components?.schemas ?? {};
  ajv.addSchema({
    $id: REGISTRY,
    components: { schemas: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, toJsonSchema(schema, { direction, ref: (ref) => ref, resolve })])) },
  });
  const compiled = new WeakMap<object, ValidateFunction | null>();
  return (schema) => {
    if (!compiled.has(schema)) compiled.set(schema, compileOrNull(ajv, toJsonSchema(schema, { direction, ref: intoRegistry, resolve })));
    return compiled.get(schema) ?? null;
  };
}

function compileOrNull(ajv: AjvDraft7 | Ajv2020, schema: unknown): ValidateFunction | null {
  if (!isObject(schema) && typeof schema !== 'boolean') return null;
  try {
    return ajv.compile(schema as object);
  } catch {
    return null;
  }
}
