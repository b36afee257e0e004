/**
 * Reading a spec in the conventions' terms (§4 "Path shapes"): which
 * operations are lists, reads, creates…, which resource a path addresses and
 * under which parents. Used by the merge and by the model, so both agree.
 */
import { parseRef } from '../diagnostics.js';
import { pathRoleOf, type PathRole } from './path-roles.js';
import {
  deref,
  isObject,
  isReference,
  type HttpMethod,
  type OpenApiDocument,
  type OperationObject,
  type Reference,
  type RequestBodyObject,
  type ResponseObject,
  type SchemaObject,
} from './document.js';

export type OperationKind = 'list' | 'create' | 'read' | 'replace' | 'update' | 'delete' | 'other';

/** One `/{resources}/{id}` step of a path. */
export interface PathSegmentPair {
  /** The collection segment, e.g. `books`. */
  collection: string;
  /** The id parameters that follow it, e.g. `['book_id']` (empty on a collection path). */
  idParams: string[];
}

export interface PathShape {
  /** Leading fixed segments that are not resources: `api`, `v1`. */
  prefix: string[];
  pairs: PathSegmentPair[];
  /** Whether the path ends with an id (an item path) or a collection segment. */
  addressesItem: boolean;
}

const PREFIX_SEGMENT = /^(api|v\d+)$/;
const PARAM_SEGMENT = /^\{([^}]+)\}$/;

export function pathShape(path: string): PathShape {
  const segments = path.split('/').filter((segment) => segment !== '');
  const prefix: string[] = [];
  while (segments.length > 0 && PREFIX_SEGMENT.test(segments[0]!) && prefix.length < 2) prefix.push(segments.shift()!);
  const pairs: PathSegmentPair[] = [];
  for (const segment of segments) {
    const param = PARAM_SEGMENT.exec(segment)?.[1];
    if (param === undefined) pairs.push({ collection: segment, idParams: [] });
    else if (pairs.length > 0) pairs.at(-1)!.idParams.push(param);
    else pairs.push({ collection: '', idParams: [param] });
  }
  const last = segments.at(-1);
  return { prefix, pairs, addressesItem: last !== undefined && PARAM_SEGMENT.test(last) };
}

/** The path's parameters in the order they appear. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}

const JSON_MEDIA_TYPE = /^application\/(.+\+)?json$/;

/** `application/json`, `application/problem+json`, with or without parameters (`; charset=utf-8`). */
export function isJsonMediaType(mediaType: string): boolean {
  return JSON_MEDIA_TYPE.test(mediaType.split(';')[0]!.trim().toLowerCase());
}

/** The first 2xx status of an operation, and its response. */
export function successResponse(
  document: OpenApiDocument,
  operation: OperationObject,
): { status: string; response: ResponseObject } | undefined {
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (!/^2\d\d$/.test(status)) continue;
    const resolved = deref<ResponseObject>(document, response);
    if (resolved) return { status, response: resolved };
  }
  return undefined;
}

/** The JSON schema of a response, if it has one. */
export function jsonSchemaOf(response: ResponseObject): SchemaObject | Reference | undefined {
  for (const [mediaType, media] of Object.entries(response.content ?? {})) {
    if (isJsonMediaType(mediaType) && media.schema) return media.schema;
  }
  return undefined;
}

const ENVELOPE_MEMBERS = new Set(['data', 'meta', 'pagination', 'links', 'included']);

/**
 * Whether a schema already is the success envelope (so it is not wrapped
 * twice): an object `data` (a resource or a list) with nothing beside it but
 * envelope members. A resource whose `data` field is a scalar (a blob's
 * content) is not one.
 */
export function isEnvelope(document: OpenApiDocument, schema: SchemaObject | Reference | undefined): boolean {
  const resolved = schema && deref<SchemaObject>(document, schema);
  const properties = resolved?.properties;
  if (!isObject(properties) || properties.data === undefined) return false;
  if (!Object.keys(properties).every((name) => ENVELOPE_MEMBERS.has(name))) return false;
  // The conventions' `meta` (with its timestamp) beside it settles it: the envelope of a scalar answer (a new id).
  const meta = properties.meta && deref<SchemaObject>(document, properties.meta);
  if (isObject(meta?.properties?.timestamp)) return true;
  const data = deref<SchemaObject>(document, properties.data);
  return data === undefined || scalarTypeOf(data) === undefined;
}

/** What a response carries as its resource data: `data` of an envelope, else the body itself. */
export function dataSchemaOf(
  document: OpenApiDocument,
  schema: SchemaObject | Reference | undefined,
): SchemaObject | Reference | undefined {
  if (!schema || !isEnvelope(document, schema)) return schema;
  return deref<SchemaObject>(document, schema)!.properties!.data;
}

export function isArraySchema(document: OpenApiDocument, schema: SchemaObject | Reference | undefined): boolean {
  const resolved = schema && deref<SchemaObject>(document, schema);
  if (!resolved) return false;
  return resolved.type === 'array' || (Array.isArray(resolved.type) && resolved.type.includes('array'));
}

