/**
 * Request validators, compiled by ajv now so the generated service compiles
 * no schema when it starts: `validators/parameters.ts` (path, query and
 * header values, coerced from their text to the declared types, defaults
 * filled in), `validators/bodies.ts` (JSON bodies, taken as sent, defaults
 * filled in) and `validators/patches.ts` (PATCH bodies, taken as sent with
 * nothing added: a PATCH changes only what it names, so a field it leaves out
 * must not come back as its schema's default) and `validators/forms.ts` (the
 * fields of a form, coerced from their text like parameters, defaults filled
 * in; its files are checked as they arrive, conventions/upload.ts).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv as AjvDraft7 } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';
import { diagnostic, SpecforgeError, toPointer, type Diagnostic } from '../../../diagnostics.js';
import type { OperationModel, ParameterModel } from '../../../model/index.js';
import { deref, lookup, type OpenApiDocument, type OperationObject, type RequestBodyObject } from '../../../openapi/document.js';
import { toJsonSchema } from '../../../openapi/json-schema.js';
import { compiledWorker, runOnWorker } from '../../../threads.js';
import { ParameterRefused, parameterSharing } from './shared-parameters.js';

/** The registry every validator's `$ref`s point into: the merged spec's schemas, in request form. */
const REGISTRY = 'specforge:spec';

export interface ValidatorSources {
  parameters: string;
  bodies: string;
  patches: string;
  forms: string;
}

/** What ajv compiles: plain data, so it can be handed to a worker thread. */
export interface ValidatorInputs {
  dialect: 'draft-07' | '2020-12';
  registry: object;
  /** Export name → schema, for each operation. */
  parameters: [string, object][];
  bodies: [string, object][];
  /** PATCH bodies: compiled apart, without ajv's `useDefaults`. */
  patches: [string, object][];
  /** Form fields: coerced from text, without the file fields. */
  forms: [string, object][];
  /** Export name → the operation it validates, for a diagnostic. */
  operations: Record<string, { operationId: string; pointer: string }>;
}

/** What compiling gives: the modules, or the problems of schemas ajv refused (plain data: it may come from a worker). */
export type CompiledValidators = { sources: ValidatorSources } | { problems: Diagnostic[] };

/** The schemas to compile, from the merged spec; `names` are the export names, one per operation. */
export function validatorInputs(document: OpenApiDocument, operations: readonly OperationModel[], names: readonly string[]): ValidatorInputs {
  const parameters: [string, object][] = [];
  const bodies: [string, object][] = [];
  const patches: [string, object][] = [];
  const forms: [string, object][] = [];
  const origins: ValidatorInputs['operations'] = {};
  operations.forEach((operation, index) => {
    const name = names[index]!;
    origins[name] = { operationId: operation.operationId, pointer: toPointer(['paths', operation.path, operation.method]) };
    parameters.push([name, parametersSchema(operation)]);
    // Every JSON body gets a validator where its route looks for one: a media type without a schema takes any JSON.
    if (operation.requestBody?.jsonContentType) (fillsDefaults(operation) ? bodies : patches).push([name, (bodySchema(document, operation) ?? {}) as object]);
    // The form's own schema: its files stand in the validated document as their names (conventions/operation.ts).
    if (operation.requestBody?.form) forms.push([name, (bodySchema(document, operation, operation.requestBody.form.schemaMediaType) ?? {}) as object]);
  });
  return { dialect: document.openapi.startsWith('3.0') ? 'draft-07' : '2020-12', registry: registrySchema(document), parameters, bodies, patches, forms, operations: origins };
}

/** Whether the body's validator fills in the schema's defaults: every body but a PATCH's, which changes only what it names. */
export function fillsDefaults(operation: Pick<OperationModel, 'method'>): boolean {
  return operation.method !== 'patch';
}

/** Past this many operations, compiling (seconds on a large API) goes to a worker while the other targets render. */
const ON_A_WORKER = 200;

/** The validators' modules; a schema ajv cannot compile (no valid JSON Schema, a pattern no regular expression) stops the run with its place. */
export async function compileValidatorsBeside(inputs: ValidatorInputs): Promise<ValidatorSources> {
  const script = inputs.parameters.length > ON_A_WORKER ? compiledWorker(new URL('./validators-worker.js', import.meta.url)) : undefined;
  const compiled = script ? await runOnWorker<CompiledValidators>(script, inputs, 'validator compilation') : compileValidators(inputs);
  if ('problems' in compiled) throw new SpecforgeError(compiled.problems);
  return compiled.sources;
}

