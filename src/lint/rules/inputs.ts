/**
 * Body rules: fields in snake_case (conventions §2: `created_after`,
 * `has_more`), in request and response bodies alike, and bounds on what a
 * request body may hold (unbounded input is how services get exhausted).
 */
import { parseRef } from '../../diagnostics.js';
import { isJsonMediaType } from '../../openapi/classify.js';
import {
  deref,
  isObject,
  isReference,
  type MediaTypeObject,
  type Reference,
  type RequestBodyObject,
  type ResponseObject,
  type SchemaObject,
} from '../../openapi/document.js';
import { queryParameters } from '../parameters.js';
import type { Finding, LintContext, LintOperation, LintRule } from '../rule.js';

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

export const fieldCasing: LintRule = {
  code: 'LINT_FIELD_CASING',
  severity: 'warning',
  check: (context) =>
    context.operations.flatMap((operation) => {
      const findings: Finding[] = queryParameterNames(context, operation);
      for (const body of [...requestBodies(context, operation), ...responseBodies(context, operation)]) {
        walkSchemas(context, body, (schema, at) => {
          for (const name of Object.keys(schema.properties ?? {})) {
            if (!SNAKE_CASE.test(name)) findings.push({ at: [...at, 'properties', name], message: `body field "${name}" is not snake_case`, operation });
          }
        });
      }
      return findings;
    }),
};

function queryParameterNames(context: LintContext, operation: LintOperation): Finding[] {
  return queryParameters(context, operation)
    .filter(({ parameter }) => !SNAKE_CASE.test(parameter.name))
    .map(({ parameter, at }) => ({ at, message: `query parameter "${parameter.name}" is not snake_case`, operation }));
}

export const boundedInput: LintRule = {
  code: 'LINT_UNBOUNDED_INPUT',
  severity: 'warning',
  check: (context) =>
    context.operations.flatMap((operation) => {
      const findings: Finding[] = [];
      for (const body of requestBodies(context, operation)) {
        walkSchemas(context, body, (schema, at) => {
          const unbounded = missingBound(schema);
          if (unbounded) findings.push({ at, message: unbounded, operation });
        });
      }
      return findings;
    }),
};

/** Formats whose values are bounded by their grammar. */
const BOUNDED_FORMATS = new Set(['date', 'date-time', 'time', 'uuid', 'ipv4', 'ipv6']);

function missingBound(schema: SchemaObject): string | undefined {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  // Fixed values bound themselves; a readOnly field is not accepted in a request at all.
  if (schema.enum !== undefined || schema.const !== undefined || schema.readOnly === true) return undefined;
  if (types.includes('string') && schema.maxLength === undefined && !BOUNDED_FORMATS.has(schema.format ?? '')) return 'a string without maxLength';
  if (types.includes('array') && schema.maxItems === undefined) return 'an array without maxItems';
  // In 3.0 `exclusiveMaximum: true` only qualifies `maximum`; in 3.1 a number is a bound of its own.
  if ((types.includes('integer') || types.includes('number')) && schema.maximum === undefined && typeof schema.exclusiveMaximum !== 'number') {
    return `${types.includes('integer') ? 'an integer' : 'a number'} without maximum`;
  }
  return undefined;
}

interface BodySchema {
  schema: SchemaObject | Reference;
  at: string[];
}

/**
 * Every schema inside a body, each once, with the pointer where it is
 * written (a `$ref`'s target, not the place that refers to it).
 */
function walkSchemas(context: LintContext, body: BodySchema, visit: (schema: SchemaObject, at: string[]) => void): void {
  const seen = new Set<string>();
  const walk = (schema: SchemaObject | Reference, at: string[], depth: number) => {
    const where = isReference(schema) ? parseRef(schema.$ref) : at;
    const key = where.join('/');
    if (depth > 16 || seen.has(key)) return;
    seen.add(key);
    const resolved = deref<SchemaObject>(context.document, schema);
    if (!resolved) return;
    visit(resolved, where);
    for (const [name, property] of Object.entries(resolved.properties ?? {})) walk(property, [...where, 'properties', name], depth + 1);
    if (resolved.items) walk(resolved.items, [...where, 'items'], depth + 1);
    for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
      (resolved[keyword] as (SchemaObject | Reference)[] | undefined)?.forEach((part, i) => walk(part, [...where, keyword, String(i)], depth + 1));
    }
  };
  walk(body.schema, body.at, 0);
}

function jsonSchemas(content: Record<string, MediaTypeObject> | undefined, base: string[]): BodySchema[] {
  return Object.entries(content ?? {}).flatMap(([type, media]) =>
    isJsonMediaType(type) && isObject(media.schema) ? [{ schema: media.schema, at: [...base, 'content', type, 'schema'] }] : [],
  );
}

function requestBodies(context: LintContext, operation: LintOperation): BodySchema[] {
  const body = operation.operation.requestBody;
  if (!body) return [];
  const base = isReference(body) ? parseRef(body.$ref) : ['paths', operation.path, operation.method, 'requestBody'];
  return jsonSchemas(deref<RequestBodyObject>(context.document, body)?.content, base);
}

function responseBodies(context: LintContext, operation: LintOperation): BodySchema[] {
  return Object.entries(operation.operation.responses ?? {}).flatMap(([status, response]) => {
    const base = isReference(response) ? parseRef(response.$ref) : ['paths', operation.path, operation.method, 'responses', status];
    return jsonSchemas(deref<ResponseObject>(context.document, response)?.content, base);
  });
}
