/**
 * The server's view model: the route table, the handler interfaces and the
 * store, computed from the API model so the templates only print.
 */
import type { ApiModel, FormFileField, OperationModel, ParameterModel, ResourceModel } from '../../../model/index.js';
import { deref, isObject, type OpenApiDocument, type OperationObject, type SchemaObject } from '../../../openapi/document.js';
import { itemSchemaOf, jsonSchemaOf, propertiesOf, scalarTypeOf, successResponse } from '../../../openapi/classify.js';
import type { ParameterStyles, StyledParameter } from '../../../runtime/server/generated/conventions/styles.js';
import { singular } from '../../../openapi/names.js';
import { commentText, identifierName, identifierRegistry, stringLiteral } from '../../../model/names.js';
import { ROOT_NAMES } from '../../../model/naming.js';
import { mergeSamples, requiredPropertiesOf, requiredResponseValuesOf, responseSampleOf } from '../conformance/sample.js';
import type { FilePlan } from '../../../runtime/server/store/uploads.js';
import { resourceUploadsOf, type FileRole } from '../uploads.js';
import { fillsDefaults } from './validators.js';
import { ArrowBody, AssignedCall, Call, Code, SPREAD } from '../../js-print.js';
import { MethodSignature, PropertySignature } from '../../type-print.js';
import { NamedImports } from '../../import-print.js';
import { answerOf, answeredFieldsOf, answeredItemSchemasOf, bodySchemaOf, itemTypeName, operationDoc, operationTypeNames, sparseFieldsetOf, STORE_METHODS, storedKindOf, storedParentOf, storedResourceKeys, serverShapedFieldsOf, nonNullFieldsOf, parentParamsNamed, parentResourceOf, childResourcesOf, keyFieldOf, typesModulePath, typesNamespace } from '../resource-types.js';

export interface RouteView {
  operationId: string;
  name: string;
  /** Its doc comment: method, path and summary. */
  doc: string;
  /** The handler group (a property of `Handlers`). */
  group: string;
  method: string;
  httpMethod: string;
  path: string;
  routePath: string;
  /** What the scaffold's placeholder for a non-CRUD operation throws: `new ApiError(…)`, a 501. */
  unimplementedError: Call;
  kind: OperationModel['kind'];
  status: number;
  hasData: boolean;
  security: { public: boolean; alternatives: { scheme: string; scopes: string[] }[][] };
  /** Export name of its validators: `…Validator`, a name ajv never gives its own functions. */
  validator: string;
  /** Its array and object parameters, as the runtime reads them (`conventions/styles.ts`); absent where it has none. */
  styles?: ParameterStyles;
  /** `validators`: the module of its body's validator (`bodies`, or `patches` where no default is filled in). */
  body?: { contentTypes: string[]; required: boolean; validators: 'bodies' | 'patches' };
  /** A form as its body, as `conventions/upload.ts` reads it. */
  formUpload?: { contentTypes: string[]; required: boolean; files: FormFileField[]; jsonFields: string[] };
  /** A body that is a file itself. */
  fileUpload?: { contentTypes: string[]; required: boolean };
  /** An answer that is a file, in one of these media types (`conventions/download.ts`), not the JSON envelope. */
  fileAnswer?: { mediaTypes: string[] };
  /** An answer that is an event stream (`conventions/events.ts`). */
  eventAnswer?: { text: boolean };
  paging?: { style: string; defaultLimit: number; maxLimit: number; filters: string[]; createdField?: string };
  shape: string;
  /** What a `fields` answer keeps whatever it names: the fields the item's response schema requires. */
  requiredFields?: string[];
  /** A closed answer's (`additionalProperties: false`) fields (none is a list too): the only ones it sends. */
  declaredFields?: { fields: string[] };
  includes: { name: string; operationId: string; itemParam?: string }[];
  updatedField?: string;
  cacheControl: string;
  /** Its request and return types (in `signature`; kept for templates of one's own). */
  requestType: string;
  returnType: string;
  /** Its method in handlers.ts: `name(request: requestType): Awaitable<returnType>;`. */
  signature: MethodSignature;
  /** The store method the default handler calls; absent where the operation is not plain CRUD. */
  storeMethod?: string;
  /** What its default handler does with the item's files (`store/uploads.ts`), where it keeps them. */
  fileRole?: FileRole;
  /** The default handler's answer: the store call, shaped as the operation answers (see storeCallOf). */
  storeCall?: ArrowBody;
  /** The default handler's head: `async` only where its body awaits (an async arrow around the store's promise is one more promise per request). */
  storeArrow?: string;
  /** A create that answers only the new item's id: the id's TypeScript type. */
  answersId?: string;
}

