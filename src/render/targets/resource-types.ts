/**
 * `src/generated/resources/<resource>.ts`: named aliases into the
 * openapi-typescript types for each resource and its operations (`Book`,
 * `ListBooksQuery`, `CreateBookBody`, `GetBookData`…), the names handlers and
 * clients import. A resource that leaves the spec takes its file with it.
 */
import type { ApiModel, OperationModel, ResourceModel } from '../../model/index.js';
import { commentText, stringLiteral } from '../../model/names.js';
import { itemSchemaOf, propertiesOf, requiredNamesOf, requiredResourceFields, type Field } from '../../openapi/classify.js';
import { schemaFits, withoutNull } from '../../openapi/schema-fit.js';
import { byText } from '../../order.js';
import { deref, isObject, type OpenApiDocument, type OperationObject, type Reference, type RequestBodyObject, type SchemaObject } from '../../openapi/document.js';
import { ROOT_NAMES } from '../../model/naming.js';
import { templateFile, type Target } from '../target.js';
import { TypeAlias } from '../type-alias-print.js';

interface Alias {
  name: string;
  type: string;
}

/** A types module: one per resource, and `root` for the operations on none. */
export interface TypesModule {
  /** Its file name, `src/generated/resources/<fileName>.ts`. */
  fileName: string;
  /** The namespace other modules import it under: `import type * as BooksTypes from …/books.js`. */
  namespace: string;
  /** What its comments call it. */
  label: string;
  resource?: ResourceModel;
  operations: OperationModel[];
}

/** The namespace a generated file imports a types module under. */
export const typesNamespace = (names: { pascalName: string }) => `${names.pascalName}Types`;

/** Its import specifier, given the way from the importing file to `src/generated/`: as `{{js}}` prints it, and as a string literal. */
export const typesModulePath = (fileName: string, toGenerated: './' | '../generated/') => `${toGenerated}resources/${fileName}.js`;
export const typesModuleSpecifier = (fileName: string, toGenerated: './' | '../generated/') => stringLiteral(typesModulePath(fileName, toGenerated));

/** One module per resource, and `root` for the operations of none. */
export function typeModules(model: ApiModel): TypesModule[] {
  const modules: TypesModule[] = model.resources.map((resource) => ({
    fileName: resource.fileName,
    namespace: typesNamespace(resource),
    label: `the \`${resource.name}\` resource`,
    resource,
    operations: model.operations.filter((operation) => operation.resource === resource.key),
  }));
  const keys = new Set(model.resources.map((resource) => resource.key));
  const rest = model.operations.filter((operation) => !keys.has(operation.resource));
  const root = { fileName: ROOT_NAMES.fileName, namespace: typesNamespace(ROOT_NAMES), label: `the \`${ROOT_NAMES.fileName}\` resource`, operations: rest };
  return rest.length > 0 ? [...modules, root] : modules;
}

export const resourceTypesTarget: Target = {
  name: 'resource-types',
  async render({ model, renderer }) {
    return typeModules(model).map(({ fileName, label, resource, operations }) => {
      const view = {
        // Its file name: safe anywhere a template prints it (custom templates have long printed `name`).
        name: fileName,
        label: commentText(label),
        item: resource && withStatement(itemAlias(resource, operations)),
        operations: operations.map((operation) => ({ doc: operationDoc(operation), aliases: aliasesOf(operation).map(withStatement) })),
      };
      return templateFile(renderer, 'types/resource.ts.hbs', `src/generated/resources/${fileName}.ts`, view, 'generated');
    });
  },
};

/** An alias with its declaration, for `{{js statement}}`. */
function withStatement<A extends Alias>(alias: A): A & { statement: TypeAlias };
function withStatement<A extends Alias>(alias: A | undefined): (A & { statement: TypeAlias }) | undefined;
function withStatement<A extends Alias>(alias: A | undefined): (A & { statement: TypeAlias }) | undefined {
  return alias && { ...alias, statement: new TypeAlias(alias.name, alias.type) };
}

/** `GET /books: List books`, as a comment prints it. */
export function operationDoc(operation: OperationModel): string {
  return commentText(`${operation.httpMethod} ${operation.path}${operation.summary ? `: ${operation.summary}` : ''}`);
}

