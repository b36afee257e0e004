/**
 * Stage 3 — model: the merged spec read once into the view model every
 * template prints from. Pure; spec order for operations and resources.
 */
import { EXTENSION, operationConfig, type Config } from '../config.js';
import { diagnostic, SpecforgeError, toPointer } from '../diagnostics.js';
import { ERRORS, OWNED_ERROR_STATUSES, type ErrorKind } from '../conventions/errors.js';
import {
  classifyOperation,
  CREATED_FIELDS,
  findField,
  itemSchemaOf,
  pathShape,
  propertiesOf,
  resourceFields,
  scalarTypeOf,
  successResponse,
  isJsonMediaType,
  jsonSchemaOf,
  UPDATED_FIELDS,
} from '../openapi/classify.js';
import {
  deref,
  isObject,
  operationsOf,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  type PathItemObject,
  type Reference,
  type RequestBodyObject,
  type SchemaObject,
} from '../openapi/document.js';
import { filterableFields, sortableFields } from '../openapi/fields.js';
import { answerMediaOf, bodyMediaOf } from '../openapi/media.js';
import { structuredTypeOf } from '../openapi/classify.js';
import { kebabCase, operationIdFor } from '../openapi/names.js';
import { nameAll } from './naming.js';
import { effectiveSecurity, isSecured } from '../openapi/security.js';
import { basePathOf } from '../openapi/servers.js';
import { pathRoleOf, resourcePathOf } from '../openapi/path-roles.js';
import type {
  ApiModel,
  FieldModel,
  OperationModel,
  ParameterModel,
  ParameterStyle,
  ParametersByLocation,
  ResourceModel,
  SecurityModel,
  SecuritySchemeModel,
  StoreSettings,
} from './types.js';

export type * from './types.js';

export function buildModel(document: OpenApiDocument, config: Config): ApiModel {
  const operations: OperationModel[] = [];
  const resources = new Map<string, ResourceModel>();
  for (const { path, method, pathItem, operation } of operationsOf(document)) {
    const model = operationModel(document, config, { path, method, pathItem, operation });
    operations.push(model);
    addToResource(document, resources, model, operation);
  }
  joinReachable(document, resources, operations);
  const kinds = new Map(operations.map((operation) => [operation.operationId, operation.kind]));
  for (const resource of resources.values()) {
    // An item path repeats its collection's scope (`/fields/{collection}/{field}`): its id is what follows.
    resource.idParams = resource.idParams.slice(resource.scopeParams.length);
    // A key reached by a singleton path and by a collection's (GitHub's …/configurations/defaults) is a collection.
    resource.singleton &&= resource.itemPath === undefined && !resource.operations.some((id) => kinds.get(id) === 'list' || kinds.get(id) === 'create');
  }
  for (const resource of resources.values()) storeSettingsOf(document, resource);
  misplacedStoreSettings(document, [...resources.values()]);
  labelResources([...resources.values()]);
  nameAll({ resources: [...resources.values()], operations, hasRoot: operations.some((operation) => !resources.has(operation.resource)) });
  return {
    title: document.info.title,
    version: document.info.version,
    openapi: document.openapi,
    basePath: basePathOf(document.servers?.[0]?.url ?? ''),
    config,
    securitySchemes: securitySchemes(document),
    resources: [...resources.values()],
    operations,
    errors: Object.values(ERRORS),
  };
}

interface Located {
  path: string;
  method: OperationModel['method'];
  pathItem: PathItemObject;
  operation: OperationObject;
}