export interface GroupView {
  /** Property of `Handlers`, export name of the handler file. */
  key: string;
  identifier: string;
  /** File name under `src/handlers/` (and `src/generated/resources/`). */
  file: string;
  /** The handler file's import specifier from `src/generated/`: a string literal, and its path. */
  handlerModule: string;
  handlerPath: string;
  label: string;
  interfaceName: string;
  /** Its member of the `Handlers` interface (handlers.ts), its value in app.ts's `handlers`, and its handler file's import of its interface. */
  handlersMember: PropertySignature;
  handlersValue: Code;
  interfaceImport: NamedImports;
  /** Its module of named types under `src/generated/resources/`, as `src/generated/` imports it. */
  typesModule: string;
  namespace: string;
  /** The resource's field names: what `fields` may list. */
  fields: string[];
  operations: RouteView[];
  /** Its part of the default store, when its default handlers use one. */
  store?: CollectionView | SingletonView;
  /** The functions of `store/uploads.ts` its default handlers call, comma-separated; absent where none. */
  fileFunctions?: string;
}

/** A collection of the default in-memory store. */
export interface CollectionView {
  variable: string;
  itemType: string;
  /** Whether its schemas name no item type (store.ts's UntypedItem, one name, stands for `itemType` there). */
  untyped: boolean;
  /** Its member of `Store`, and how createStore and createMemoryStore make it (store.ts). */
  storeMember: PropertySignature;
  sqlConstruction: AssignedCall;
  memoryConstruction: AssignedCall;
  type: string;
  shape: string;
  idParam: string;
  ids: 'uuid' | 'integer';
  parent?: string;
  /** The parent's item parameters the scope names, where it names only the last of them. */
  parentParams?: string[];
  /** The parents' id parameters, which place an item under its parent. */
  scope: string[];
  pathFields: string[];
  createdField?: string;
  updatedField?: string;
  /** Sortable enum fields: their values in declared order, the order they sort in. */
  sortOrders?: Record<string, unknown[]>;
  /** Items it holds from the start: the examples of a collection no operation creates in. */
  seed?: unknown[];
  /** What an item holds where no write gave it a value. */
  defaults?: Record<string, unknown>;
  /** Fields whose written value the store does not keep (it does not fit what is answered). */
  serverFields?: string[];
  /** Fields a write may set to null where answers require a value. */
  nonNullFields?: string[];
  /** The field the item's path names it by, where it is not `id`. */
  keyField?: string;
}

/** A singleton of the default store: one value per owner, valid for its schema from the start. */
export interface SingletonView {
  variable: string;
  itemType: string;
  /** Whether its schemas name no item type (store.ts's UntypedItem, one name, stands for `itemType` there). */
  untyped: boolean;
  /** Its member of `Store`, and how createStore and createMemoryStore make it (store.ts). */
  storeMember: PropertySignature;
  sqlConstruction: AssignedCall;
  memoryConstruction: AssignedCall;
  /** The path parameters that name its owner. */
  scope: string[];
  parent?: string;
  /** Its value before the first write (`null`: none the schema gives). */
  initial: unknown;
  /** What a replace that leaves them out keeps. */
  defaults?: Record<string, unknown>;
  /** Fields whose written value the store does not keep (it does not fit what is answered). */
  serverFields?: string[];
  /** Fields a write may set to null where answers require a value. */
  nonNullFields?: string[];
  updatedField?: string;
}

type Typed<View> = View & { typesModule: string; namespace: string };

/** A value from the spec as the JSON it is written in the output (what JSON cannot hold dropped or null, as JSON.stringify does). */
function asJson<Value>(value: Value): Value {
  return JSON.parse(JSON.stringify(value)) as Value;
}

export interface ServerView {
  groups: GroupView[];
  routes: RouteView[];
  /** Collections in declaration order: every parent before its children. */
  collections: Typed<CollectionView>[];
  /** After the collections their owners are in. */
  singletons: Typed<SingletonView>[];
  /** The collections whose files the store keeps, and how (`UPLOADS` of the store). */
  uploads: { variable: string; plan: FilePlan }[];
  /** The store's member that keeps the files: `files`, unless a resource takes that name. */
  filesVariable: string;
  /** Whether a collection or singleton holds items of no named type (store.ts's UntypedItem). */
  untypedItems: boolean;
}

/** The item type of a resource whose schemas name none: one plain name, which prettier never breaks in type arguments. */
const UNTYPED_ITEM = 'UntypedItem';