/**
 * How an operation's data travels: as JSON, or as a file going up (a body with
 * no JSON media type: multipart/form-data, application/octet-stream), a file
 * coming down (a success with content but no JSON), or an event stream.
 */
export type OperationMedia = 'json' | 'upload' | 'download' | 'stream';

export function mediaOf(document: OpenApiDocument, operation: OperationObject): OperationMedia {
  const body = operation.requestBody && deref<RequestBodyObject>(document, operation.requestBody);
  const sent = Object.keys(body?.content ?? {});
  if (sent.length > 0 && !sent.some(isJsonMediaType)) return 'upload';
  const success = successResponse(document, operation);
  const answered = Object.keys(success?.response.content ?? {});
  // As openapi/media.ts reads an answer: JSON where it is a choice, else an event stream, else a file.
  if (answered.length === 0 || answered.some(isJsonMediaType)) return 'json';
  return answered.some((type) => type.split(';')[0]!.trim().toLowerCase() === 'text/event-stream') ? 'stream' : 'download';
}

/** What an operation does, from its method and the role of its path among the spec's paths (./path-roles.ts). */
export function classifyOperation(
  document: OpenApiDocument,
  path: string,
  method: HttpMethod,
  operation: OperationObject,
): OperationKind {
  // Files and streams are not served by the store: answered 501 until written (see LINT_MEDIA_NOT_SERVED).
  if (mediaOf(document, operation) !== 'json') return 'other';
  const kind = kindByRole(pathRoleOf(document, path, { method, operation }), method);
  const success = successResponse(document, operation);
  const data = success && dataSchemaOf(document, jsonSchemaOf(success.response));
  if (kind === 'list') return isArraySchema(document, data) && !hasPlainItems(document, data) ? 'list' : 'other';
  // The store answers one item: a write that answers an array (GitHub's `POST /user/emails`, the emails now held) is no CRUD.
  return kind !== 'other' && isArraySchema(document, data) ? 'other' : kind;
}

function kindByRole(role: PathRole, method: HttpMethod): OperationKind {
  if (role === 'collection') return method === 'post' ? 'create' : method === 'get' ? 'list' : 'other';
  if (role === 'item' || role === 'singleton') return ONE_THING_KINDS[method] ?? 'other';
  return 'other';
}

/** An array of scalars or of arrays (GitHub's status check contexts, `string[]`): no items the store can keep. */
function hasPlainItems(document: OpenApiDocument, array: SchemaObject | Reference | undefined): boolean {
  const schema = array && deref<SchemaObject>(document, array);
  const items = schema?.items && deref<SchemaObject>(document, schema.items);
  return items !== undefined && (scalarTypeOf(items) !== undefined || structuredTypeOf(document, items) === 'array');
}

/** An item's or a singleton's methods. */
const ONE_THING_KINDS: Partial<Record<HttpMethod, OperationKind>> = { get: 'read', put: 'replace', patch: 'update', delete: 'delete' };

/** The item schema of a list operation (the array's `items`), or of a single-resource one. */
export function itemSchemaOf(
  document: OpenApiDocument,
  operation: OperationObject,
): SchemaObject | Reference | undefined {
  const success = successResponse(document, operation);
  const data = success && dataSchemaOf(document, jsonSchemaOf(success.response));
  if (!data) return undefined;
  if (isArraySchema(document, data)) return deref<SchemaObject>(document, data)?.items;
  return data;
}

export interface Field {
  name: string;
  schema: SchemaObject;
  required: boolean;
}

/** Top-level properties of an object schema, following `$ref`s and `allOf`. */
export function propertiesOf(
  document: OpenApiDocument,
  schema: SchemaObject | Reference | undefined,
): Field[] {
  const resolved = schema && deref<SchemaObject>(document, schema);
  if (!resolved) return [];
  const required = new Set(resolved.required ?? []);
  const own = Object.entries(resolved.properties ?? {}).flatMap(([name, property]) => {
    const value = deref<SchemaObject>(document, property);
    return value ? [{ name, schema: value, required: required.has(name) }] : [];
  });
  const inherited = (resolved.allOf ?? []).flatMap((part) => propertiesOf(document, part));
  const seen = new Set<string>();
  return [...inherited, ...own].reverse().filter(({ name }) => !seen.has(name) && seen.add(name)).reverse();
}

export type ScalarType = 'string' | 'integer' | 'number' | 'boolean';

/** `array` or `object` where the schema describes one (whatever else it allows: `null`; its `allOf` parts count), else undefined. */
export function structuredTypeOf(document: OpenApiDocument, schema: SchemaObject, depth = 0): 'array' | 'object' | undefined {
  const declared = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (declared.includes('array') || (declared.length === 0 && schema.items !== undefined)) return 'array';
  if (declared.includes('object') || (declared.length === 0 && isObject(schema.properties))) return 'object';
  if (declared.length > 0 || !Array.isArray(schema.allOf) || depth > 8) return undefined;
  for (const part of schema.allOf) {
    const resolved = deref<SchemaObject>(document, part);
    const type = resolved && structuredTypeOf(document, resolved, depth + 1);
    if (type) return type;
  }
  return undefined;
}