function operationType(operation: OperationModel): string {
  return `operations[${stringLiteral(operation.operationId)}]`;
}

/** The names of an operation's aliases, where the operation has that part. */
export function operationTypeNames(operation: OperationModel): { path?: string; query?: string; body?: string; form?: string; response?: string; data?: string; event?: string } {
  const name = operation.typeName;
  return {
    ...(operation.parameters.path.length > 0 ? { path: `${name}Path` } : {}),
    ...(operation.parameters.query.length > 0 ? { query: `${name}Query` } : {}),
    ...(operation.requestBody?.jsonContentType ? { body: `${name}Body` } : {}),
    ...(operation.requestBody?.form ? { form: `${name}Form` } : {}),
    ...(operation.success.contentType ? { response: `${name}Response`, data: `${name}Data` } : {}),
    ...(operation.success.events ? { event: `${name}Event` } : {}),
  };
}

/**
 * What an operation answers, as the server and the client both read it: a
 * `data` envelope or an empty body, and whether it is a paged list.
 */
export function answerOf(operation: OperationModel): { hasData: boolean; isList: boolean } {
  const hasData = operationTypeNames(operation).data !== undefined && operation.success.status !== 204;
  return { hasData, isList: operation.kind === 'list' && hasData && operation.paging !== undefined };
}

/**
 * What a `fields` answer of the operation carries besides the names asked
 * for and `id` — the fields its item's response schema requires — as the
 * service, the client's types and the suite all read it; undefined where the
 * operation takes no `fields`.
 */
export function sparseFieldsetOf(document: OpenApiDocument, operation: OperationModel): { required: string[] } | undefined {
  if (!operation.parameters.query.some((parameter) => parameter.name === 'fields')) return undefined;
  const source = document.paths?.[operation.path]?.[operation.method];
  return { required: isObject(source) ? requiredResourceFields(document, itemSchemaOf(document, source as OperationObject)) : [] };
}

function aliasesOf(operation: OperationModel): Alias[] {
  const base = operationType(operation);
  const names = operationTypeNames(operation);
  const aliases: Alias[] = [];
  if (names.path) aliases.push({ name: names.path, type: `${base}['parameters']['path']` });
  if (names.query) aliases.push({ name: names.query, type: `NonNullable<${base}['parameters']['query']>` });
  if (names.body) {
    aliases.push({ name: names.body, type: `NonNullable<${base}['requestBody']>['content'][${stringLiteral(operation.requestBody!.jsonContentType!)}]` });
  }
  if (names.form) aliases.push({ name: formAliasName(operation, names.form), type: formType(operation, `NonNullable<${base}['requestBody']>`) });
  if (names.event) aliases.push({ name: names.event, type: eventType(operation, `${base}['responses'][${operation.success.status}]`) });
  if (names.response && names.data) {
    aliases.push({ name: names.response, type: `${base}['responses'][${operation.success.status}]['content'][${stringLiteral(operation.success.contentType!)}]` });
    const data = `${names.response}['data']`;
    aliases.push({ name: names.data, type: operation.success.optionalData ? `Exclude<${data}, undefined>` : data });
  }
  return aliases;
}

/** A form with files takes the type its files have: `…Form<UploadedFile>` in the service, `…Form` (Blobs) in the client. */
function formAliasName(operation: OperationModel, name: string): string {
  return operation.requestBody!.form!.files.length > 0 ? `${name}<FileType = Blob>` : name;
}

/**
 * A form as its handler and its client see it: the fields as typed, each file
 * field as `FileType` (a `Blob` in the client, an uploaded file in the
 * service) where openapi-typescript says `string`.
 */
function formType(operation: OperationModel, body: string): string {
  const form = operation.requestBody!.form!;
  const fields = `${body}['content'][${stringLiteral(form.schemaMediaType)}]`;
  if (form.files.length === 0) return fields;
  const files = form.files.map((file) => `${stringLiteral(file.name)}${file.required ? '' : '?'}: FileType${file.multiple ? '[]' : ''}`);
  return `Omit<${fields}, ${form.files.map((file) => stringLiteral(file.name)).join(' | ')}> & { ${files.join('; ')} }`;
}