function operationModel(document: OpenApiDocument, config: Config, { path, method, pathItem, operation }: Located): OperationModel {
  const kind = classifyOperation(document, path, method, operation);
  const settings = operationConfig(config, pathItem[EXTENSION], operation[EXTENSION]);
  const success = successResponse(document, operation);
  const statuses = Object.keys(operation.responses ?? {});
  const body = operation.requestBody && deref<RequestBodyObject>(document, operation.requestBody);
  // The merge gives every operation an id; a spec that skipped it gets the same one here.
  const operationId = operation.operationId ?? operationIdFor(method, path, new Set());
  return {
    operationId,
    // Named, distinctly, once every operation is known (./naming.ts).
    name: '',
    typeName: '',
    method,
    httpMethod: method.toUpperCase(),
    path,
    routePath: routePathOf(path),
    kind,
    resource: resourceKeyOf(document, path),
    ...(operation.summary ? { summary: operation.summary } : {}),
    ...(operation.description ? { description: operation.description } : {}),
    deprecated: operation.deprecated === true,
    tags: operation.tags ?? [],
    parameters: parametersOf(document, pathItem, operation),
    ...(body ? { requestBody: requestBodyOf(document, body) } : {}),
    success: successOf(document, success),
    statuses,
    errors: statuses.filter((s) => OWNED_ERROR_STATUSES.has(s)).map((s) => errorByStatus(Number(s))),
    ...(kind === 'list' ? { paging: settings.paging } : {}),
    resourceShape: settings.resourceShape,
    cacheControl: settings.cacheControl,
    security: securityOf(document, operation),
  };
}

/** `/authors/:author_id`; a segment mixing text and parameters keeps them in braces (`/compare/{base}...{head}`), as the router reads it. */
function routePathOf(path: string): string {
  return path
    .split('/')
    .map((segment) => segment.replace(/^\{([^}]+)\}$/, ':$1'))
    .join('/');
}

/** An envelope the spec wrote itself may leave `data` optional (Directus); the service always sends it. */
function dataIsOptional(document: OpenApiDocument, schema: unknown): boolean {
  const envelope = deref<SchemaObject>(document, schema as SchemaObject);
  return isObject(envelope?.properties) && 'data' in envelope.properties && !(envelope.required ?? []).includes('data');
}

function requestBodyOf(document: OpenApiDocument, body: RequestBodyObject): NonNullable<OperationModel['requestBody']> {
  const media = bodyMediaOf(document, body.content ?? {});
  return {
    required: body.required === true,
    contentTypes: Object.keys(body.content ?? {}),
    ...(media.kind === 'json' ? { jsonContentType: media.mediaType } : {}),
    ...(media.kind === 'form' ? { form: { mediaTypes: media.mediaTypes, schemaMediaType: media.schemaMediaType, files: media.files, jsonFields: media.jsonFields } } : {}),
    // A body the service does not parse (XML) reaches its handler as bytes too (LINT_MEDIA_UNSUPPORTED says so).
    ...(media.kind === 'bytes' ? { bytes: media.mediaTypes } : media.kind === 'unsupported' ? { bytes: Object.keys(body.content ?? {}) } : {}),
  };
}

function successOf(document: OpenApiDocument, success: ReturnType<typeof successResponse>): OperationModel['success'] {
  const status = success ? Number(success.status) : 200;
  const media = success ? answerMediaOf(document, success.response.content) : { kind: 'none' as const };
  if (media.kind === 'file') return { status, file: { mediaTypes: media.mediaTypes } };
  if (media.kind === 'events') return { status, events: { mediaType: media.mediaType, enveloped: media.enveloped, text: media.text } };
  if (media.kind !== 'json') return { status };
  return { status, contentType: media.mediaType, ...(dataIsOptional(document, jsonSchemaOf(success!.response)) ? { optionalData: true } : {}) };
}

function errorByStatus(status: number): ErrorKind {
  return Object.values(ERRORS).find((error) => error.status === status)!;
}

/** Path-item parameters overridden by operation ones (same name and location), grouped by location. */
function parametersOf(document: OpenApiDocument, pathItem: PathItemObject, operation: OperationObject): ParametersByLocation {
  const merged = new Map<string, ParameterObject>();
  for (const parameter of [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])]) {
    const resolved = deref<ParameterObject>(document, parameter);
    if (resolved) merged.set(`${resolved.in} ${resolved.name}`, resolved);
  }
  const grouped: ParametersByLocation = { path: [], query: [], header: [], cookie: [] };
  for (const parameter of merged.values()) {
    grouped[parameter.in]?.push({
      name: parameter.name,
      in: parameter.in,
      required: parameter.in === 'path' || parameter.required === true,
      ...(parameter.description ? { description: parameter.description } : {}),
      schema: parameter.schema ?? {},
      ...styleOf(parameter),
      ...structureOf(document, parameter),
    });
  }
  return grouped;
}

