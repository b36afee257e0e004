/**
 * How a resource is shown (conventions §2): the flat or typed shape, sparse
 * fieldsets (`fields`; `id` and the required fields always kept) and embedded
 * relations (`include`).
 */
import { errors } from './errors.js';
import { listedItems } from './styles.js';

export type ResourceShape = 'flat' | 'typed';

type Fields = Record<string, unknown>;

/** A typed resource object from a flat record: `{ id, type, attributes }`. */
export function typed<Kind extends string, Attributes extends object>(
  type: Kind,
  record: { id: string | number } & Attributes,
): { id: string; type: Kind; attributes: Omit<Attributes, 'id'> } {
  const { id, ...attributes } = record;
  return { id: String(id), type, attributes: attributes as Omit<Attributes, 'id'> };
}

/** Comma-separated names, each one known; unknown ones are a validation error of the parameter. */
export function namesIn(
  value: unknown,
  known: readonly string[],
  parameter: string,
  status?: number,
): string[] {
  if (value === undefined) return []; // the usual case: not asked
  const names = [...new Set(listedItems(value))];
  if (names.length === 0) return [];
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    const message =
      known.length > 0
        ? `names unknown ${unknown.join(', ')}; known: ${known.join(', ')}`
        : 'is not supported here';
    throw errors.validation(
      [{ field: `query.${parameter}`, message, code: 'INVALID_VALUE' }],
      status,
    );
  }
  return names;
}

/** What a `fields` request keeps: the fields it names, and those every answer must carry. */
export interface Fieldset {
  named: readonly string[];
  /** The fields the item's response schema requires: kept whatever `fields` names, so the answer stays valid. */
  required: readonly string[];
}

/**
 * Keeps only the named fields, the required ones and `id` (a typed resource's
 * `id` and `type`, its required attributes inside `attributes`).
 */
export function sparse(
  resource: unknown,
  { named, required }: Fieldset,
  shape: ResourceShape,
): unknown {
  if (named.length === 0 || typeof resource !== 'object' || resource === null) return resource;
  const keep = (record: Fields) =>
    Object.fromEntries(
      Object.entries(record).filter(
        ([name]) => name === 'id' || named.includes(name) || required.includes(name),
      ),
    );
  if (shape === 'flat') return keep(resource as Fields);
  const { attributes, ...rest } = resource as Fields & { attributes?: Fields };
  return { ...rest, attributes: keep(attributes ?? {}) };
}

/**
 * A flat item with only the fields its closed response schema declares: what
 * a store holds beside them (an id the answer has no room for) is not sent.
 */
export function declaredOnly(
  resource: unknown,
  declared: readonly string[] | undefined,
  shape: ResourceShape,
): unknown {
  if (!declared || shape !== 'flat' || typeof resource !== 'object' || resource === null)
    return resource;
  return Object.fromEntries(
    Object.entries(resource as Fields).filter(([name]) => declared.includes(name)),
  );
}

/** Embeds related resources: under their name in a flat resource, under `relationships` in a typed one. */
export function embed(
  resource: unknown,
  related: Record<string, unknown>,
  shape: ResourceShape,
): unknown {
  if (Object.keys(related).length === 0 || typeof resource !== 'object' || resource === null)
    return resource;
  return shape === 'flat' ? { ...resource, ...related } : { ...resource, relationships: related };
}

/** A field of the resource, wherever its shape keeps it. */
export function fieldOf(resource: unknown, field: string, shape: ResourceShape): unknown {
  const record = (
    shape === 'typed' ? (resource as { attributes?: Fields } | null)?.attributes : resource
  ) as Fields | null | undefined;
  return record?.[field];
}

/**
 * What answering an item needs, made once per version of it: its JSON text,
 * its ETag and its update time. A store that hands out copies of the items
 * it holds (the memory store) makes one per version of an item and hands
 * out copies of it (`renderedCopy`); the copies handed out while a handler
 * is called are noted (`noteRenderings`), and the answer takes the text of
 * those the handler returns from here instead of serializing and hashing the
 * item again. A copy that no longer equals the item as the store made it (a
 * handler changed a field, added one or reordered them) is serialized anew:
 * only items whose values are not objects are rendered, so an equal copy has
 * the same JSON text.
 */