/** Where each operation is implemented: `src/handlers/<resource>.ts`. */
export function handlerFileOf(model: ApiModel, operation: OperationModel): string {
  return `src/handlers/${(model.resources.find((candidate) => candidate.key === operation.resource) ?? ROOT_NAMES).fileName}.ts`;
}

/**
 * The export name of each operation's validators, in the model's order:
 * `…Validator`, a name ajv never gives its own functions. Known before the
 * view, so compiling them can start first (server/index.ts).
 */
export function validatorNames(operations: readonly OperationModel[]): string[] {
  const validators = identifierRegistry();
  return operations.map((operation) => validators.claim(identifierName(`${operation.operationId} validator`, { case: 'camel', fallback: 'operation', ascii: true })));
}

export function serverView(model: ApiModel, document: OpenApiDocument, names = validatorNames(model.operations)): ServerView {
  const resources = new Map(model.resources.map((resource) => [resource.key, resource]));
  const groups = new Map<string, GroupView>();
  const routes: RouteView[] = [];
  for (const [index, operation] of model.operations.entries()) {
    const resource = resources.get(operation.resource);
    const group = groups.get(operation.resource) ?? newGroup(resource);
    groups.set(operation.resource, group);
    const route = routeView({ model, document, operation, resource, group, resources, validator: names[index]! });
    group.operations.push(route);
    routes.push(route);
  }
  // The default store keeps a collection (or a singleton) for each resource with a CRUD operation.
  const stored = storedResourceKeys(model);
  const collections: Typed<CollectionView>[] = [];
  const singletons: Typed<SingletonView>[] = [];
  const uploads: ServerView['uploads'] = [];
  const filesVariable = freeName('files', new Set([...groups.values()].map((group) => group.identifier)));
  for (const key of stored) {
    const group = groups.get(key)!;
    const input = { resource: resources.get(key)!, resources, stored, document, model };
    const typed = { typesModule: group.typesModule, namespace: group.namespace };
    if (input.resource.singleton) singletons.push({ ...(group.store = singletonView(input)), ...typed });
    else {
      const collection = (group.store = collectionView(input));
      collections.push({ ...collection, ...typed });
      const kept = resourceUploadsOf(input.resource, model.operations);
      if (kept) {
        const { roles, files, main, describedBy, answers } = kept;
        const owners = collection.keyField && collection.scope.length > 0 ? { owners: collection.scope } : {};
        const plan = { collection: input.resource.key, idParam: collection.idParam, ...owners, fileFields: files.map((file) => file.name), main, describedBy, answers };
        uploads.push({ variable: collection.variable, plan });
        for (const route of group.operations) route.fileRole = roles.get(route.operationId);
        group.fileFunctions = [...new Set(roles.values())].sort().join(', ');
      }
    }
    for (const route of group.operations) {
      if (!route.storeMethod && !route.fileRole) continue;
      const call = storeCallOf(route, group.store.variable, filesVariable);
      route.storeCall = new ArrowBody(new Code(call.text));
      route.storeArrow = call.awaits ? 'async (request) =>' : '(request) =>';
    }
  }
  const depths = depthsOf(collections);
  collections.sort((a, b) => depths.get(a.variable)! - depths.get(b.variable)!);
  const untypedItems = [...collections, ...singletons].some((table) => table.untyped);
  return { groups: [...groups.values()], routes, collections, singletons, uploads, filesVariable, untypedItems };
}

/** The name, or the name with the first number that makes it one none of `taken`. */
function freeName(name: string, taken: ReadonlySet<string>): string {
  let free = name;
  for (let number = 2; taken.has(free); number++) free = `${name}${number}`;
  return free;
}

/**
 * What the default handler returns: the store's answer as the operation
 * answers. A write with no body says only whether the item was there (false:
 * 404); a create that answers an id answers the new item's. Where the item
 * has files, `store/uploads.ts` keeps them beside it.
 */
function storeCallOf(route: RouteView, variable: string, filesVariable: string): { text: string; awaits: boolean } {
  const call = route.fileRole ?? `store.${variable}.${route.storeMethod}`;
  const args = route.fileRole ? `store.${variable}, store.${filesVariable}, UPLOADS.${variable}, request` : 'request';
  if (route.answersId !== undefined) return { text: `(await ${call}<{ id: ${route.answersId} }>(${args}))?.id`, awaits: true };
  // `remove` says whether the item was there; `takeWithFiles` answers it, as `take` does.
  const answersItem = route.kind !== 'delete' || route.fileRole === 'takeWithFiles';
  if (!route.hasData && answersItem && route.fileRole !== 'fileOf') return { text: `(await ${call}(${args})) !== undefined`, awaits: true };
  return { text: `${call}(${args})`, awaits: false };
}

