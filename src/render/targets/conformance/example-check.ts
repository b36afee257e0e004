/**
 * Whether a value a spec gives (an `example`, a `default`, a `const`) is
 * valid for the schema it stands in: specs ship examples that break their own
 * enums and patterns, and data built from them would break the answers the
 * suite checks. Judged the way the suite's assertions judge answers (ajv,
 * OpenAPI schemas read as JSON Schema in the given direction).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv as AjvDraft7, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { toPointer } from '../../../diagnostics.js';
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

/** One validator per document and direction, shared by the check and its explanation: GitHub's spec alone holds ~1,500 example sites. */
const validators = new WeakMap<OpenApiDocument, Partial<Record<SchemaDirection, DocumentValidator>>>();

interface DocumentValidator {
  /** A schema's validator, compiled on first use; null where ajv cannot compile it. */
  compiled: (schema: object) => ValidateFunction | null;
  /** Each schema object under components/schemas, as ajv holds it → its place in the spec. */
  places: WeakMap<object, string>;
}

/** One checker per document and direction; each schema compiled once, on first use. */
export function exampleCheckOf(document: OpenApiDocument, direction: SchemaDirection): ExampleCheck {
  const validate = validatorOf(document, direction).compiled;
  // A schema ajv cannot compile judges nothing: the value stands, as it would without this check.
  return (schema, value) => validate(schema)?.(value) ?? true;
}

/** The same judgement, with every rule broken (for a skip that names what defeated the sampler, a violation that breaks one rule only). */
export function exampleErrorsOf(document: OpenApiDocument, direction: SchemaDirection): ExampleErrors {
  const { compiled: validate, places } = validatorOf(document, direction);
  return (schema, value) => {
    const compiled = validate(schema);
    if (!compiled || compiled(value)) return [];
    return (compiled.errors ?? []).map((error) => ({
      keyword: error.keyword,
      at: placeOfRule(error, places),
      instancePath: error.instancePath,
      params: error.params as Record<string, unknown>,
    }));
  };
}

/**
 * The place in the spec of the schema that holds the broken rule. A named
 * schema ajv calls (one that holds a `$ref` itself) reports its errors from
 * its own root: its place comes from the object that holds the rule. Elsewhere
 * the error's path says it: `specforge:examples#/components/…/pattern` (a
 * named schema ajv copied in) → `#/components/…`; `#/properties/n/maximum`
 * (the schema checked) → `#/properties/n`, below where that schema stands.
 */
function placeOfRule(error: ErrorObject, places: WeakMap<object, string>): string {
  const holder = error.parentSchema;
  const named = isObject(holder) ? places.get(holder) : undefined;
  return named ?? (error.schemaPath.replace(/^[^#]*#/, '#').replace(/\/[^/]*$/, '') || '#');
}

function validatorOf(document: OpenApiDocument, direction: SchemaDirection): DocumentValidator {
  const known = validators.get(document) ?? {};
  validators.set(document, known);
  return (known[direction] ??= newValidator(document, direction));
}

function newValidator(document: OpenApiDocument, direction: SchemaDirection): DocumentValidator {
  const resolve = (ref: string) => lookup(document, ref);
  const intoRegistry = (ref: string) => (ref.startsWith('#') ? `${REGISTRY}${ref}` : ref);
  const Dialect = document.openapi.startsWith('3.0') ? AjvDraft7 : Ajv2020;
  // allErrors costs nothing on a valid value and lets one validator serve both the check and the explanation.
  // Each validator judges a few values: not optimizing its code saves a third of compiling it (0.6 s on GitHub's spec).
  // verbose: an error names the schema object that holds the broken rule, whose place `places` knows.
  const ajv = new Dialect({ strict: false, logger: false, allErrors: true, verbose: true, validateSchema: false, code: { optimize: false } });
  addFormats.default(ajv);
  const places = new WeakMap<object, string>();
  const named = Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => {
    const at = toPointer(['components', 'schemas', name]);
    return [name, toJsonSchema(schema, { direction, ref: (ref) => ref, resolve, annotations: false, places: { at, of: places } })];
  });
  ajv.addSchema({ $id: REGISTRY, components: { schemas: Object.fromEntries(named) } });
  const bySchema = new WeakMap<object, ValidateFunction | null>();
  // Inline schemas repeat across operations (the same `{ type: integer }` hundreds of times): compile each text once.
  const byText = new Map<string, ValidateFunction | null>();
  const compiled = (schema: object): ValidateFunction | null => {
    if (bySchema.has(schema)) return bySchema.get(schema) ?? null;
    // Without annotations: schemas that differ only in their descriptions (a thousand on GitHub's spec) share one compile.
    const jsonSchema = toJsonSchema(schema, { direction, ref: intoRegistry, resolve, annotations: false });
    const text = JSON.stringify(jsonSchema);
    let validate = byText.get(text);
    if (validate === undefined) {
      validate = compileOrNull(ajv, jsonSchema);
      byText.set(text, validate);
    }
    bySchema.set(schema, validate);
    return validate;
  };
  return { compiled, places };
}

function compileOrNull(ajv: AjvDraft7 | Ajv2020, schema: unknown): ValidateFunction | null {
  if (!isObject(schema) && typeof schema !== 'boolean') return null;
  try {
    return ajv.compile(schema as object);
  } catch {
    return null;
  }
}