export interface Rendering {
  /** The item as the store made it: what a copy must still equal. */
  readonly template: Fields;
  readonly shape: ResourceShape;
  /** The template's keys and values, in order. */
  readonly fields: RenderedFields;
  /** A typed item's attributes' keys and values. */
  readonly attributes: RenderedFields | undefined;
  /** Made on first use. */
  json?: string;
  tag?: string;
  modified?: { field: string; time: number; text: string | undefined };
}

/** The rendering of one version of an item; undefined where a value is an object or an array (a copy may change it in place). */
export function renderingFor(template: Fields, shape: ResourceShape): Rendering | undefined {
  if (Object.getPrototypeOf(template) !== Object.prototype || !plainValues(template, shape))
    return undefined;
  const attributes = shape === 'typed' ? (template.attributes as Fields) : undefined;
  return {
    template,
    shape,
    fields: fieldsOf(template),
    attributes: attributes && fieldsOf(attributes),
  };
}

/**
 * A record's keys and values, each in an array: a copy is compared with them
 * by position, where reading the template by each key would look every key
 * up anew (on a page of 20 that was most of the comparing).
 */
interface RenderedFields {
  readonly keys: readonly string[];
  readonly values: readonly unknown[];
}

const fieldsOf = (record: Fields): RenderedFields => ({
  keys: Object.keys(record),
  values: Object.values(record),
});

function plainValues(record: Fields, shape: ResourceShape): boolean {
  for (const key in record) {
    const value = record[key];
    if (shape === 'typed' && key === 'attributes') {
      if (
        typeof value !== 'object' ||
        value === null ||
        Object.getPrototypeOf(value) !== Object.prototype ||
        !plainValues(value as Fields, 'flat')
      )
        return false;
    } else if (
      typeof value === 'object'
        ? value !== null
        : typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean'
    )
      return false;
  }
  return true;
}

/** Copies handed out while a handler is called, each followed by its rendering; undefined outside that call. */
let handedOut: unknown[] | undefined;

/** A copy of the template; noted with its rendering while a handler is called. */
export function renderedCopy(rendering: Rendering): Fields {
  const { template } = rendering;
  const copy = rendering.attributes
    ? { ...template, attributes: { ...(template.attributes as Fields) } }
    : { ...template };
  handedOut?.push(copy, rendering);
  return copy;
}

/** The copies handed out while a handler was called, and their renderings. */
export type Noted = readonly unknown[];

/**
 * Calls a handler, noting the copies stores hand out during the call (what a
 * handler reads before it first awaits: the memory store's reads are).
 */
export function noteRenderings<Result>(call: () => Result): { result: Result; noted: Noted } {
  const noted: unknown[] = [];
  handedOut = noted;
  try {
    return { result: call(), noted };
  } finally {
    handedOut = undefined;
  }
}

/** The rendering of an item noted during its handler's call, while it still equals the item as the store made it. */
export function renderingOf(item: unknown, noted: Noted, position = 0): Rendering | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  // A page's items are usually noted in their order.
  let index = noted[position * 2] === item ? position * 2 : noted.indexOf(item);
  if (index % 2 !== 0) index = -1;
  const rendering = index < 0 ? undefined : (noted[index + 1] as Rendering);
  return rendering && sameAs(item as Fields, rendering.fields, rendering.attributes)
    ? rendering
    : undefined;
}

/** Same keys in the same order, same values (a typed item's attributes compared the same way). */
function sameAs(
  item: Fields,
  { keys, values }: RenderedFields,
  attributes: RenderedFields | undefined,
): boolean {
  if (Object.getPrototypeOf(item) !== Object.prototype) return false;
  let index = 0;
  for (const key in item) {
    if (key !== keys[index]) return false;
    const value = item[key];
    if (value !== values[index++]) {
      // The copy's attributes are an object of their own, compared the same way.
      const same =
        attributes !== undefined &&
        key === 'attributes' &&
        typeof value === 'object' &&
        value !== null &&
        sameAs(value as Fields, attributes, undefined);
      if (!same) return false;
    }
  }
  return index === keys.length;
}

/** The item's JSON text. */
export function renderedJson(rendering: Rendering): string {
  return (rendering.json ??= JSON.stringify(rendering.template));
}