/** The scalar type of a schema (ignoring `null` in 3.1 type arrays), if it is one. */
export function scalarTypeOf(schema: SchemaObject): ScalarType | undefined {
  const declared = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const types = declared.filter((t) => t !== 'null');
  const [type] = types;
  if (types.length !== 1) return schema.enum && schema.enum.every((v) => typeof v === 'string') ? 'string' : undefined;
  return type === 'string' || type === 'integer' || type === 'number' || type === 'boolean' ? type : undefined;
}

const TYPED_MEMBERS = ['attributes', 'id', 'type'];

/** Whether a schema is a typed resource, `{ id, type, attributes }` (conventions §2). */
export function isTypedResource(document: OpenApiDocument, schema: SchemaObject | Reference): boolean {
  const resolved = deref<SchemaObject>(document, schema);
  if (!isObject(resolved?.properties)) return false;
  return Object.keys(resolved.properties).sort().join() === TYPED_MEMBERS.join();
}

/** A resource's own fields, in either shape: a typed resource's are its id and its attributes. */
export function resourceFields(
  document: OpenApiDocument,
  schema: SchemaObject | Reference | undefined,
): Field[] {
  // `id` first in both shapes, so a typed resource (id beside its attributes) reads as its flat original.
  if (!schema || !isTypedResource(document, schema)) return idFirst(propertiesOf(document, schema));
  const typed = deref<SchemaObject>(document, schema)!;
  return [...propertiesOf(document, typed).filter(({ name }) => name === 'id'), ...propertiesOf(document, typed.properties!.attributes)];
}

/** The names an object schema requires, its `allOf` parts' included. */
export function requiredNamesOf(document: OpenApiDocument, schema: SchemaObject | Reference | undefined): string[] {
  const resolved = schema && deref<SchemaObject>(document, schema);
  if (!isObject(resolved)) return [];
  const inherited = (resolved.allOf ?? []).flatMap((part) => requiredNamesOf(document, part));
  return [...new Set([...inherited, ...(resolved.required ?? [])])];
}

/**
 * The fields every answer of an item carries, whatever `fields` names: what
 * its schema requires (a typed resource's attributes'), so that a sparse
 * answer stays valid against the one response schema. `id` aside: it is
 * always kept.
 */
export function requiredResourceFields(document: OpenApiDocument, schema: SchemaObject | Reference | undefined): string[] {
  if (!schema) return [];
  const own = isTypedResource(document, schema) ? deref<SchemaObject>(document, schema)!.properties!.attributes : schema;
  return withDependents(document, own, requiredNamesOf(document, own)).filter((name) => name !== 'id');
}

/** The names and, in turn, those each brings with it by `dependentRequired` (draft 7: `dependencies`), its `allOf` parts' included. */
function withDependents(document: OpenApiDocument, schema: SchemaObject | Reference | undefined, names: string[]): string[] {
  const dependents = dependentRequiredOf(document, schema);
  const all = new Set(names);
  for (const name of all) for (const dependent of dependents[name] ?? []) all.add(dependent);
  return [...all];
}

function dependentRequiredOf(document: OpenApiDocument, schema: SchemaObject | Reference | undefined): Record<string, string[]> {
  const resolved = schema && deref<SchemaObject>(document, schema);
  if (!isObject(resolved)) return {};
  const own = Object.entries({ ...(isObject(resolved.dependencies) ? resolved.dependencies : {}), ...(isObject(resolved.dependentRequired) ? resolved.dependentRequired : {}) });
  const entries = [
    ...(resolved.allOf ?? []).flatMap((part) => Object.entries(dependentRequiredOf(document, part))),
    ...own.filter((entry): entry is [string, string[]] => Array.isArray(entry[1])),
  ];
  const merged: Record<string, string[]> = {};
  for (const [name, names] of entries) merged[name] = [...(merged[name] ?? []), ...names.filter((each) => typeof each === 'string')];
  return merged;
}

function idFirst(fields: Field[]): Field[] {
  return [...fields.filter(({ name }) => name === 'id'), ...fields.filter(({ name }) => name !== 'id')];
}

/** The conventions' timestamp fields, in either casing the naming rules allow. */
export const CREATED_FIELDS = ['created_at', 'createdAt'];
export const UPDATED_FIELDS = ['updated_at', 'updatedAt'];

export function findField(fields: { name: string }[], candidates: string[]): string | undefined {
  return fields.find((field) => candidates.includes(field.name))?.name;
}

/** The name of the component a schema references, e.g. `Book` for `#/components/schemas/Book`. */
export function componentName(schema: unknown): string | undefined {
  if (!isReference(schema)) return undefined;
  const match = /^#\/components\/schemas\/([^/]+)$/.exec(schema.$ref);
  return match ? parseRef(schema.$ref).at(-1) : undefined;
}
