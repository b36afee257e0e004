/**
 * Input rules: query parameters and body fields in snake_case (conventions
 * §2), and bounds on what a request body may hold (unbounded input is how
 * services get exhausted).
 */
import { isJsonMediaType } from '../../openapi/classify.js';
import {
  deref,
  isObject,
  isReference,
  type ParameterObject,
  type Reference,
  type RequestBodyObject,
  type SchemaObject,
} from '../../openapi/document.js';
import { parseRef } from '../../diagnostics.js';
import type { Finding, LintContext, LintOperation, LintRule } from '../rule.js';

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

export const fieldCasing: LintRule = {
  code: 'LINT_FIELD_CASING',
  severity: 'warning',
  check(context) {
    const findings: Finding[] = [];
    for (const operation of context.operations) {
      (operation.operation.parameters ?? []).forEach((parameter, index) => {
        const p = deref<ParameterObject>(context.document, parameter);
        if (p?.in === 'query' && !SNAKE_CASE.test(p.name)) {
          findings.push({ at: ['paths', operation.path, operation.method, 'parameters', String(index)], message: `query parameter "${p.name}" is not snake_case`, operation });
        }
      });
      for (const { schema, at } of bodySchemas(context, operation)) {
        const base = isReference(schema) ? parseRef(schema.$ref) : at;
        const properties = deref<SchemaObject>(context.document, schema)?.properties ?? {};
        for (const name of Object.keys(properties)) {
          if (!SNAKE_CASE.test(name)) findings.push({ at: [...base, 'properties', name], message: `body field "${name}" is not snake_case`, operation });
        }
      }
    }
    return dedupe(findings);
  },
};

export const boundedInput: LintRule = {
  code: 'LINT_UNBOUNDED_INPUT',
  severity: 'warning',
  check(context) {
    const findings: Finding[] = [];
    const seen = new Set<string>();
    const visit = (schema: SchemaObject | Reference, at: string[], operation: LintOperation, depth: number) => {
      if (depth > 12) return;
      const target = isReference(schema) ? parseRef(schema.$ref) : at;
      const key = target.join('/');
      if (seen.has(key)) return; // each schema once, wherever it is used
      seen.add(key);
      const resolved = deref<SchemaObject>(context.document, schema);
      if (!resolved) return;
      const unbounded = missingBound(resolved);
      if (unbounded) findings.push({ at: target, message: unbounded, operation });
      for (const [name, property] of Object.entries(resolved.properties ?? {})) visit(property, [...target, 'properties', name], operation, depth + 1);
      if (resolved.items) visit(resolved.items, [...target, 'items'], operation, depth + 1);
      for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
        (resolved[keyword] as (SchemaObject | Reference)[] | undefined)?.forEach((part, i) => visit(part, [...target, keyword, String(i)], operation, depth + 1));
      }
    };
    for (const operation of context.operations) {
      for (const { schema, at } of bodySchemas(context, operation)) visit(schema, at, operation, 0);
    }
    return findings;
  },
};

/** Formats whose values are bounded by their grammar. */
const BOUNDED_FORMATS = new Set(['date', 'date-time', 'time', 'uuid', 'ipv4', 'ipv6', 'int32', 'int64', 'byte']);

function missingBound(schema: SchemaObject): string | undefined {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.enum !== undefined || schema.const !== undefined) return undefined;
  if (types.includes('string') && schema.maxLength === undefined && !BOUNDED_FORMATS.has(schema.format ?? '')) return 'a string without maxLength';
  if (types.includes('array') && schema.maxItems === undefined) return 'an array without maxItems';
  if ((types.includes('integer') || types.includes('number')) && schema.maximum === undefined && schema.exclusiveMaximum === undefined) {
    return `${types.includes('integer') ? 'an integer' : 'a number'} without maximum`;
  }
  return undefined;
}

/** The JSON schemas of an operation's request body, with where each stands. */
function bodySchemas(context: LintContext, operation: LintOperation): { schema: SchemaObject | Reference; at: string[] }[] {
  const body = operation.operation.requestBody;
  if (!body) return [];
  const base = isReference(body) ? parseRef(body.$ref) : ['paths', operation.path, operation.method, 'requestBody'];
  const resolved = deref<RequestBodyObject>(context.document, body);
  return Object.entries(resolved?.content ?? {}).flatMap(([type, media]) =>
    isJsonMediaType(type) && isObject(media.schema) ? [{ schema: media.schema, at: [...base, 'content', type, 'schema'] }] : [],
  );
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = finding.at.join('/');
    return !seen.has(key) && seen.add(key);
  });
}
