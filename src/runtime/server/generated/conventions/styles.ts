/**
 * Parameter values as OpenAPI writes them (3.x, "Style Values"), read back
 * into arrays and objects before validation: `?ids=1,2,3` (form, not
 * exploded), `?R=100&G=200` (form object, exploded), `?filter[status]=open`
 * (deepObject), `X-Color: R=100,G=200` (simple, exploded). The items stay
 * text; the validator then coerces them to the declared types. Plain scalars
 * and exploded form arrays (`?id=1&id=2`) need no reading and are not listed.
 */
import type { ErrorDetail } from './errors.js';

export type StyleName = 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject' | 'simple';

/** A parameter that is not a plain scalar, as the route table describes it. */
export interface StyledParameter {
  /** As the request carries it (header names in lower case). */
  name: string;
  style: StyleName;
  explode: boolean;
  type: 'array' | 'object';
  /** An exploded form object: the property names it takes from the query, each sent as a parameter of its own. */
  properties?: readonly string[];
}

export interface ParameterStyles {
  query?: readonly StyledParameter[];
  header?: readonly StyledParameter[];
}

type Values = Record<string, string | string[] | undefined>;

/** The values read, and a detail per parameter that could not be read (its raw value is left out). */
export interface Deserialized {
  values: Record<string, unknown>;
  problems: ErrorDetail[];
}

/**
 * Unexploded query lists: the delimiter between items as written, still
 * percent-encoded (a space is written `%20` or `+`). An item that holds a
 * comma has it encoded (`a%2Cb,c` is `a,b` and `c`). The spec's own examples
 * encode a pipe (`blue%7Cblack`), so a pipe inside an item, like a space
 * inside a `spaceDelimited` one, cannot be told from the delimiter.
 */
const DELIMITERS: Partial<Record<StyleName, string | RegExp>> = {
  form: ',',
  spaceDelimited: /%20|\+| /,
  pipeDelimited: /%7C|\|/i,
};

/** What URLSearchParams would decode or drop: `%`, `+`, a leading `?`; or a surrogate, which it may replace. */
const NEEDS_DECODING = /^\?|[%+\uD800-\uDFFF]/;

/**
 * The query string's parameters as Koa's `ctx.query` reads them (the URL
 * standard's form decoding: a repeated name gives a list). One with nothing
 * to decode or drop (no `%`, `+`, leading `?` or surrogate) is split
 * here: URLSearchParams, as Koa uses it, costs a list page a twentieth of
 * its time.
 */
export function queryOf(search: string): Values {
  if (NEEDS_DECODING.test(search)) return decodedQueryOf(search);
  const values: Values = {};
  if (search === '') return values;
  for (const pair of search.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    addValue(
      values,
      equals < 0 ? pair : pair.slice(0, equals),
      equals < 0 ? '' : pair.slice(equals + 1),
    );
  }
  return values;
}

function decodedQueryOf(search: string): Values {
  const values: Values = {};
  for (const [name, value] of new URLSearchParams(search)) addValue(values, name, value);
  return values;
}