/** The `data` of an event: the schema's `data` where it describes the whole event, else what it describes; text as it is. */
function eventType(operation: OperationModel, response: string): string {
  const events = operation.success.events!;
  if (events.text && !events.enveloped) return 'string';
  const described = `${response}['content'][${stringLiteral(events.mediaType)}]`;
  return events.enveloped ? `NonNullable<${described}['data']>` : described;
}

/** The resource as `data` carries it: from its read, else from a list's items, else from its create. */
/** The name of a resource's item type (`Book`), when its operations show one. */
export function itemTypeName(resource: ResourceModel, operations: OperationModel[]): string | undefined {
  return itemAlias(resource, operations)?.name;
}

function itemAlias(resource: ResourceModel, operations: OperationModel[]): Alias & { doc: string } | undefined {
  const doc = `${resource.singleton ? 'The' : 'A'} ${resource.typeName}, as the \`data\` of a response carries it.`;
  const withData = (kind: OperationModel['kind']) => operations.find((operation) => operation.kind === kind && operation.success.contentType);
  const single = withData('read') ?? withData('create') ?? withData('replace');
  if (single) return { name: resource.typeName, type: `${single.typeName}Data`, doc };
  const list = withData('list');
  if (list) return { name: resource.typeName, type: `${list.typeName}Data[number]`, doc };
  return undefined;
}

/**
 * What the default store does for an operation: its kind, where the store
 * serves it (a list that answers no page is none; a create from a form or a
 * file is a create, see createsFromUpload).
 */
export function storedKindOf(operation: OperationModel, resource: ResourceModel | undefined): OperationModel['kind'] {
  if (createsFromUpload(operation, resource)) return 'create';
  return operation.kind !== 'list' || answerOf(operation).isList ? operation.kind : 'other';
}

/** A POST of a form, or of a file, to a collection that answers the new item: the store keeps it, its files beside it. */
export function createsFromUpload(operation: OperationModel, resource: ResourceModel | undefined): boolean {
  const body = operation.requestBody;
  return (
    operation.method === 'post' &&
    resource !== undefined &&
    !resource.singleton &&
    operation.path === resource.collectionPath &&
    (body?.form !== undefined || body?.bytes !== undefined) &&
    operation.success.contentType !== undefined &&
    answerOf(operation).hasData
  );
}

/** The default store's method for each kind of operation it serves: the one list of what it serves. */
export const STORE_METHODS: Partial<Record<OperationModel['kind'], string>> = {
  list: 'list',
  read: 'get',
  create: 'create',
  replace: 'replace',
  update: 'update',
  delete: 'remove',
};

/** Keys of the resources the default store keeps (a collection or a singleton): those with an operation it serves. */
export function storedResourceKeys(model: ApiModel): Set<string> {
  const resources = new Map(model.resources.map((resource) => [resource.key, resource]));
  return new Set(model.operations.filter((operation) => resources.has(operation.resource) && STORE_METHODS[storedKindOf(operation, resources.get(operation.resource))] !== undefined).map((operation) => operation.resource));
}

/**
 * The resource whose item owns this one's items (or value), where the default
 * store keeps it: the service answers 404 under a missing one, and the suite
 * expects that. None under a path that names no item of the parent just above
 * (`/users/me`; GitHub's `/orgs/{org}/actions/hosted-runners/limits`, beside
 * the runners rather than under one) or under a parent the store does not
 * keep (a lookup key such as `/autocomplete/addresses/{address}/gbr`).
 */
export function storedParentOf(resource: ResourceModel, resources: ReadonlyMap<string, ResourceModel>, stored: ReadonlySet<string>): ResourceModel | undefined {
  if ((resource.parents.at(-1)?.idParams.length ?? 0) === 0) return undefined;
  const parent = parentResourceOf(resource, resources);
  return parent && stored.has(parent.key) && !parent.singleton ? parent : undefined;
}

/**
 * The resource its parent segments name: the one keyed by them, or the one a
 * top-level path joined (`/books/{book_id}/reviews` is under `authors/books`).
 */