/** Each collection's number of ancestors, by its variable. */
function depthsOf(collections: CollectionView[]): Map<string, number> {
  const byVariable = new Map(collections.map((candidate) => [candidate.variable, candidate]));
  const depthOf = (collection: CollectionView): number => {
    let level = 0;
    for (let parent = collection.parent; parent; parent = byVariable.get(parent)?.parent) level++;
    return level;
  };
  return new Map(collections.map((collection) => [collection.variable, depthOf(collection)]));
}

function newGroup(resource: ResourceModel | undefined): GroupView {
  const names = resource ?? ROOT_NAMES;
  return {
    key: names.identifier,
    identifier: names.identifier,
    file: names.fileName,
    handlerModule: stringLiteral(`../handlers/${names.fileName}.js`),
    handlerPath: `../handlers/${names.fileName}.js`,
    label: commentText(resource ? `${resource.name} (${resource.itemPath ?? resource.collectionPath})` : 'the API root'),
    interfaceName: `${names.pascalName}Handlers`,
    handlersMember: new PropertySignature(names.identifier, `${names.pascalName}Handlers`),
    handlersValue: new Code(names.identifier),
    interfaceImport: new NamedImports('import type', [`${names.pascalName}Handlers`], '../generated/handlers.js'),
    typesModule: typesModulePath(names.fileName, './'),
    namespace: typesNamespace(names),
    fields: resource?.fields.map((field) => field.name) ?? [],
    operations: [],
  };
}

interface RouteInput {
  model: ApiModel;
  document: OpenApiDocument;
  operation: OperationModel;
  resource: ResourceModel | undefined;
  group: GroupView;
  resources: ReadonlyMap<string, ResourceModel>;
  validator: string;
}

function routeView({ model, document, operation, resource, group, resources, validator }: RouteInput): RouteView {
  const types = operationTypeNames(operation);
  const { hasData, isList } = answerOf(operation);
  const kind = storedKindOf(operation, resource);
  const query = new Set(operation.parameters.query.map((parameter) => parameter.name));
  const required = sparseFieldsetOf(document, operation)?.required ?? [];
  return {
    operationId: operation.operationId,
    name: operation.name,
    doc: operationDoc(operation),
    group: group.key,
    method: operation.method,
    httpMethod: operation.httpMethod,
    path: operation.path,
    routePath: operation.routePath,
    unimplementedError: new Call(new Code('new ApiError'), [{ status: 501, code: 'NOT_IMPLEMENTED' }, `${operation.httpMethod} ${operation.path} is not implemented yet.`]),
    kind,
    status: operation.success.status,
    hasData,
    security: securityView(model, operation),
    validator,
    ...stylesOf(document, operation),
    ...(operation.requestBody?.jsonContentType
      ? {
          body: {
            contentTypes: operation.requestBody.contentTypes.filter((type) => /json/i.test(type)),
            required: operation.requestBody.required,
            validators: fillsDefaults(operation) ? 'bodies' : 'patches',
          },
        }
      : {}),
    ...uploadOf(operation),
    ...answersOf(operation),
    ...(isList
      ? {
          paging: {
            ...operation.paging!,
            filters: (resource?.fields ?? []).filter((field) => field.filterable && query.has(field.name)).map((field) => field.name),
            ...(resource?.createdField && query.has('created_after') ? { createdField: resource.createdField } : {}),
          },
        }
      : {}),
    shape: operation.resourceShape,
    ...(required.length > 0 ? { requiredFields: required } : {}),
    ...declaredFieldsOf(document, operation),
    includes: hasData && resource ? relationsOf(resource, resources, model) : [],
    ...(resource?.updatedField ? { updatedField: resource.updatedField } : {}),
    cacheControl: operation.cacheControl,
    ...signatureOf(operation.name, requestType(group, types, kind === 'list', operation), returnType(operation, group, types, kind, hasData)),
    ...(resource && STORE_METHODS[kind] ? { storeMethod: kind === 'delete' && hasData ? 'take' : STORE_METHODS[kind] } : {}),
    ...(kind === 'create' && hasData && scalarAnswerOf(document, operation) ? { answersId: scalarAnswerOf(document, operation)! } : {}),
  };
}

/** How its body is read where it is a form or a file. */
function uploadOf(operation: OperationModel): Pick<RouteView, 'formUpload' | 'fileUpload'> {
  const body = operation.requestBody;
  if (body?.form) return { formUpload: { contentTypes: body.form.mediaTypes, required: body.required, files: body.form.files, jsonFields: body.form.jsonFields } };
  if (body?.bytes) return { fileUpload: { contentTypes: body.bytes, required: body.required } };
  return {};
}