/** ajv's standalone code for every validator. */
export function compileValidators(inputs: ValidatorInputs): CompiledValidators {
  const { dialect, registry, parameters, bodies, patches, forms, operations } = inputs;
  const problems: Diagnostic[] = [];
  const refused = (what: string, name: string | undefined, error: unknown) => {
    const reason = error instanceof ParameterRefused ? error.reason : error;
    if (!refusesSchema(reason)) throw reason; // anything else is a bug of ours, not a problem of the spec
    const origin = name === undefined ? undefined : operations[name];
    const detail = error instanceof ParameterRefused ? `${error.parameter}: ${schemaErrorText(reason, '')}` : schemaErrorText(reason);
    problems.push(
      origin
        ? diagnostic('SPEC_INVALID', `the ${what} schema of operation "${origin.operationId}" cannot be compiled: ${detail}`, { pointer: origin.pointer })
        : diagnostic('SPEC_INVALID', `a schema under components/schemas cannot be compiled: ${detail}`, { pointer: '#/components/schemas' }),
    );
  };
  const compile = (schemas: [string, object][], what: string, { coerce, defaults, shared = false }: { coerce: boolean; defaults: boolean; shared?: boolean }) => {
    // No ajv for a module without validators (most APIs take no PATCH body): it is empty, and not emitted where it is `patches`.
    if (schemas.length === 0) return moduleOf('');
    let ajv: AjvDraft7 | Ajv2020;
    try {
      ajv = newAjv({ coerce, defaults, dialect, shared }, registry);
    } catch (error) {
      refused(what, undefined, error);
      return '';
    }
    const share = shared ? parameterSharing(ajv) : (schema: object) => schema;
    const exports: Record<string, string> = {};
    // Operations share their schemas (GitHub: 1,223 parameter sets, 603 distinct): each distinct one is
    // compiled once, under the first operation's name, and the others' names are that one's.
    const firstBySchema = new Map<string, string>();
    const aliases: string[] = [];
    for (const [name, schema] of schemas) {
      const text = JSON.stringify(schema);
      const first = firstBySchema.get(text);
      if (first !== undefined) {
        aliases.push(`export const ${name} = ${first};`);
        continue;
      }
      const id = `specforge:operation/${name}`;
      try {
        ajv.addSchema({ $id: id, ...share(schema) });
        ajv.getSchema(id); // compiled now, to tell which operation's schema fails; standalone() reuses it
      } catch (error) {
        refused(what, name, error);
        ajv.removeSchema(id);
        continue;
      }
      exports[name] = id;
      firstBySchema.set(text, name);
    }
    return problems.length > 0 ? '' : moduleOf([standalone.default(ajv, exports), ...aliases].join('\n'));
  };
  const sources = {
    parameters: compile(parameters, 'parameters', { coerce: true, defaults: true, shared: true }),
    bodies: compile(bodies, 'request body', { coerce: false, defaults: true }),
    patches: compile(patches, 'request body', { coerce: false, defaults: false }),
    forms: compile(forms, 'form', { coerce: true, defaults: true }),
  };
  // The registry is in every module: its problems are told once.
  const told = new Set<string>();
  const key = (problem: Diagnostic) => `${problem.pointer}\n${problem.message}`;
  const distinct = problems.filter((problem) => !told.has(key(problem)) && told.add(key(problem)));
  return distinct.length > 0 ? { problems: distinct } : { sources };
}

/**
 * What ajv throws for a schema it cannot compile (its messages, ajv 8): one
 * its meta-schema refuses, a pattern no regular expression, a `$ref` it cannot
 * resolve, a keyword of the wrong type (`minLength: "one"`), an `enum` or a
 * discriminator it cannot take, an `$id` or anchor twice. Anything else it
 * throws is a bug of ours and stays one.
 */