/** Each location's default style; `explode` defaults to true for `form` only (OpenAPI 3.x, "Parameter Object"). */
const DEFAULT_STYLES: Record<ParameterObject['in'], ParameterStyle> = { query: 'form', path: 'simple', header: 'simple', cookie: 'form' };

function structureOf(document: OpenApiDocument, parameter: ParameterObject): Pick<ParameterModel, 'structure'> {
  const schema = deref<SchemaObject>(document, parameter.schema ?? {});
  const structure = schema && structuredTypeOf(document, schema);
  return structure ? { structure } : {};
}

function styleOf(parameter: ParameterObject): Pick<ParameterModel, 'style' | 'explode'> {
  const style = typeof parameter.style === 'string' ? (parameter.style as ParameterStyle) : DEFAULT_STYLES[parameter.in];
  return { style, explode: typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form' };
}

function securityOf(document: OpenApiDocument, operation: OperationObject): SecurityModel {
  const requirements = effectiveSecurity(document, operation);
  return {
    public: !isSecured(requirements),
    alternatives: requirements
      .filter((alternative) => Object.keys(alternative).length > 0)
      .map((alternative) => Object.entries(alternative).map(([scheme, scopes]) => ({ scheme, scopes }))),
  };
}

function securitySchemes(document: OpenApiDocument): SecuritySchemeModel[] {
  return Object.entries(document.components?.securitySchemes ?? {}).map(([name, scheme]) => {
    if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer') return { name, kind: 'bearer', header: 'Authorization' };
    // OAuth 2 and OpenID Connect access tokens travel as Bearer tokens (RFC 6750).
    if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return { name, kind: 'bearer', header: 'Authorization' };
    // A key sent in `Authorization` travels as a Bearer token there (Directus: `Authorization: Bearer <token>`);
    // read as an API key, the Authorization header would be both, and every Bearer request a 401.
    if (scheme.type === 'apiKey' && scheme.in === 'header' && String(scheme.name).toLowerCase() === 'authorization') {
      return { name, kind: 'bearer', header: 'Authorization' };
    }
    if (scheme.type === 'apiKey' && scheme.in === 'header') return { name, kind: 'apiKey', header: String(scheme.name) };
    return { name, kind: 'other' };
  });
}

// ── resources ────────────────────────────────────────────────────────────────

function resourceKey(path: string): string {
  return pathShape(path)
    .pairs.map((pair) => pair.collection)
    .join('/');
}

/** The key of the resource an operation at `path` acts on: an action's is the one above it ('' for the API itself). */
function resourceKeyOf(document: OpenApiDocument, path: string): string {
  const resourcePath = resourcePathOf(document, path);
  return resourcePath === undefined ? '' : resourceKey(resourcePath);
}

function addToResource(
  document: OpenApiDocument,
  resources: Map<string, ResourceModel>,
  operation: OperationModel,
  source: OperationObject,
): void {
  const path = resourcePathOf(document, operation.path);
  const shape = path === undefined ? undefined : pathShape(path);
  const own = shape?.pairs.at(-1);
  if (!shape || !own) return;
  const resource = resources.get(operation.resource) ?? newResource(operation.resource, shape.pairs);
  resources.set(operation.resource, resource);
  // Paths sharing a key may name the parents' items or not (GitHub's `/pulls/comments/{comment_id}` beside
  // `/pulls/{pull_number}/comments`): the items live under the parents the path naming most of them gives; the others look across them.
  const parents = parentsOf(shape.pairs);
  if (idCount(parents) > idCount(resource.parents)) resource.parents = parents;
  resource.operations.push(operation.operationId);
  // An action belongs to the resource above it, whose paths and fields its own operations give.
  if (path !== operation.path) return;
  const role = pathRoleOf(document, path);
  if (role === 'singleton') resource.singleton = true;
  if (role === 'collection' && shape.addressesItem) {
    // A collection named by parameters of its own (`/fields/{collection}`): they scope its items.
    resource.collectionPath ??= operation.path;
    if (resource.scopeParams.length === 0) resource.scopeParams = own.idParams;
  } else if (shape.addressesItem) {
    resource.itemPath ??= operation.path;
    if (resource.idParams.length === 0) resource.idParams = own.idParams;
  } else {
    resource.collectionPath ??= operation.path;
  }
  if (resource.fields.length === 0 && operation.kind !== 'other' && operation.kind !== 'delete') {
    describeFields(document, resource, source, operation);
  }
  resource.shape = operation.kind === 'other' ? resource.shape : operation.resourceShape;
}

/**
 * A top-level path whose collection segments end another resource's key
 * (`/books`, `/books/{book_id}` beside `/authors/{author_id}/books`) reaches
 * that resource's items without naming their parent: it joins it, where the
 * two describe the same item (one component schema, or equal schemas),
 * nothing else ends that way and the store makes the items' ids. Not where
 * it creates items of its own that no body field places under a parent
 * (GitHub's `POST /gists` beside `/users/{username}/gists`): those are
 * another collection.
 */
function joinReachable(document: OpenApiDocument, resources: Map<string, ResourceModel>, operations: OperationModel[]): void {
  for (const top of [...resources.values()]) {
    if (idCount(top.parents) > 0) continue;
    const candidates = [...resources.values()].filter((other) => other.key.endsWith(`/${top.key}`) && idCount(other.parents) > 0);
    const [host] = candidates;
    if (candidates.length !== 1 || !host || !joins(document, top, host, operations)) continue;
    for (const operation of operations) if (operation.resource === top.key) operation.resource = host.key;
    host.operations.push(...top.operations);
    host.collectionPath ??= top.collectionPath;
    host.itemPath ??= top.itemPath;
    if (host.idParams.length === 0) host.idParams = top.idParams;
    if (host.fields.length === 0) host.fields = top.fields;
    host.reachedAs = [...(host.reachedAs ?? []), top.key];
    resources.delete(top.key);
  }
}

function joins(document: OpenApiDocument, top: ResourceModel, host: ResourceModel, operations: OperationModel[]): boolean {
  const own = (resource: ResourceModel) => operations.filter((operation) => operation.resource === resource.key);
  const items = (resource: ResourceModel) => own(resource).flatMap((operation) => itemSchemasOf(document, operation));
  const [item, ...rest] = [...items(top), ...items(host)].map((schema) => JSON.stringify(deref(document, schema)));
  if (item === undefined || rest.length === 0 || rest.some((other) => other !== item)) return false;
  // Both name the item by the same parameter, where both name it.
  if (top.idParams.length > 0 && host.idParams.length > 0 && top.idParams.join() !== host.idParams.join()) return false;
  if (top.singleton || host.singleton || top.scopeParams.length > 0) return false;
  // Items put at ids the client names, with no create (GitHub's organizations of an enterprise team, beside
  // `/organizations`), are memberships: one item under many parents, which an id alone does not name.
  const kinds = new Set([...own(host), ...own(top)].map((operation) => operation.kind));
  if (kinds.has('replace') && !kinds.has('create')) return false;
  const parentIds = host.parents.flatMap((parent) => parent.idParams);
  return own(top)
    .filter((operation) => operation.kind === 'create')
    .every((create) => parentIds.every((param) => bodyPropertiesOf(document, create).includes(param)));
}

/** The item schema an operation answers, where it answers one. */
function itemSchemasOf(document: OpenApiDocument, operation: OperationModel): (SchemaObject | Reference)[] {
  const source = document.paths?.[operation.path]?.[operation.method];
  const item = isObject(source) && operation.kind !== 'other' ? itemSchemaOf(document, source as OperationObject) : undefined;
  return item ? [item] : [];
}

function bodyPropertiesOf(document: OpenApiDocument, operation: OperationModel): string[] {
  const source = document.paths?.[operation.path]?.[operation.method] as OperationObject | undefined;
  const body = source?.requestBody && deref<RequestBodyObject>(document, source.requestBody);
  const json = Object.keys(body?.content ?? {}).find(isJsonMediaType);
  return json ? propertiesOf(document, body?.content?.[json]?.schema).map((field) => field.name) : [];
}

function newResource(key: string, pairs: { collection: string; idParams: string[] }[]): ResourceModel {
  const collection = pairs.at(-1)!.collection;
  return {
    key,
    name: collection,
    // Named, distinctly, once every resource is known (./naming.ts).
    fileName: '',
    identifier: '',
    pascalName: '',
    typeName: '',
    type: collection,
    idParams: [],
    scopeParams: [],
    parents: parentsOf(pairs),
    shape: 'flat',
    singleton: false,
    fields: [],
    operations: [],
  };
}

function parentsOf(pairs: { collection: string; idParams: string[] }[]): ResourceModel['parents'] {
  return pairs.slice(0, -1).map((pair) => ({ collection: pair.collection, idParams: pair.idParams }));
}

const idCount = (parents: ResourceModel['parents']) => parents.reduce((count, parent) => count + parent.idParams.length, 0);

function describeFields(document: OpenApiDocument, resource: ResourceModel, source: OperationObject, operation: OperationModel): void {
  const item = itemSchemaOf(document, source);
  const fields = resourceFields(document, item);
  if (fields.length === 0) return;
  const sortable = new Set(sortableFields(fields));
  const filterable = new Set(filterableFields(document, fields, operation.path).map((field) => field.name));
  resource.fields = fields.map(({ name, schema, required }): FieldModel => ({
    name,
    ...(scalarTypeOf(schema) ? { type: scalarTypeOf(schema) } : typeof schema.type === 'string' ? { type: schema.type } : {}),
    required: required || name === 'id',
    readOnly: schema.readOnly === true,
    sortable: sortable.has(name),
    filterable: filterable.has(name),
    ...(Array.isArray(schema.enum) ? { enum: schema.enum } : {}),
  }));
  const created = findField(fields, CREATED_FIELDS);
  const updated = findField(fields, UPDATED_FIELDS);
  if (created) resource.createdField = created;
  if (updated) resource.updatedField = updated;
}

/** The collection path item's `x-specforge.store`, its fields checked against the resource's. */
function storeSettingsOf(document: OpenApiDocument, resource: ResourceModel): void {
  const path = resource.collectionPath;
  if (path === undefined) return;
  const extension = (document.paths?.[path] as Record<string, unknown> | undefined)?.[EXTENSION];
  const store = (extension as { store?: { unique?: (string | string[])[]; onParentDelete?: StoreSettings['onParentDelete'] } } | undefined)?.store;
  if (!store) return;
  const unique = (store.unique ?? []).map((entry) => (Array.isArray(entry) ? entry : [entry]));
  const fields = new Set(resource.fields.map((field) => field.name).filter((name) => name !== 'id'));
  const unknown = unique.flat().filter((name) => !fields.has(name));
  if (unknown.length > 0) {
    throw new SpecforgeError([
      diagnostic('CONFIG_INVALID_VALUE', `store.unique names ${unknown.map((name) => JSON.stringify(name)).join(', ')}, not a field of ${resource.name} (its fields: ${[...fields].join(', ') || 'none'})`, {
        pointer: toPointer(['paths', path, EXTENSION, 'store', 'unique']),
      }),
    ]);
  }
  resource.store = { unique, onParentDelete: store.onParentDelete ?? 'refuse' };
}

/** Store settings stand on the path item of a collection the store keeps; anywhere else they would do nothing. */
function misplacedStoreSettings(document: OpenApiDocument, resources: ResourceModel[]): void {
  const collections = new Map(resources.filter((resource) => resource.collectionPath).map((resource) => [resource.collectionPath!, resource]));
  const problems = Object.entries(document.paths ?? {}).flatMap(([path, item]) => {
    const store = ((item as Record<string, unknown> | undefined)?.[EXTENSION] as { store?: { onParentDelete?: string } } | undefined)?.store;
    if (!store) return [];
    const resource = collections.get(path);
    const problem = !resource
      ? 'store settings belong on the path item of a collection (the path that lists or creates its items)'
      : store.onParentDelete && resource.parents.length === 0
        ? `onParentDelete is set, but ${resource.name} has no parent`
        : undefined;
    return problem ? [diagnostic('CONFIG_INVALID_VALUE', problem, { pointer: toPointer(['paths', path, EXTENSION, 'store']) })] : [];
  });
  if (problems.length > 0) throw new SpecforgeError(problems);
}

/** `books` where that is unique; `authors-books` where two resources end in `books`. */
function labelResources(resources: ResourceModel[]): void {
  const count = new Map<string, number>();
  for (const resource of resources) count.set(resource.name, (count.get(resource.name) ?? 0) + 1);
  for (const resource of resources) {
    if ((count.get(resource.name) ?? 0) > 1) resource.name = kebabCase(resource.key.replace(/\//g, '-')) || resource.key;
  }
}
