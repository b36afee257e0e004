/**
 * Query parameters of list and single-read operations (conventions §4,
 * "Query parameters for list operations"). The conventions own the paging,
 * sorting, sparse-fieldset, include, search and date-range parameters: what a
 * spec declares under those names is replaced. Equality filters are derived
 * from the item's scalar fields; a filter the spec declares itself is kept.
 */
import type { OperationConfig } from '../config.js';
import { CREATED_FIELDS, findField, scalarTypeOf, type Field, type OperationKind } from '../openapi/classify.js';
import { filterableFields, OWNED_QUERY_PARAMETERS, sortableFields } from '../openapi/fields.js';
import { deref, type JsonObject, type OpenApiDocument, type ParameterObject, type Reference } from '../openapi/document.js';
import type { ComponentNames } from './component-names.js';

export interface ParameterInput {
  kind: OperationKind;
  /** A singleton's read (`/settings`): sparse fields, but no relations to include. */
  singleton: boolean;
  path: string;
  config: OperationConfig;
  /** The list item's (or the resource's) top-level fields. */
  fields: Field[];
  /** The operation's own parameters. */
  declared: (ParameterObject | Reference)[];
  /** The path item's: a filter declared there is the spec's, and is not generated again. */
  inherited: (ParameterObject | Reference)[];
  /** Where the conventions' components are installed. */
  names: ComponentNames;
}

export function conventionParameters(document: OpenApiDocument, input: ParameterInput): (ParameterObject | Reference)[] {
  if (input.kind !== 'list' && input.kind !== 'read') return input.declared;
  const ref = (name: string) => input.names.ref('parameters', name);
  const nameOf = (parameter: ParameterObject | Reference) => deref<ParameterObject>(document, parameter);
  const inheritedQuery = new Set(
    input.inherited.flatMap((parameter) => {
      const p = nameOf(parameter);
      return p?.in === 'query' ? [p.name] : [];
    }),
  );
  const filters = input.kind === 'list' ? filterableFields(document, input.fields, input.path).filter((f) => !inheritedQuery.has(f.name)) : [];
  const filterNames = new Set(filters.map((field) => field.name));
  const isOwned = (p: ParameterObject | undefined) =>
    p !== undefined &&
    ((p.in === 'query' && (OWNED_QUERY_PARAMETERS.has(p.name) || filterNames.has(p.name))) ||
      (p.in === 'header' && p.name.toLowerCase() === 'if-none-match'));
  const others = input.declared.filter((parameter) => !isOwned(nameOf(parameter)));
  const declaredFilter = (name: string) =>
    input.declared.find((parameter) => {
      const p = nameOf(parameter);
      return p?.in === 'query' && p.name === name;
    });

  // `fields` names top-level fields: an item with none (a free-form object, an anyOf of shapes) takes no sparse fieldset.
  const fieldset = input.fields.length > 0 ? [ref('Fields')] : [];
  if (input.kind === 'read') return [...others, ...fieldset, ...(input.singleton ? [] : [ref('Include')]), ref('IfNoneMatch')];
  const hasCreated = findField(input.fields, CREATED_FIELDS) !== undefined;
  return [
    ...others,
    input.config.paging.style === 'cursor' ? ref('Cursor') : ref('Page'),
    limitParameter(input.config),
    sortParameter(sortableFields(input.fields)),
    ref('Order'),
    ...fieldset,
    ref('Include'),
    ref('Search'),
    ...(hasCreated ? [ref('CreatedAfter'), ref('CreatedBefore')] : []),
    ref('IfNoneMatch'),
    ...filters.map((field) => declaredFilter(field.name) ?? filterParameter(field)),
  ];
}

function limitParameter(config: OperationConfig): ParameterObject {
  const { defaultLimit, maxLimit } = config.paging;
  return {
    name: 'limit',
    in: 'query',
    required: false,
    description: `Page size: at most ${maxLimit}, ${defaultLimit} when omitted.`,
    schema: { type: 'integer', minimum: 1, maximum: maxLimit, default: defaultLimit },
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function sortParameter(sortable: string[]): ParameterObject {
  const field = sortable.length > 0 ? `(${sortable.map(escapeRegExp).join('|')})` : '[A-Za-z0-9_]+';
  return {
    name: 'sort',
    in: 'query',
    required: false,
    description:
      `Comma-separated fields to sort by; a leading \`-\` sorts descending.` +
      (sortable.length > 0 ? ` Sortable: ${sortable.join(', ')}.` : ''),
    schema: { type: 'string', pattern: `^-?${field}(,-?${field})*$` },
  };
}

function filterParameter(field: Field): ParameterObject {
  const type = scalarTypeOf(field.schema)!;
  const schema: JsonObject = { type };
  if (field.schema.format !== undefined) schema.format = field.schema.format;
  if (Array.isArray(field.schema.enum)) schema.enum = field.schema.enum.filter((value) => value !== null);
  return {
    name: field.name,
    in: 'query',
    required: false,
    description: `Only items whose \`${field.name}\` equals this value.`,
    schema,
  };
}
