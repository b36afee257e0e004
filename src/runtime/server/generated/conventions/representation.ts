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
