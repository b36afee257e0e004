/**
 * Which fields of a resource a list can filter and sort by (conventions §4,
 * "Query parameters for list operations"), and the query parameters the
 * conventions own. Read by the merge, which declares them, and by the model.
 */
import { pathParams, scalarTypeOf, type Field } from './classify.js';

export const OWNED_QUERY_PARAMETERS = new Set([
  'cursor',
  'page',
  'limit',
  'sort',
  'order',
  'fields',
  'include',
  'search',
  'created_after',
  'created_before',
]);

/** Fields that can be filtered on by equality: scalars, but not the id and not timestamps. */
export function filterableFields(fields: Field[], path: string): Field[] {
  const taken = new Set([...OWNED_QUERY_PARAMETERS, ...pathParams(path), 'id']);
  return fields.filter(
    ({ name, schema }) =>
      !taken.has(name) && scalarTypeOf(schema) !== undefined && schema.format !== 'date-time' && schema.writeOnly !== true,
  );
}

/** Fields a list can be sorted by: every readable scalar field, timestamps included. */
export function sortableFields(fields: Field[]): string[] {
  return fields.filter(({ schema }) => scalarTypeOf(schema) !== undefined && schema.writeOnly !== true).map(({ name }) => name);
}