function answersOf(operation: OperationModel): Pick<RouteView, 'fileAnswer' | 'eventAnswer'> {
  const { file, events } = operation.success;
  if (file) return { fileAnswer: { mediaTypes: file.mediaTypes } };
  return events ? { eventAnswer: { text: events.text } } : {};
}

/** The query and header parameters that are arrays or objects, with what reading them takes. */
function stylesOf(document: OpenApiDocument, operation: OperationModel): Pick<RouteView, 'styles'> {
  const query = operation.parameters.query.flatMap((parameter) => {
    const styled = styledParameter(parameter, parameter.name);
    // An exploded array is a repeated parameter: the validator reads it as it comes.
    if (styled?.type === 'array' && styled.explode) return [];
    if (styled?.type !== 'object' || !styled.explode || styled.style === 'deepObject') return styled ? [styled] : [];
    // Its properties arrive as parameters of their own: those named like a declared parameter stay that parameter's.
    const others = new Set(operation.parameters.query.map((other) => other.name));
    return [{ ...styled, properties: propertiesOf(document, parameter.schema).map(({ name }) => name).filter((name) => !others.has(name)) }];
  });
  const header = operation.parameters.header.flatMap((parameter) => styledParameter(parameter, parameter.name.toLowerCase()) ?? []);
  const styles = { ...(query.length > 0 ? { query } : {}), ...(header.length > 0 ? { header } : {}) };
  return Object.keys(styles).length > 0 ? { styles } : {};
}

const RUNTIME_STYLES = new Set<string>(['form', 'spaceDelimited', 'pipeDelimited', 'deepObject', 'simple']);

function styledParameter({ style, explode, structure }: ParameterModel, name: string): StyledParameter | undefined {
  return structure && RUNTIME_STYLES.has(style) ? { name, style: style as StyledParameter['style'], explode, type: structure } : undefined;
}

const TS_SCALARS = { string: 'string', integer: 'number', number: 'number', boolean: 'boolean' } as const;

/** The TypeScript type of the success envelope's `data` where it is a scalar (an id), not an object. */
function scalarAnswerOf(document: OpenApiDocument, operation: OperationModel): string | undefined {
  const source = document.paths?.[operation.path]?.[operation.method];
  const success = isObject(source) ? successResponse(document, source as OperationObject) : undefined;
  const envelope = success && deref<SchemaObject>(document, jsonSchemaOf(success.response) ?? {});
  const data = envelope?.properties?.data && deref<SchemaObject>(document, envelope.properties.data);
  const scalar = data && scalarTypeOf(data);
  return scalar && TS_SCALARS[scalar];
}

function securityView(model: ApiModel, operation: OperationModel): RouteView['security'] {
  const kinds = new Map(model.securitySchemes.map((scheme) => [scheme.name, scheme.kind === 'other' ? 'unsupported' : scheme.kind]));
  return {
    public: operation.security.public,
    alternatives: operation.security.alternatives.map((alternative) =>
      alternative.map(({ scheme, scopes }) => ({ scheme: kinds.get(scheme) ?? 'unsupported', scopes })),
    ),
  };
}

type TypeNames = ReturnType<typeof operationTypeNames>;

function signatureOf(name: string, request: string, returned: string): Pick<RouteView, 'requestType' | 'returnType' | 'signature'> {
  return { requestType: request, returnType: returned, signature: new MethodSignature(name, { name: 'request', type: request }, `Awaitable<${returned}>`) };
}

function requestType(group: GroupView, types: TypeNames, isList: boolean, operation: OperationModel): string {
  const ns = (name: string | undefined) => (name ? `${group.namespace}.${name}` : 'NoParameters');
  const path = ns(types.path);
  const query = ns(types.query);
  if (isList) return `ListRequest<${path}, ${query}>`;
  const body = types.body ? `${group.namespace}.${types.body}` : types.form ? `${group.namespace}.${types.form}${operation.requestBody!.form!.files.length > 0 ? '<UploadedFile>' : ''}` : operation.requestBody?.bytes ? 'UploadedFile' : 'undefined';
  return `${operation.success.events ? 'EventStreamRequest' : 'OperationRequest'}<${path}, ${query}, ${body}>`;
}