export function parentResourceOf(resource: ResourceModel, resources: ReadonlyMap<string, ResourceModel>): ResourceModel | undefined {
  const family = familyOf(resources);
  return family.parents.has(resource) ? family.parents.get(resource) : parentFound(resource, resources, family.reachedAs);
}

/** The resources whose parent `resource` is, in the map's order. */
export function childResourcesOf(resource: ResourceModel, resources: ReadonlyMap<string, ResourceModel>): readonly ResourceModel[] {
  return familyOf(resources).children.get(resource) ?? [];
}

function parentFound(resource: ResourceModel, resources: ReadonlyMap<string, ResourceModel>, reachedAs: ReadonlyMap<string, ResourceModel>): ResourceModel | undefined {
  const parentKey = resource.parents.map((p) => p.collection).join('/');
  return resources.get(parentKey) ?? reachedAs.get(parentKey);
}

interface Family {
  /** The first resource each joined key reaches. */
  reachedAs: Map<string, ResourceModel>;
  parents: Map<ResourceModel, ResourceModel | undefined>;
  children: Map<ResourceModel, ResourceModel[]>;
}

/** Per map of resources (made once per view, never changed), found once: GitHub asks for parents 700,000 times. */
const families = new WeakMap<ReadonlyMap<string, ResourceModel>, Family>();

function familyOf(resources: ReadonlyMap<string, ResourceModel>): Family {
  let family = families.get(resources);
  if (family) return family;
  family = { reachedAs: new Map(), parents: new Map(), children: new Map() };
  for (const candidate of resources.values()) for (const key of candidate.reachedAs ?? []) if (!family.reachedAs.has(key)) family.reachedAs.set(key, candidate);
  for (const resource of resources.values()) {
    const parent = parentFound(resource, resources, family.reachedAs);
    family.parents.set(resource, parent);
    if (!parent) continue;
    const siblings = family.children.get(parent);
    if (siblings) siblings.push(resource);
    else family.children.set(parent, [resource]);
  }
  families.set(resources, family);
  return family;
}

/**
 * The parent's item parameters a child's path names, where it names only the
 * last of them (`/books/{book_id}/reviews` names no author): the parent is found by those.
 */
export function parentParamsNamed(resource: ResourceModel, parent: ResourceModel): string[] | undefined {
  const named = resource.parents.flatMap((p) => p.idParams);
  const all = [...parent.parents.flatMap((p) => p.idParams), ...parent.scopeParams, parent.idParams[0] ?? 'id'];
  return named.length > 0 && named.length < all.length ? all.slice(-named.length) : undefined;
}

/** The schema of an operation's JSON request body, where it takes one. */
export function bodySchemaOf(document: OpenApiDocument, operation: OperationModel): SchemaObject | Reference | undefined {
  if (!operation.requestBody?.jsonContentType) return undefined;
  const source = document.paths?.[operation.path]?.[operation.method] as OperationObject | undefined;
  const body = source?.requestBody && deref<RequestBodyObject>(document, source.requestBody);
  return body?.content[operation.requestBody.jsonContentType]?.schema;
}

/** The order answers are sampled in: the read's, the fullest description of an item, first. */
const ANSWER_ORDER: OperationModel['kind'][] = ['read', 'list', 'create', 'replace', 'update'];

/** The item schemas of every answer of a resource that carries it (a create may answer another shape than a read), the read's first. */
export function answeredItemSchemasOf(model: ApiModel, resource: ResourceModel, document: OpenApiDocument): (SchemaObject | Reference)[] {
  return model.operations
    .filter((operation) => operation.resource === resource.key && operation.success.contentType && ANSWER_ORDER.includes(operation.kind))
    .sort((a, b) => ANSWER_ORDER.indexOf(a.kind) - ANSWER_ORDER.indexOf(b.kind))
    .map((operation) => document.paths?.[operation.path]?.[operation.method])
    .flatMap((source) => (isObject(source) ? [itemSchemaOf(document, source as OperationObject)] : []))
    .filter((schema): schema is SchemaObject | Reference => schema !== undefined);
}

