/**
 * Body rules: fields in snake_case (conventions §2: `created_after`,
 * `has_more`), in request and response bodies alike, and bounds on what a
 * request body may hold (unbounded input is how services get exhausted).
 */
import { parseRef } from '../../diagnostics.js';
import { isJsonMediaType, propertiesOf } from '../../openapi/classify.js';
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
      const { notSnakeCase } = memoOf(context);
      for (const body of [...requestBodies(context, operation), ...responseBodies(context, operation)]) {
        for (const { schema, at } of placesIn(context, body)) {
          for (const name of notSnakeCase(schema)) findings.push({ at: [...at, 'properties', name], message: `body field "${name}" is not snake_case`, operation });
        }
      }
      return findings;
    }),
};

/**
 * `additionalProperties: false` on a branch of an `allOf` closes that branch
 * alone: it refuses every property the other branches add, so an instance
 * that has any of them satisfies no such schema (JSON Schema's allOf does not
 * merge branches). What the validator, the service and the suite would then
 * disagree on is caught here instead.
 */
export const closedAllOf: LintRule = {
  code: 'LINT_CLOSED_ALLOF',
  severity: 'warning',
  check: (context) =>
    context.operations.flatMap((operation) => {
      const findings: Finding[] = [];
      const { closedBranches } = memoOf(context);
      for (const body of [...requestBodies(context, operation), ...responseBodies(context, operation)]) {
        for (const { schema, at } of placesIn(context, body)) {
          for (const closed of closedBranches(schema)) findings.push({ at: [...at, 'allOf', String(closed.index)], message: closed.message, operation });
        }
      }
      return findings;
    }),
};

interface ClosedBranch {
  index: number;
  message: string;
}

function closedBranchesOf(context: LintContext, schema: SchemaObject): ClosedBranch[] {
  const branches = (schema.allOf ?? []).map((branch) => ({ branch, resolved: deref<SchemaObject>(context.document, branch) }));
  const namesOf = (part: SchemaObject | undefined) => propertiesOf(context.document, part).map(({ name }) => name);
  return branches.flatMap(({ branch, resolved }, index) => {
    if (resolved?.additionalProperties !== false) return [];
    const own = new Set(namesOf(resolved));
    const added = [...branches.filter((_, other) => other !== index).flatMap(({ resolved: other }) => namesOf(other)), ...Object.keys(schema.properties ?? {})];
    const refused = [...new Set(added.filter((name) => !own.has(name)))];
    if (refused.length === 0) return [];
    const name = isReference(branch) ? `"${branch.$ref.split('/').pop()}"` : 'this branch';
    return [{ index, message: `allOf branch ${name} has additionalProperties: false and refuses ${refused.map((n) => `"${n}"`).join(', ')} that the other branches add: no instance with them is valid` }];
  });
}

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
        for (const { schema, at } of placesIn(context, body)) {
          const unbounded = missingBound(schema);
          if (unbounded) findings.push({ at, message: unbounded, operation });
        }
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

interface LocatedSchema {
  schema: SchemaObject;
  at: string[];
}

/**
 * What the body rules work out once per lint run, however many operations
 * share a body or a schema (GitHub's bodies share thousands): kept by the
 * run's context, so none of it outlives the run.
 */
interface BodyMemo {
  /** The schemas under each `$ref`, by its target's place. */
  subtrees: Map<string, LocatedSchema[]>;
  /** Each body's schemas, each place once, by the body's place. */
  places: Map<string, LocatedSchema[]>;
  /** A schema's property names that are not snake_case. */
  notSnakeCase: (schema: SchemaObject) => string[];
  closedBranches: (schema: SchemaObject) => ClosedBranch[];
}

const memos = new WeakMap<LintContext, BodyMemo>();

function memoOf(context: LintContext): BodyMemo {
  let memo = memos.get(context);
  if (!memo) {
    memo = {
      subtrees: new Map(),
      places: new Map(),
      notSnakeCase: memoized((schema) => Object.keys(schema.properties ?? {}).filter((name) => !SNAKE_CASE.test(name))),
      closedBranches: memoized((schema) => closedBranchesOf(context, schema)),
    };
    memos.set(context, memo);
  }
  return memo;
}

/**
 * Every schema inside a body, each once, with the pointer where it is
 * written (a `$ref`'s target, not the place that refers to it).
 */
function placesIn(context: LintContext, body: BodySchema): LocatedSchema[] {
  const { places } = memoOf(context);
  const key = body.at.join('/');
  let found = places.get(key);
  if (!found) places.set(key, (found = uniquePlaces(schemasIn(context, body))));
  return found;
}

function schemasIn(context: LintContext, body: BodySchema): LocatedSchema[] {
  const cache = memoOf(context).subtrees;
  const inProgress = new Set<string>(); // a schema that contains itself is walked once
  const collect = (schema: SchemaObject | Reference, at: string[], depth: number): LocatedSchema[] => {
    if (depth > 16) return [];
    if (!isReference(schema)) return [{ schema, at }, ...childrenOf(schema, at, depth)];
    const where = parseRef(schema.$ref);
    const key = where.join('/');
    const cached = cache.get(key);
    if (cached || inProgress.has(key)) return cached ?? [];
    inProgress.add(key);
    const resolved = deref<SchemaObject>(context.document, schema);
    // Each place once: a schema whose properties share one `$ref` would otherwise list its subtree once per property,
    // and a chain of such schemas (a fan-out) grow exponentially.
    const found = resolved ? uniquePlaces([{ schema: resolved, at: where }, ...childrenOf(resolved, where, depth)]) : [];
    inProgress.delete(key);
    cache.set(key, found);
    return found;
  };
  const childrenOf = (schema: SchemaObject, at: string[], depth: number): LocatedSchema[] => [
    ...Object.entries(schema.properties ?? {}).flatMap(([name, property]) => collect(property, [...at, 'properties', name], depth + 1)),
    ...(schema.items ? collect(schema.items, [...at, 'items'], depth + 1) : []),
    ...(['allOf', 'anyOf', 'oneOf'] as const).flatMap((keyword) =>
      ((schema[keyword] as (SchemaObject | Reference)[] | undefined) ?? []).flatMap((part, i) => collect(part, [...at, keyword, String(i)], depth + 1)),
    ),
  ];
  return collect(body.schema, body.at, 0);
}

/** A function of a schema, computed once per schema object. */
function memoized<T>(compute: (schema: SchemaObject) => T): (schema: SchemaObject) => T {
  const results = new WeakMap<SchemaObject, T>();
  return (schema) => {
    let result = results.get(schema);
    if (result === undefined) results.set(schema, (result = compute(schema)));
    return result;
  };
}

function uniquePlaces(schemas: LocatedSchema[]): LocatedSchema[] {
  const byPlace = new Map<string, LocatedSchema>();
  for (const located of schemas) {
    const key = located.at.join('/');
    if (!byPlace.has(key)) byPlace.set(key, located);
  }
  return [...byPlace.values()];
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