function returnType(operation: OperationModel, group: GroupView, types: TypeNames, kind: RouteView['kind'], hasData: boolean): string {
  // `undefined`: the file is not there (404).
  if (operation.success.file) return 'FileAnswer | undefined';
  // Nothing is passed to its `next()`, and what it returns at the end is not read.
  if (types.event) return `AsyncIterable<ServerSentEvent<${group.namespace}.${types.event}>, unknown, undefined>`;
  // No body to answer: `false` says the item was not there (404).
  if (!hasData) return kind === 'delete' ? 'boolean' : 'boolean | void';
  const data = `${group.namespace}.${types.data}`;
  if (kind === 'list') return `${operation.paging?.style === 'offset' ? 'OffsetPage' : 'CursorPage'}<${data}[number]> | undefined`;
  return `${data} | undefined`;
}

/** What `include` may name: the parent (`author`) and child collections (`books`), read through their own operations. */
function relationsOf(resource: ResourceModel, resources: ReadonlyMap<string, ResourceModel>, model: ApiModel): RouteView['includes'] {
  const relations: RouteView['includes'] = [];
  const parent = resource.parents.at(-1);
  const parentResource = parent && parentResourceOf(resource, resources);
  const parentRead = parentResource && operationOf(model, parentResource, 'read');
  if (parent && parentRead) relations.push({ name: singular(parent.collection), operationId: parentRead });
  for (const child of childResourcesOf(resource, resources)) {
    const last = child.parents.at(-1);
    if (!last || last.idParams.length !== 1) continue;
    const list = operationOf(model, child, 'list');
    if (list) relations.push({ name: child.key.split('/').at(-1)!, operationId: list, itemParam: last.idParams[0]! });
  }
  return relations;
}

function operationOf(model: ApiModel, resource: ResourceModel, kind: OperationModel['kind']): string | undefined {
  return model.operations.find((operation) => operation.resource === resource.key && operation.kind === kind && operation.success.contentType)
    ?.operationId;
}

interface CollectionInput {
  resource: ResourceModel;
  resources: ReadonlyMap<string, ResourceModel>;
  /** Keys of the resources that have a collection. */
  stored: Set<string>;
  document: OpenApiDocument;
  model: ApiModel;
}

/** A collection's or singleton's member of `Store`, and its construction in the SQL and the memory store. */
function constructions(kind: 'Collection' | 'Singleton', variable: string, itemType: string, parent: string | undefined): Pick<CollectionView, 'storeMember' | 'sqlConstruction' | 'memoryConstruction'> {
  const options = new Code(`${kind === 'Collection' ? 'COLLECTIONS' : 'SINGLETONS'}.${variable}`);
  const table = new Code(kind === 'Collection' ? `TABLES.${variable}` : `TABLES.${variable}.name`);
  const parentMember: Record<string, Code> = parent ? { parent: new Code(parent) } : {};
  return {
    storeMember: new PropertySignature(variable, `${kind}<${itemType}>`),
    sqlConstruction: new AssignedCall(new Call(new Code(`new Sql${kind}<${itemType}>`), [new Code('database'), { [SPREAD]: options, table, ...parentMember }])),
    memoryConstruction: new AssignedCall(new Call(new Code(`new Memory${kind}<${itemType}>`), [{ [SPREAD]: options, ...parentMember }])),
  };
}

function singletonView(input: CollectionInput): SingletonView {
  const { resource, document, model } = input;
  const parent = storedParentOf(input.resource, input.resources, input.stored);
  const item = itemTypeName(resource, model.operations.filter((operation) => operation.resource === resource.key));
  const scope = resource.parents.flatMap((p) => p.idParams);
  const serverFields = serverShapedFieldsOf(model, resource, document);
  const defaults = serverMadeValuesOf(model, resource, document, { pathFields: scope, writtenBy: 'replace', serverFields });
  const itemType = item ? `${typesNamespace(resource)}.${item}` : undefined;
  return {
    variable: resource.identifier,
    itemType: itemType ?? 'Record<string, unknown>',
    untyped: itemType === undefined,
    ...constructions('Singleton', resource.identifier, itemType ?? UNTYPED_ITEM, parent?.identifier),
    scope,
    ...(parent ? { parent: parent.identifier } : {}),
    initial: asJson(initialValueOf(model, resource, document) ?? null),
    ...(defaults ? { defaults: asJson(defaults) } : {}),
    ...(serverFields.length > 0 ? { serverFields } : {}),
    ...nonNullView(model, resource, document),
    ...(resource.updatedField ? { updatedField: resource.updatedField } : {}),
  };
}

/** What a singleton holds before it is written: a value valid for what its GET (or else a write) answers. */
function initialValueOf(model: ApiModel, resource: ResourceModel, document: OpenApiDocument): unknown {
  const schema = answeredItemSchemaOf(model, resource, document);
  // Only written, never read back (`PATCH /users/me/track/page` answers 204): it holds an empty object, which writes change.
  if (schema === undefined) return {};
  const value = responseSampleOf(document, schema);
  return isObject(value) ? value : undefined;
}