const WRITES = new Set<OperationModel['kind']>(['create', 'replace', 'update']);

/**
 * The fields a write names that the store does not keep as written, because
 * what the write allows there does not fit what an answer declares (GitHub
 * writes a tag's `object` as a sha and answers an object; a `homepage` any
 * string, answered as a URI). The store answers a value of its own for them,
 * and the suite does not expect its value back. Service and suite read them here.
 */
export function serverShapedFieldsOf(model: ApiModel, resource: ResourceModel, document: OpenApiDocument): string[] {
  return writtenMisfitsOf(model, resource, document).filter((misfit) => !misfit.butNull).map((misfit) => misfit.name);
}

/**
 * The fields a write may set to null where an answer requires a value (a
 * merge-patch body makes every field nullable): the store keeps what they
 * held instead of the null.
 */
export function nonNullFieldsOf(model: ApiModel, resource: ResourceModel, document: OpenApiDocument): string[] {
  const misfits = writtenMisfitsOf(model, resource, document);
  const shaped = new Set(misfits.filter((misfit) => !misfit.butNull).map((misfit) => misfit.name));
  return misfits.filter((misfit) => misfit.butNull && !shaped.has(misfit.name)).map((misfit) => misfit.name);
}

/** Each written field that does not fit an answer of it, and whether it would but for the null it allows; by name. */
function writtenMisfitsOf(model: ApiModel, resource: ResourceModel, document: OpenApiDocument): { name: string; butNull: boolean }[] {
  const answers = answeredFieldsOf(model, resource, document);
  const written = model.operations
    .filter((operation) => operation.resource === resource.key && WRITES.has(operation.kind))
    .flatMap((operation) => writtenFieldsOf(document, bodySchemaOf(document, operation)));
  const misfits = new Map<string, boolean>();
  for (const { name, schema } of written) {
    const declared = answers.filter((answer) => answer.has(name)).map((answer) => answer.get(name));
    if (declared.every((field) => schemaFits(document, schema, field))) continue;
    const butNull = declared.every((field) => schemaFits(document, withoutNull(document, schema), field));
    misfits.set(name, (misfits.get(name) ?? true) && butNull);
  }
  return [...misfits].map(([name, butNull]) => ({ name, butNull })).sort((a, b) => byText(a.name, b.name));
}

/** The fields a body may write: its properties, and those of each `oneOf` or `anyOf` branch (GitHub's `POST /user/codespaces`). */
function writtenFieldsOf(document: OpenApiDocument, schema: SchemaObject | Reference | undefined): Field[] {
  const resolved = schema && deref<SchemaObject>(document, schema);
  if (!resolved) return [];
  const branches = [resolved.oneOf, resolved.anyOf].flatMap((list) => (Array.isArray(list) ? (list as (SchemaObject | Reference)[]) : []));
  return [...propertiesOf(document, resolved), ...branches.flatMap((branch) => propertiesOf(document, branch))];
}

/** Each answer's fields of a resource, by name. */
export function answeredFieldsOf(model: ApiModel, resource: ResourceModel, document: OpenApiDocument): Map<string, SchemaObject>[] {
  return answeredItemSchemasOf(model, resource, document).map((schema) => new Map(propertiesOf(document, schema).map((field) => [field.name, field.schema])));
}

/**
 * The field an item's path names it by, where that is not `id`
 * (`/variables/{name}` beside a `name` field and no `id`): the store keys
 * items by its written value, keeps it on writes, and the suite addresses
 * items by it.
 */
export function keyFieldOf(model: ApiModel, resource: ResourceModel, document: OpenApiDocument): string | undefined {
  const param = resource.idParams[0];
  if (param === undefined || resource.singleton || resource.fields.some((field) => field.name === 'id')) return undefined;
  if (!resource.fields.some((field) => field.name === param)) return undefined;
  // A key every create sends: an item created without one could not be found by it.
  const creates = model.operations.filter((operation) => operation.resource === resource.key && operation.kind === 'create');
  return creates.every((create) => requiredNamesOf(document, bodySchemaOf(document, create)).includes(param)) ? param : undefined;
}