const SCHEMA_REFUSALS = [
  /^schema is invalid: /,
  /^can't resolve reference /,
  /^reference ".*" resolves to more than one schema/,
  /^schema with key or id ".*" already exists/,
  /^(schema .* must be string|\$schema must be a string|schema must be object)/,
  /^invalid anchor /,
  / only supports hash fragment reference/,
  / value must be \[/,
  /^type must be JSONType/,
  /^enum (must have non-empty array|items must be unique)/,
  /^type: null contradicts nullable: false|^"nullable" cannot be used without "type"/,
  /^discriminator: /,
  /^parent schema must have dependencies of /,
];

function refusesSchema(error: unknown): boolean {
  if (error instanceof SyntaxError) return /regular expression/i.test(error.message);
  return error instanceof Error && SCHEMA_REFUSALS.some((refusal) => refusal.test(error.message));
}

/**
 * ajv's reason, in the spec's terms: `data/properties/query/properties/q/type`
 * is the query parameter q's `type`; `root` stands for the schema's own `data/`.
 */
function schemaErrorText(error: unknown, root = '/'): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/^schema is invalid: /, '')
    .replace(/data\/properties\/(path|query|headers)\/properties\/([^/\s,]+)\//g, (_, location: string, name: string) => `${location === 'headers' ? 'header' : location} parameter ${name}: `)
    .replace(/\bdata\//g, root);
}

/**
 * 3.1 schemas are JSON Schema 2020-12. 3.0 ones are closer to draft 07 (where
 * `$ref` siblings are ignored, as OpenAPI 3.0 says); ajv's draft-07 code is
 * also a quarter faster to compile, without 2020's evaluation tracking.
 */
function newAjv(
  { coerce, defaults, dialect, shared }: { coerce: boolean; defaults: boolean; dialect: 'draft-07' | '2020-12'; shared: boolean },
  registry: object,
): AjvDraft7 | Ajv2020 {
  const Dialect = dialect === 'draft-07' ? AjvDraft7 : Ajv2020;
  const ajv = new Dialect({
    code: { source: true, esm: true, lines: false },
    allErrors: true, // one detail per invalid field, not only the first
    strict: false, // specs carry keywords of their own (x-…, OpenAPI annotations)
    logger: false,
    useDefaults: defaults,
    discriminator: true, // a `oneOf` with a discriminator checks only the branch its tag names (json-schema.ts)
    ...(coerce ? { coerceTypes: 'array' as const } : {}),
    // Shared schemas are called, not copied into each place that uses them (shared-parameters.ts).
    ...(shared ? { inlineRefs: false } : {}),
  });
  addFormats.default(ajv);
  ajv.addSchema(registry);
  return ajv;
}

function registrySchema(document: OpenApiDocument): object {
  const schemas = document.components?.schemas ?? {};
  const resolve = (ref: string) => lookup(document, ref);
  const converted = Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, toJsonSchema(schema, { direction: 'request', ref: (ref) => ref, resolve, annotations: false })]));
  return { $id: REGISTRY, components: { schemas: converted } };
}

/** Local `$ref`s of an operation's own schemas, pointed into the registry. */
const intoRegistry = (ref: string) => (ref.startsWith('#') ? `${REGISTRY}${ref}` : ref);

function parametersSchema(operation: OperationModel): object {
  const { path, query, header } = operation.parameters;
  return {
    type: 'object',
    properties: {
      path: locationSchema(path, { additional: true }),
      // Unknown query parameters are refused: a misspelt filter must not pass as "no filter".
      query: locationSchema(query, { additional: false }),
      // Node gives header names in lower case.
      headers: locationSchema(header.map((parameter) => ({ ...parameter, name: parameter.name.toLowerCase() })), { additional: true }),
    },
  };
}

function locationSchema(parameters: ParameterModel[], { additional }: { additional: boolean }): object {
  const required = parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name);
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, toJsonSchema(parameter.schema, { direction: 'request', ref: intoRegistry, annotations: false })])),
    ...(required.length > 0 ? { required } : {}),
    ...(additional ? {} : { additionalProperties: false }),
  };
}

function bodySchema(document: OpenApiDocument, operation: OperationModel, mediaType = operation.requestBody!.jsonContentType!): unknown {
  const source = document.paths?.[operation.path]?.[operation.method] as OperationObject | undefined;
  const body = source?.requestBody && deref<RequestBodyObject>(document, source.requestBody);
  const schema = body?.content[mediaType]?.schema;
  return schema === undefined ? undefined : toJsonSchema(schema, { direction: 'request', ref: intoRegistry, resolve: (ref) => lookup(document, ref), annotations: false });
}

/**
 * ajv's ES module output still `require`s its runtime helpers (formats,
 * string length): give it a `require`. Type-checking is off, as for any
 * compiled code, and each export is declared a `Validator`, so the compiler
 * never infers the types of the compiled functions (on a large API, that
 * inference is slow and gives up). Those two are all the TypeScript in it:
 * the conformance suite's jest transform takes them out rather than have
 * TypeScript parse megabytes of JavaScript (runtime/conformance/validators-transform.cjs).
 */
function moduleOf(code: string): string {
  return [
    '// @ts-nocheck: code compiled by ajv from the merged spec.',
    "import { createRequire } from 'node:module';",
    "import type { Validator } from '../conventions/validation.js';",
    '',
    'const require = createRequire(import.meta.url);',
    code.replace(/^"use strict";/, '').replace(/export const ([\p{ID_Continue}$]+) = /gu, 'export const $1: Validator = '),
    '',
  ].join('\n');
}