/** The schema of the resource as its read (or else another operation with a JSON answer) answers it. */
function answeredItemSchemaOf(model: ApiModel, resource: ResourceModel, document: OpenApiDocument): unknown {
  const answering = model.operations.filter((operation) => operation.resource === resource.key && operation.success.contentType);
  const read = answering.find((operation) => operation.kind === 'read') ?? answering[0];
  const source = read && document.paths?.[read.path]?.[read.method];
  return isObject(source) ? itemSchemaOf(document, source) : undefined;
}

/**
 * Values for the required fields of an item that no request sets (`url`,
 * `node_id`, a wrapper's `code`), valid for every answer of the resource (a
 * create may answer another shape than a read): the store fills them, so
 * answers stay valid. Not the id, the timestamps or the path's ids, which the
 * store sets itself.
 */
function serverMadeValuesOf(
  model: ApiModel,
  resource: ResourceModel,
  document: OpenApiDocument,
  { pathFields, writtenBy, serverFields }: { pathFields: string[]; writtenBy: 'create' | 'replace'; serverFields: string[] },
): Record<string, unknown> | undefined {
  const operations = model.operations.filter((operation) => operation.resource === resource.key);
  // What the write that makes the value (a collection's create, a singleton's replace) must send is never missing from it, unless the store does not keep it.
  const sent = operations.filter((operation) => operation.kind === writtenBy).flatMap((operation) => requiredPropertiesOf(document, bodySchemaOf(document, operation)));
  const kept = sent.filter((name) => !serverFields.includes(name));
  const own = new Set(['id', ...kept, ...pathFields, ...(resource.createdField ? [resource.createdField] : []), ...(resource.updatedField ? [resource.updatedField] : [])]);
  const values = mergeSamples(answeredItemSchemasOf(model, resource, document).map((schema) => requiredResponseValuesOf(document, schema)));
  const made = Object.entries(values).filter(([name]) => !own.has(name));
  return made.length > 0 ? Object.fromEntries(made) : undefined;
}

function collectionView(input: CollectionInput): CollectionView {
  const { resource, document, model } = input;
  // Existence is checked against the parent's collection where it has one; the scope holds either way.
  const parent = storedParentOf(input.resource, input.resources, input.stored);
  const idField = resource.fields.find((field) => field.name === 'id');
  const parentParams = [...resource.parents.flatMap((p) => p.idParams), ...resource.scopeParams];
  const seed = canCreate(model, resource) || resource.shape !== 'flat' ? undefined : examplesOf(model, resource, document);
  const item = itemTypeName(resource, model.operations.filter((operation) => operation.resource === resource.key));
  const pathFields = pathFieldsOf(model, resource, document, parentParams);
  const serverFields = resource.shape === 'flat' ? serverShapedFieldsOf(model, resource, document) : [];
  const defaults = resource.shape === 'flat' ? serverMadeValuesOf(model, resource, document, { pathFields, writtenBy: 'create', serverFields }) : undefined;
  const itemType = item ? `${typesNamespace(resource)}.${item}` : undefined;
  return {
    variable: resource.identifier,
    itemType: itemType ?? 'Record<string, unknown>',
    untyped: itemType === undefined,
    ...constructions('Collection', resource.identifier, itemType ?? UNTYPED_ITEM, parent?.identifier),
    type: resource.type,
    shape: resource.shape,
    idParam: resource.idParams[0] ?? 'id',
    ids: isNumeric(idField?.type) || isNumeric(idParameterType(model, resource, document)) ? 'integer' : 'uuid',
    ...(parent ? { parent: parent.identifier } : {}),
    ...namedParentParams(resource, parent),
    scope: parentParams,
    pathFields,
    ...(resource.createdField ? { createdField: resource.createdField } : {}),
    ...(resource.updatedField ? { updatedField: resource.updatedField } : {}),
    ...sortOrdersOf(resource),
    ...(seed ? { seed: asJson(seed) } : {}),
    ...(defaults ? { defaults: asJson(defaults) } : {}),
    ...(serverFields.length > 0 ? { serverFields } : {}),
    ...(resource.shape === 'flat' ? nonNullView(model, resource, document) : {}),
    ...keyFieldView(model, resource, document),
  };
}

function namedParentParams(resource: ResourceModel, parent: ResourceModel | undefined): { parentParams?: string[] } {
  const named = parent && parentParamsNamed(resource, parent);
  return named ? { parentParams: named } : {};
}