function addValue(values: Values, name: string, value: string): void {
  const seen = Object.hasOwn(values, name) ? values[name] : undefined;
  if (Array.isArray(seen)) seen.push(value);
  else if (seen !== undefined) values[name] = [seen, value];
  // `__proto__` names a parameter like any other: defined, where assigning it would set the prototype.
  else if (name === '__proto__')
    Object.defineProperty(values, name, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  else values[name] = value;
}

/**
 * The query with each styled parameter read; the keys it was written with
 * (`filter[status]`, `R`) taken out. Delimited lists are read from the query
 * string as sent (`search`, still percent-encoded), split before decoding.
 */
export function deserializeQuery(
  query: Values,
  parameters: readonly StyledParameter[],
  search: string,
): Deserialized {
  const values: Record<string, unknown> = { ...query };
  const problems: ErrorDetail[] = [];
  for (const parameter of parameters) {
    const read = queryParameterOf(values, parameter, search);
    place(values, parameter.name, read, `query.${parameter.name}`, problems);
  }
  return { values, problems };
}

/** One styled query parameter, read from the decoded `values` or, for a delimited list, from the query string as sent. */
function queryParameterOf(
  values: Record<string, unknown>,
  parameter: StyledParameter,
  search: string,
): Read {
  if (parameter.style === 'deepObject') return deepObjectOf(values, parameter.name);
  if (parameter.type === 'object' && parameter.explode)
    return explodedObjectOf(values, parameter.properties ?? []);
  // An exploded array arrives as a repeated parameter, already a list.
  if (parameter.type === 'array' && parameter.explode) return { value: values[parameter.name] };
  return listOf(writtenValuesOf(search, parameter.name), parameter);
}

/** The headers with each styled one read (`simple`: items separated by commas). */
export function deserializeHeaders(
  headers: Values,
  parameters: readonly StyledParameter[],
): Deserialized {
  const values: Record<string, unknown> = { ...headers };
  const problems: ErrorDetail[] = [];
  for (const parameter of parameters) {
    const read = listOf(headers[parameter.name], {
      ...parameter,
      style: 'simple',
    });
    place(values, parameter.name, read, `header.${parameter.name}`, problems);
  }
  return { values, problems };
}

/** What reading one parameter gave: its value (undefined when it was not sent), or why it cannot be read. */
type Read = { value: unknown } | { problem: string };

function place(
  values: Record<string, unknown>,
  name: string,
  read: Read,
  field: string,
  problems: ErrorDetail[],
): void {
  delete values[name];
  if ('problem' in read) problems.push({ field, message: read.problem, code: 'INVALID_FORMAT' });
  else if (read.value !== undefined) values[name] = read.value;
}

/** `name[property]=value` keys, taken out of the query into one object. */
function deepObjectOf(values: Record<string, unknown>, name: string): Read {
  if (values[name] !== undefined)
    return { problem: `is an object: send it as ${name}[property]=value` };
  const keys = Object.keys(values).filter((key) => key.startsWith(`${name}[`));
  const object: Record<string, unknown> = {};
  let malformed: string | undefined;
  for (const key of keys) {
    const property = /^\[([^[\]]+)\]$/.exec(key.slice(name.length))?.[1];
    if (property === undefined) malformed ??= key;
    else object[property] = values[key];
    delete values[key];
  }
  if (malformed !== undefined)
    return {
      problem: `cannot read the key ${malformed}: expected ${name}[property], one level deep`,
    };
  return { value: keys.length > 0 ? object : undefined };
}

/** An exploded form object: each of its properties sent as a parameter of its own. */
function explodedObjectOf(values: Record<string, unknown>, properties: readonly string[]): Read {
  const object: Record<string, unknown> = {};
  for (const property of properties.filter((candidate) => values[candidate] !== undefined)) {
    object[property] = values[property];
    delete values[property];
  }
  return { value: Object.keys(object).length > 0 ? object : undefined };
}

/** The values a query parameter was sent with, as written (still percent-encoded); undefined where it was not sent. */
function writtenValuesOf(search: string, name: string): string[] | undefined {
  const written = search.split('&').flatMap((pair) => {
    const equals = pair.indexOf('=');
    const key = equals < 0 ? pair : pair.slice(0, equals);
    return pair !== '' && decoded(key) === name ? [equals < 0 ? '' : pair.slice(equals + 1)] : [];
  });
  return written.length > 0 ? written : undefined;
}

/** Percent-decoded as a query string is (`+` is a space); a malformed escape is kept as written. */
function decoded(text: string): string {
  const spaced = text.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** A delimited list (`1,2,3`), read as an array, or as an object from its pairs (`R,100,G,200`; exploded `simple`: `R=100,G=200`). */
function listOf(raw: unknown, parameter: StyledParameter): Read {
  if (raw === undefined) return { value: undefined };
  const items = (Array.isArray(raw) ? raw : [raw]).flatMap((text) =>
    itemsOf(String(text), parameter.style),
  );
  if (parameter.type === 'array') return { value: items };
  return parameter.explode ? namedPairsOf(items) : pairsOf(items);
}

function itemsOf(text: string, style: StyleName): string[] {
  if (text === '') return [];
  // A header sent twice arrives joined with `, `; items may carry spaces around them.
  if (style === 'simple') return text.split(',').map((item) => item.trim());
  // Split as written, then decoded: an encoded delimiter (`%2C`) is part of its item.
  return text.split(DELIMITERS[style] ?? ',').map(decoded);
}

/** `R,100,G,200`: names and values, alternating. */
function pairsOf(items: string[]): Read {
  if (items.length % 2 !== 0)
    return {
      problem: `lists ${items.length} items: an object is written as property,value pairs`,
    };
  const object: Record<string, string> = {};
  for (let index = 0; index < items.length; index += 2) object[items[index]!] = items[index + 1]!;
  return { value: object };
}

/** `R=100,G=200`. */
function namedPairsOf(items: string[]): Read {
  const object: Record<string, string> = {};
  for (const item of items) {
    const equals = item.indexOf('=');
    if (equals <= 0) return { problem: `cannot read ${item}: expected property=value` };
    object[item.slice(0, equals)] = item.slice(equals + 1);
  }
  return { value: object };
}

/**
 * The items of a comma-separated list parameter (`fields`, `sort`): sent as
 * text, or already read into an array where the spec declares one
 * (`style: form, explode: false`).
 */
export function listedItems(value: unknown): string[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return value === '' ? [] : value.split(',');
  const items: string[] = [];
  if (Array.isArray(value))
    for (const item of value)
      if (typeof item === 'string' && item !== '') items.push(...item.split(','));
  return items;
}
