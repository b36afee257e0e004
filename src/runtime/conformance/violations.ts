/**
 * Requests that break one rule of an otherwise valid body: a required
 * member left out, a value of another type, outside its enum, its bounds,
 * its length, its pattern or its format, a member a closed object does not
 * name, too many or too few items. Each is found by walking a valid value
 * beside its schema, at any depth.
 */
import type { ValidateFunction } from 'ajv';
import { normalized } from './arbitraries.js';
import type { Json, JsonObject } from './harness.js';

/** One rule broken at one place of the body: a JSON pointer, and what is sent there instead. */
export interface Violation {
  pointer: string;
  rule: string;
  /** The body with the rule broken. */
  body: Json;
}

type Schema = { [keyword: string]: any };
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Bounds past which breaking one makes a body a service may refuse for its
 * size first (413): too many items (GitHub's 5000 deployments), too long a string.
 */
const LARGEST_BREAK = 100;

/** Every rule the body can be made to break, the validator confirming each is broken. */
export function violationsOf(schema: object, body: Json, validate: ValidateFunction): Violation[] {
  return candidatesOf(schema, body, '', 0)
    .map(({ pointer, rule, value }) => ({ pointer, rule, body: replaced(body, pointer, value) }))
    .filter((violation) => !validate(violation.body));
}

interface Candidate {
  pointer: string;
  rule: string;
  /** What stands at `pointer` instead; undefined leaves the member out. */
  value: Json | undefined;
}

function candidatesOf(schema: unknown, value: Json, pointer: string, depth: number): Candidate[] {
  const resolved = normalized(schema);
  if (depth > 6) return [];
  const branches = resolved.oneOf ?? resolved.anyOf;
  // Each branch's rules, with what the schema says beside them: the validator keeps those the value then breaks as a whole.
  if (Array.isArray(branches))
    return branches.flatMap((branch: unknown) => {
      const { oneOf: _oneOf, anyOf: _anyOf, ...beside } = resolved;
      return candidatesOf({ allOf: [beside, branch] }, value, pointer, depth + 1);
    });
  const here = [...typeBreaks(resolved, value, pointer), ...valueBreaks(resolved, value, pointer)];
  if (isObject(value)) return [...here, ...memberBreaks(resolved, value, pointer, depth)];
  if (Array.isArray(value)) return [...here, ...itemBreaks(resolved, value, pointer, depth)];
  return here;
}

const escape = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

function memberBreaks(
  schema: Schema,
  value: JsonObject,
  pointer: string,
  depth: number,
): Candidate[] {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required: string[] = Array.isArray(schema.required) ? schema.required : [];
  // A member with a default is filled in by a service that applies defaults: leaving it out breaks nothing.
  const candidates: Candidate[] = required
    .filter((name) => name in value && normalized(properties[name]).default === undefined)
    .map((name) => ({
      pointer: `${pointer}/${escape(name)}`,
      rule: `missing required ${name}`,
      value: undefined,
    }));
  if (schema.additionalProperties === false)
    candidates.push({
      pointer: `${pointer}/unexpected_member`,
      rule: 'a member the object does not name',
      value: 1,
    });
  for (const [name, member] of Object.entries(value))
    if (name in properties)
      candidates.push(
        ...candidatesOf(properties[name], member, `${pointer}/${escape(name)}`, depth + 1),
      );
  return candidates;
}

function itemBreaks(schema: Schema, value: Json[], pointer: string, depth: number): Candidate[] {
  const candidates: Candidate[] = [];
  if (typeof schema.maxItems === 'number' && schema.maxItems <= LARGEST_BREAK && value.length > 0)
    candidates.push({
      pointer,
      rule: `more than ${schema.maxItems} items`,
      value: Array.from({ length: schema.maxItems + 1 }, (_, at) => value[at % value.length]!),
    });
  if (typeof schema.minItems === 'number' && schema.minItems > 0)
    candidates.push({
      pointer,
      rule: `fewer than ${schema.minItems} items`,
      value: value.slice(0, schema.minItems - 1),
    });
  if (schema.uniqueItems === true && value.length > 0)
    candidates.push({ pointer, rule: 'a repeated item', value: [value[0]!, ...value] });
  if (isObject(schema.items) && value.length > 0)
    candidates.push(...candidatesOf(schema.items, value[0]!, `${pointer}/0`, depth + 1));
  return candidates;
}

/** A value of a type the schema does not allow. */
function typeBreaks(schema: Schema, value: Json, pointer: string): Candidate[] {
  const types: string[] =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  if (types.length === 0) return [];
  const other = (
    [
      ['string', 'a string'],
      ['integer', 12345],
      ['boolean', true],
      ['object', { value }],
      ['array', [value]],
    ] as const
  ).find(([type]) => !types.includes(type) && !(type === 'integer' && types.includes('number')));
  return other
    ? [
        {
          pointer,
          rule: `a ${other[0]} where ${types.join(' or ')} is expected`,
          value: other[1] as Json,
        },
      ]
    : [];
}

/** A value of the right type outside its enum, bounds, length, pattern or format. */
function valueBreaks(schema: Schema, value: Json, pointer: string): Candidate[] {
  const candidates: Candidate[] = [];
  const at = (rule: string, broken: Json) => candidates.push({ pointer, rule, value: broken });
  if (Array.isArray(schema.enum))
    at(
      'a value outside the enum',
      typeof schema.enum[0] === 'number' ? 987654321 : 'not-in-the-enum',
    );
  if (schema.const !== undefined)
    at(
      'another value than its const',
      typeof schema.const === 'string' ? `${schema.const}-other` : 'other',
    );
  if (typeof value === 'string') {
    if (typeof schema.maxLength === 'number' && schema.maxLength <= LARGEST_BREAK * 100)
      at(`longer than ${schema.maxLength}`, 'x'.repeat(schema.maxLength + 1));
    if (typeof schema.minLength === 'number' && schema.minLength > 0)
      at(`shorter than ${schema.minLength}`, value.slice(0, schema.minLength - 1));
    if (typeof schema.pattern === 'string') {
      const pattern = new RegExp(schema.pattern, 'u');
      const unmatched = ['', '!', ' x ', '\u0000', '~~~~~~~~'].find(
        (candidate) => !pattern.test(candidate),
      );
      if (unmatched !== undefined) at(`not matching ${schema.pattern}`, unmatched);
    }
    if (typeof schema.format === 'string') at(`not a ${schema.format}`, `not a ${schema.format}`);
  }
  if (typeof value === 'number') {
    if (typeof schema.maximum === 'number') at(`above ${schema.maximum}`, schema.maximum + 1);
    if (typeof schema.exclusiveMaximum === 'number')
      at(`not below ${schema.exclusiveMaximum}`, schema.exclusiveMaximum);
    if (typeof schema.minimum === 'number') at(`below ${schema.minimum}`, schema.minimum - 1);
    if (typeof schema.exclusiveMinimum === 'number')
      at(`not above ${schema.exclusiveMinimum}`, schema.exclusiveMinimum);
    if (typeof schema.multipleOf === 'number')
      at(
        `not a multiple of ${schema.multipleOf}`,
        value + (schema.multipleOf > 1 ? 1 : schema.multipleOf / 2),
      );
  }
  return candidates;
}

/** The body with `value` at `pointer` (left out where undefined); the rest as it was. */
function replaced(body: Json, pointer: string, value: Json | undefined): Json {
  if (pointer === '') return value ?? null;
  const [head, ...rest] = pointer.slice(1).split('/');
  const name = head!.replace(/~1/g, '/').replace(/~0/g, '~');
  const tail = rest.length > 0 ? `/${rest.join('/')}` : '';
  if (Array.isArray(body)) {
    const copy = [...body];
    copy[Number(name)] = replaced(body[Number(name)]!, tail, value);
    return copy;
  }
  const copy: JsonObject = { ...(body as JsonObject) };
  if (tail === '' && value === undefined) delete copy[name];
  else copy[name] = tail === '' ? value! : replaced(copy[name] ?? {}, tail, value);
  return copy;
}