function nonNullView(model: ApiModel, resource: ResourceModel, document: OpenApiDocument): { nonNullFields?: string[] } {
  const nonNullFields = nonNullFieldsOf(model, resource, document);
  return nonNullFields.length > 0 ? { nonNullFields } : {};
}

function keyFieldView(model: ApiModel, resource: ResourceModel, document: OpenApiDocument): { keyField?: string } {
  const keyField = keyFieldOf(model, resource, document);
  return keyField ? { keyField } : {};
}

/**
 * The parents' ids an item carries as fields (`author_id`): those its answers
 * declare a field of the path parameter's scalar type for (GitHub's `owner`
 * path parameter is a login; a task's `owner` field an object). Its values
 * are the parent's ids, which fit their own field.
 */
function pathFieldsOf(model: ApiModel, resource: ResourceModel, document: OpenApiDocument, parentParams: string[]): string[] {
  const answers = answeredFieldsOf(model, resource, document);
  const parameters = model.operations.filter((operation) => operation.resource === resource.key).flatMap((operation) => operation.parameters.path);
  return parentParams.filter((param) => {
    const parameter = parameters.find((candidate) => candidate.name === param);
    const declared = answers.filter((answer) => answer.has(param));
    const type = parameter && deref<SchemaObject>(document, parameter.schema);
    const scalar = type && scalarTypeOf(type);
    return resource.fields.some((field) => field.name === param) && declared.every((answer) => scalar !== undefined && sameScalar(scalar, answer.get(param)!));
  });
}

/**
 * The fields of a flat item a closed response schema declares: a store may
 * hold more (an id the answer has no room for), which the service does not send.
 */
function declaredFieldsOf(document: OpenApiDocument, operation: OperationModel): Pick<RouteView, 'declaredFields'> {
  const source = document.paths?.[operation.path]?.[operation.method];
  const item = isObject(source) && operation.resourceShape === 'flat' ? itemSchemaOf(document, source as OperationObject) : undefined;
  const schema = item && deref<SchemaObject>(document, item);
  if (schema?.additionalProperties !== false) return {};
  return { declaredFields: { fields: propertiesOf(document, schema).map((field) => field.name) } };
}

/** Whether a field holds the scalar type a path parameter gives (an integer id fits a number field). */
function sameScalar(type: string, field: SchemaObject): boolean {
  const declared = scalarTypeOf(field);
  return declared === type || (type === 'integer' && declared === 'number');
}

function sortOrdersOf(resource: ResourceModel): { sortOrders?: Record<string, unknown[]> } {
  const enums = resource.fields.filter((field) => field.sortable && field.enum !== undefined);
  return enums.length > 0 ? { sortOrders: Object.fromEntries(enums.map((field) => [field.name, field.enum!])) } : {};
}

/** A numeric id (`integer`, or GitHub's `number`): the store counts, as a UUID would break the id's schema. */
const isNumeric = (type: string | undefined) => type === 'integer' || type === 'number';

/** The type of the item path's id parameter: an item path typed `integer` takes no UUID, whatever its `id` field says. */
function idParameterType(model: ApiModel, resource: ResourceModel, document: OpenApiDocument): string | undefined {
  const name = resource.idParams[0];
  const parameter = model.operations
    .filter((operation) => operation.resource === resource.key)
    .flatMap((operation) => operation.parameters.path)
    .find((candidate) => candidate.name === name);
  const schema = parameter && deref<SchemaObject>(document, parameter.schema);
  return schema && scalarTypeOf(schema);
}

function canCreate(model: ApiModel, resource: ResourceModel): boolean {
  return model.operations.some((operation) => operation.resource === resource.key && storedKindOf(operation, resource) === 'create');
}

/**
 * A resource the API cannot create starts with the examples its schema gives
 * (3.1 `examples`, 3.0 `example`), so its reads answer out of the box.
 */
function examplesOf(model: ApiModel, resource: ResourceModel, document: OpenApiDocument): unknown[] | undefined {
  const operation = model.operations.find((candidate) => candidate.resource === resource.key && candidate.success.contentType);
  const source = operation && document.paths?.[operation.path]?.[operation.method];
  const item = isObject(source) ? itemSchemaOf(document, source) : undefined;
  const schema = item && deref<SchemaObject>(document, item);
  if (!schema) return undefined;
  const examples = Array.isArray(schema.examples) ? schema.examples : schema.example !== undefined ? [schema.example] : [];
  const key = keyFieldOf(model, resource, document) ?? 'id';
  const usable = examples.filter((example) => isObject(example) && (typeof example[key] === 'string' || typeof example[key] === 'number'));
  return usable.length > 0 ? usable : undefined;
}
