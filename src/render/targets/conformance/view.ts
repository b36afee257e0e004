/**
 * The conformance suite's view model: what the suite knows of the API
 * (`test/conformance/api.ts`) and, per resource, the named tests that apply
 * to each operation, with the data each needs (bodies built from the
 * schemas). The templates only print it.
 */
import type { ApiModel, OperationModel, ResourceModel } from '../../../model/index.js';
import { deref, isObject, type OpenApiDocument, type SchemaObject } from '../../../openapi/document.js';
import type { ApiPlan, Json, OperationPlan, ResourcePlan } from '../../../runtime/conformance/plan.js';
import { queryPairs } from '../../../runtime/client/styles.js';
import { defeatText, plainStringsOf, requestSampleOf, requiredPropertiesOf, sampleOf, valuesOf, violationsOf, writablePropertiesOf, type Constraint } from './sample.js';
import { matchesPattern, patternSample } from './pattern.js';
import { itemSchemaOf, propertiesOf } from '../../../openapi/classify.js';
import { commentText } from '../../../model/names.js';
import { ROOT_NAMES } from '../../../model/naming.js';
import { uploadPlanOf } from './uploads.js';
import { Call, Code, type JsValue } from '../../js-print.js';
import { propertyTests } from './property-tests.js';
import { answerOf, bodySchemaOf, keyFieldOf, serverShapedFieldsOf, sparseFieldsetOf, storedParentOf, storedResourceKeys, parentParamsNamed } from '../resource-types.js';

/** One `suite.check(name, <module>.<check>, operationId, argument?)` statement of a test file. */
export interface TestView {
  name: string;
  /** Where the check lives: `../checks.ts`, or `../properties.ts` for the property-based ones. */
  module: 'checks' | 'properties';
  check: string;
  operationId: string;
  argument?: unknown;
  /** The whole statement's call, for `{{js}}`. */
  call: Call;
}

/** `suite.check(name, <module>.<check>, operationId, argument?)`. */
export function checkTest(module: TestView['module'], name: string, check: string, operationId: string, argument?: unknown): TestView {
  const args: JsValue[] = [name, new Code(`${module}.${check}`), operationId, ...(argument === undefined ? [] : [argument as JsValue])];
  return { name, module, check, operationId, ...(argument === undefined ? {} : { argument }), call: new Call(new Code('suite.check'), args) };
}

export interface OperationTestsView {
  title: string;
  tests: TestView[];
}

export interface TestFileView {
  file: string;
  label: string;
  operations: OperationTestsView[];
  /** The modules of checks its tests use. */
  modules: TestView['module'][];
}

export interface ConformanceView {
  api: ApiPlan;
  files: TestFileView[];
}

/** Ids that exist nowhere, one per kind of id schema. */
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const UNKNOWN_STRING = 'no-such-id'; // letters and dashes: it passes the usual id patterns

export function conformanceView(model: ApiModel, document: OpenApiDocument): ConformanceView {
  const resources = new Map(model.resources.map((resource) => [resource.key, resource]));
  const operations = Object.fromEntries(model.operations.map((operation) => [operation.operationId, operationPlan(model, document, operation, resources)]));
  const stored = storedResourceKeys(model);
  const plans = Object.fromEntries(model.resources.map((resource) => [resource.name, resourcePlan(model, document, resource, resources, stored)]));
  const { mechanism, version } = model.config.versioning;
  return {
    api: {
      title: model.title,
      basePath: model.basePath,
      versioning: { url: mechanism === 'url' || mechanism === 'both', header: mechanism === 'header' || mechanism === 'both', version },
      bodyLimit: model.config.bodyLimit,
      validationStatus: model.config.validation.status,
      rateLimit: model.config.rateLimit,
      apiKeyHeader: model.securitySchemes.find((scheme) => scheme.kind === 'apiKey' && scheme.header)?.header ?? 'X-API-Key',
      scopes: [...new Set(model.operations.flatMap((operation) => operation.security.alternatives.flat().flatMap((part) => part.scopes)))].sort(),
      resources: plans,
      operations,
    },
    files: testFiles(model, document, resources, plans),
  };
}

function resourcePlan(model: ApiModel, document: OpenApiDocument, resource: ResourceModel, resources: ReadonlyMap<string, ResourceModel>, stored: ReadonlySet<string>): ResourcePlan {
  const own = model.operations.filter((operation) => operation.resource === resource.key);
  const byKind = Object.fromEntries(own.filter((operation) => operation.kind !== 'other').map((operation) => [operation.kind, operation.operationId]));
  const create = own.find((operation) => operation.kind === 'create');
  // The parent the service checks: only one the path names (`/users/me` names none) and the store keeps.
  const parent = storedParentOf(resource, resources, stored);
  const createSchema = create && bodySchemaOf(document, create);
  const { sample, defeat } = createSchema === undefined ? {} : requestSampleOf(document, createSchema);
  const uploaded = create ? undefined : uploadPlanOf(model, document, resource);
  const idSchema = resource.idParams[0] ? idParameterSchema(document, own, resource.idParams[0]) : undefined;
  const unknownId = unknownIdFor(idSchema);
  const parentParams = [...resource.parents.flatMap((p) => p.idParams), ...resource.scopeParams];
  // Values no resource of the API describes: the parents' where there is no parent to create, and the collection's own.
  const madeUp = parent ? resource.scopeParams : parentParams;
  const serverFields = serverShapedFieldsOf(model, resource, document);
  const keyField = keyFieldOf(model, resource, document);
  const scope = madeUpScope(document, own, madeUp);
  const unbuilt = madeUp.filter((name) => !(name in scope)).map((name) => `path.${name}`);
  return {
    shape: resource.shape,
    ...(resource.idParams[0] ? { idParam: resource.idParams[0] } : {}),
    ...(parent ? { parent: parent.name } : {}),
    parentParams,
    ...parentItemParamsOf(resource, parent),
    operations: byKind,
    ...(defeat ? { defeat: defeatText(defeat) } : {}),
    ...(sample !== undefined ? { sample, variable: plainStringsOf(document, createSchema).filter(({ name }) => isObject(sample) && name in sample && isBodyField(name)) } : {}),
    ...(uploaded ? { upload: uploaded.upload, sample: uploaded.sample, variable: uploaded.variable } : {}),
    ...(madeUp.length > 0 ? { scope } : {}),
    ...(unbuilt.length > 0 ? { unbuilt } : {}),
    ...(unknownId !== undefined ? { unknownId } : {}),
    unknownParents: Object.fromEntries(parentParams.flatMap((name) => present(name, unknownIdFor(idParameterSchema(document, own, name))))),
    ...(resource.createdField ? { createdField: resource.createdField } : {}),
    ...(resource.updatedField ? { updatedField: resource.updatedField } : {}),
    ...(serverFields.length > 0 ? { serverFields } : {}),
    ...(keyField ? { keyField, ...keysOf(document, createSchema, keyField, [isObject(sample) ? sample[keyField] : undefined, unknownId]) } : {}),
  };
}

/**
 * Distinct values for a key the variation of plain strings does not reach:
 * each create takes the next. Not the sample's (a check sends the sample
 * itself) nor the id the suite takes for unknown.
 */
function keysOf(document: OpenApiDocument, createSchema: unknown, keyField: string, taken: unknown[]): { keys?: Json[] } {
  if (createSchema === undefined || plainStringsOf(document, createSchema).some(({ name }) => name === keyField)) return {};
  const property = deref<SchemaObject>(document, (deref<SchemaObject>(document, createSchema as SchemaObject)?.properties ?? {})[keyField] as SchemaObject);
  const pattern = typeof property?.pattern === 'string' ? property.pattern : undefined;
  const drawn = pattern === undefined ? undefined : [...new Set(Array.from({ length: KEY_COUNT }, (_, seed) => patternSample(pattern, { ...(typeof property?.minLength === 'number' ? { min: property.minLength } : {}), ...(typeof property?.maxLength === 'number' ? { max: property.maxLength } : {}) }, seed)))].filter((value) => value !== undefined);
  const keys = (drawn ?? valuesOf(document, createSchema, keyField, KEY_COUNT))?.filter((key) => !taken.includes(key));
  return keys && keys.length > 1 ? { keys } : {};
}

/** How many keys a plan holds: more creates of one resource than a worker makes. */
const KEY_COUNT = 100;

function parentItemParamsOf(resource: ResourceModel, parent: ResourceModel | undefined): Pick<ResourcePlan, 'parentItemParams'> {
  const named = parent && parentParamsNamed(resource, parent);
  return named ? { parentItemParams: named } : {};
}

function operationPlan(model: ApiModel, document: OpenApiDocument, operation: OperationModel, resources: ReadonlyMap<string, ResourceModel>): OperationPlan {
  const { hasData, isList } = answerOf(operation);
  const schema = bodySchemaOf(document, operation);
  const { sample, defeat } = schema === undefined ? {} : requestSampleOf(document, schema);
  const query = requiredQueryOf(document, operation);
  // Required inputs no sample fits (a pattern the sampler cannot follow): the checks that must get past validation skip.
  const unbuilt = [
    ...(operation.requestBody?.required && schema !== undefined && sample === undefined ? ['body'] : []),
    ...operation.parameters.query.filter((parameter) => parameter.required && !(parameter.name in (query.requiredQuery ?? {}))).map((parameter) => `query.${parameter.name}`),
  ];
  const kinds = new Map(model.securitySchemes.map((scheme) => [scheme.name, scheme.kind]));
  // Credentials the suite can send alone: an alternative of one Bearer or API key scheme.
  const schemes = operation.security.alternatives.filter((alternative) => alternative.length === 1).map(([part]) => kinds.get(part!.scheme) ?? 'other');
  return {
    method: operation.httpMethod,
    path: operation.path,
    kind: isList || operation.kind !== 'list' ? operation.kind : 'other',
    status: operation.success.status,
    ...(resources.has(operation.resource) ? { resource: resources.get(operation.resource)!.name } : {}),
    hasData,
    security: { public: operation.security.public, schemes: [...new Set(schemes.filter((scheme) => scheme !== 'other'))], scopes: requiredScopes(operation) },
    ...(sample !== undefined ? { body: { contentType: operation.requestBody!.jsonContentType!, sample } } : {}),
    ...(isList ? { paging: { style: operation.paging!.style, defaultLimit: operation.paging!.defaultLimit, maxLimit: operation.paging!.maxLimit } } : {}),
    query: operation.parameters.query.map((parameter) => parameter.name),
    ...query,
    ...(unbuilt.length > 0 ? { unbuilt } : {}),
    ...(defeat && unbuilt.includes('body') ? { defeat: defeatText(defeat) } : {}),
  };
}

/** A sample for each required query parameter, written as its style says: without them every request is a 422. */
function requiredQueryOf(document: OpenApiDocument, operation: OperationModel): Pick<OperationPlan, 'requiredQuery'> {
  const values = operation.parameters.query.flatMap((parameter) => {
    const value = parameter.required ? sampleOf(document, parameter.schema) : undefined;
    return isFlat(value) ? [[parameter.name, queryPairs(parameter.name, value, parameter)] as const] : [];
  });
  return values.length > 0 ? { requiredQuery: Object.fromEntries(values) } : {};
}

const isQueryScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** A value a query parameter's style can write: a scalar, or an array or object of scalars (styles do not nest). */
function isFlat(value: unknown): boolean {
  if (isQueryScalar(value)) return true;
  if (Array.isArray(value)) return value.every(isQueryScalar);
  return isObject(value) && Object.values(value).every(isQueryScalar);
}

/** Scopes every alternative asks for: a credential with none of them is refused (403) whichever it tries. */
function requiredScopes(operation: OperationModel): string[] {
  const { alternatives, public: open } = operation.security;
  if (open || alternatives.length === 0 || alternatives.some((alternative) => alternative.every((part) => part.scopes.length === 0))) return [];
  return [...new Set(alternatives.flat().flatMap((part) => part.scopes))].sort();
}

/** An id valid for the schema that no item has; none where no value fits its pattern. */
function unknownIdFor(schema: SchemaObject | undefined): string | number | undefined {
  // An enum names kinds, not items (GitHub's `package_type`): any of its values is missing until created.
  const [first] = Array.isArray(schema?.enum) ? schema.enum : [];
  if (typeof first === 'string' || typeof first === 'number') return first;
  if (schema?.type === 'integer' || schema?.type === 'number') return typeof schema.maximum === 'number' ? schema.maximum : 2147483647;
  if (schema?.format === 'uuid') return UNKNOWN_UUID;
  const bounds = { min: Number(schema?.minLength ?? 0), max: Number(schema?.maxLength ?? Infinity) };
  // Not the pattern's first string, which a made-up parent gets: another, which no item has.
  if (typeof schema?.pattern === 'string' && !matchesPattern(schema.pattern, UNKNOWN_STRING)) return patternSample(schema.pattern, bounds, UNKNOWN_SEED);
  return UNKNOWN_STRING.length <= bounds.max ? UNKNOWN_STRING : undefined;
}

/** A path parameter's entry, where it has a value. */
const present = (name: string, value: string | number | undefined): [string, string | number][] => (value === undefined ? [] : [[name, value]]);

/** Which string of a pattern stands for an id that exists nowhere. */
const UNKNOWN_SEED = 1;

/** Any valid value will do for a parent the API does not describe; none for a parameter no sample fits (its pattern defeats the sampler). */
function madeUpScope(document: OpenApiDocument, operations: OperationModel[], params: string[]): Record<string, string | number> {
  return Object.fromEntries(
    params.flatMap((name) => {
      const value = sampleOf(document, idParameterSchema(document, operations, name) ?? { type: 'string' });
      return present(name, typeof value === 'string' || typeof value === 'number' ? value : undefined);
    }),
  );
}

function idParameterSchema(document: OpenApiDocument, operations: OperationModel[], name: string): SchemaObject | undefined {
  for (const operation of operations) {
    const parameter = operation.parameters.path.find((candidate) => candidate.name === name);
    const schema = parameter && deref<SchemaObject>(document, parameter.schema);
    if (isObject(schema)) return schema;
  }
  return undefined;
}


function testFiles(model: ApiModel, document: OpenApiDocument, resources: ReadonlyMap<string, ResourceModel>, plans: Record<string, ResourcePlan>): TestFileView[] {
  const files = new Map<string, TestFileView>();
  const methodsTested = new Set<string>();
  for (const operation of model.operations) {
    const resource = resources.get(operation.resource);
    const file = (resource ?? ROOT_NAMES).fileName;
    const view = files.get(file) ?? { file, label: commentText(resource ? `${resource.name} (${resource.itemPath ?? resource.collectionPath})` : 'the API root'), operations: [], modules: [] };
    files.set(file, view);
    const plan = resource && plans[resource.name];
    const unknown = unaddressedParams(operation, plan);
    if (unknown.length > 0) {
      // Several ids per item are not modelled yet: say so, rather than fail on a path the suite cannot fill.
      view.operations.push({ title: `${operation.httpMethod} ${operation.path} (${operation.operationId})`, tests: [test(operation, 'is addressed by its resource', 'addressable', { params: unknown })] });
      continue;
    }
    const tests = testsOf({ model, document, operation, resource, plan });
    // One wrong method per path, with the path's first operation.
    if (!methodsTested.has(operation.path)) {
      methodsTested.add(operation.path);
      const wrong = wrongMethodOf(document, operation.path);
      // Its path parameters need a resource to fill them.
      if (wrong && (operation.parameters.path.length === 0 || resource)) tests.push(test(operation, `→ 405 METHOD_NOT_ALLOWED with Allow for ${wrong}`, 'methodNotAllowed', wrong));
    }
    view.operations.push({ title: `${operation.httpMethod} ${operation.path} (${operation.operationId})`, tests });
  }
  return [...files.values()].map((view) => ({ ...view, modules: modulesOf(view) }));
}

const modulesOf = (view: TestFileView): TestView['module'][] => [...new Set(view.operations.flatMap((operation) => operation.tests.map((test) => test.module)))].sort();

/** Path parameters of an operation on a resource that its plan gives no value for (neither a parent's, the scope's nor the id). */
function unaddressedParams(operation: OperationModel, plan: ResourcePlan | undefined): string[] {
  if (!plan) return [];
  const known = new Set([...plan.parentParams, ...(plan.idParam ? [plan.idParam] : [])]);
  return operation.parameters.path.map((parameter) => parameter.name).filter((name) => !known.has(name));
}

/** A method the path does not declare, preferring ones that cannot be confused with a read. */
function wrongMethodOf(document: OpenApiDocument, path: string): string | undefined {
  const item = document.paths?.[path] ?? {};
  return ['delete', 'post', 'put', 'patch', 'get'].find((method) => !(method in item))?.toUpperCase();
}

interface TestInput {
  model: ApiModel;
  document: OpenApiDocument;
  operation: OperationModel;
  resource: ResourceModel | undefined;
  plan: ResourcePlan | undefined;
}

const test = (operation: OperationModel, outcome: string, check: string, argument?: unknown): TestView =>
  checkTest('checks', `${operation.httpMethod} ${operation.path} ${outcome}`, check, operation.operationId, argument);

function testsOf(input: TestInput): TestView[] {
  const { operation } = input;
  // Without a resource to place it, only what needs no path can be tried.
  const addressable = operation.parameters.path.length === 0 || (input.plan !== undefined && operation.kind !== 'other');
  return [...successTests(input), ...fileTests(input), ...(addressable ? authTests(input) : []), ...notFoundTests(input), ...bodyTests(input), ...listTests(input), ...cachingTests(input), ...propertyTests(input.document, operation, input.resource, input.plan)];
}

function successTests({ operation, plan, resource }: TestInput): TestView[] {
  const status = operation.success.status;
  if (!plan) return [];
  if (resource?.singleton) return singletonSuccessTests(operation);
  switch (operation.kind) {
    case 'list':
      return answerOf(operation).isList ? [test(operation, `→ ${status} with the list envelope, data valid against the schema`, 'lists')] : [];
    case 'read':
      return [test(operation, `→ ${status} with the success envelope, data valid against the schema`, 'reads')];
    case 'create': {
      if (plan.sample === undefined) return [];
      const outcome = answerOf(operation).hasData ? `→ ${status} with the created resource (or its id), then GET returns it` : `→ ${status} with no body`;
      return [test(operation, outcome, 'creates')];
    }
    case 'delete':
      return [test(operation, `→ ${status}${status === 204 ? ' with an empty body' : ''}, then GET → 404`, 'deletes')];
    default:
      return [];
  }
}

/** An upload the default store keeps comes back as it went. */
function fileTests({ model, operation, plan }: TestInput): TestView[] {
  const upload = plan?.upload;
  if (upload?.operationId !== operation.operationId || !upload.download) return [];
  const download = model.operations.find((candidate) => candidate.operationId === upload.download)!;
  return [test(operation, `→ ${operation.success.status}, then ${download.httpMethod} ${download.path} gives back the same bytes, as ${upload.files[0]!.mediaType}`, 'keepsUploadedFile')];
}

/** A singleton is read and deleted where it is; its writes are checked with the body tests. */
function singletonSuccessTests(operation: OperationModel): TestView[] {
  const status = operation.success.status;
  if (operation.kind === 'read') return [test(operation, `→ ${status} with the success envelope, data valid against the schema`, 'readsSingleton')];
  if (operation.kind === 'delete') return [test(operation, `→ ${status}, then GET → 404, and PUT fills it again`, 'deletesSingleton')];
  return [];
}

function authTests({ operation }: TestInput): TestView[] {
  if (operation.security.public) return [test(operation, '→ answers without a credential (public)', 'publicWithoutCredential')];
  const tests = [
    test(operation, '→ 401 UNAUTHORIZED without a credential', 'unauthorizedWithoutCredential'),
    test(operation, '→ 401 UNAUTHORIZED with an invalid credential', 'unauthorizedWithInvalidCredential'),
  ];
  const scopes = requiredScopes(operation);
  if (scopes.length > 0) tests.push(test(operation, `→ 403 FORBIDDEN with a credential lacking ${scopes.join(' or ')}`, 'forbiddenWithoutScope'));
  return tests;
}

function notFoundTests({ operation, plan, resource }: TestInput): TestView[] {
  if (!plan || !resource || operation.kind === 'other') return [];
  const tests: TestView[] = [];
  const onItem = resource.idParams.some((param) => operation.parameters.path.some((candidate) => candidate.name === param));
  if (onItem && plan.unknownId !== undefined) tests.push(test(operation, '→ 404 RESOURCE_NOT_FOUND for an unknown id', 'notFoundForUnknownId'));
  // A path that names no parent item (`/nutlink/tickers/{ticker}` beside `/nutlink/{address}/tickers`) lists under every parent.
  const namesParent = resource.parents.flatMap((p) => p.idParams).every((param) => operation.parameters.path.some((candidate) => candidate.name === param));
  if (plan.parent && plan.parentParams.length > 0 && namesParent && (!onItem || plan.unknownId !== undefined)) tests.push(test(operation, `→ 404 RESOURCE_NOT_FOUND under a missing ${plan.parent} item`, 'notFoundUnderMissingParent'));
  return tests;
}

/** A field the suite may vary through a body: not the id, which the store gives (a body's `id` never changes it). */
const isBodyField = (name: string) => name !== 'id';

/**
 * Bodies that each change one field of the operation's sample to another
 * valid value (one the service keeps as written and its answer can show), an update's with the values the
 * schema requires beside it (GitHub's creation-cap PATCH requires `enabled`). Two where the
 * field has them: what the item holds is known only once it exists (a value
 * the server made), and the check sends the one that changes it.
 */
function changesOf(document: OpenApiDocument, operation: OperationModel, plan: ResourcePlan): Record<string, unknown>[] | undefined {
  const schema = bodySchemaOf(document, operation);
  const sample = schema === undefined ? undefined : sampleOf(document, schema);
  if (!isObject(sample)) return undefined;
  // A replace sends the change over the whole sample; an update sends it alone.
  const required = operation.kind === 'update' ? requiredPropertiesOf(document, schema).filter((name) => name in sample) : [];
  // The service keeps neither the fields it answers its own values for nor the key that names the item.
  const kept = new Set([...(plan.serverFields ?? []), ...(plan.keyField ? [plan.keyField] : [])]);
  for (const name of writablePropertiesOf(document, schema).filter((name) => isBodyField(name) && !kept.has(name))) {
    const constraints = answeredAs(document, operation, name);
    const values = (valuesOf(document, schema, name, 3, constraints) ?? valuesOf(document, schema, name, 2, constraints))?.filter((value) => value !== sample[name]);
    const beside = Object.fromEntries(required.filter((other) => other !== name).map((other) => [other, sample[other]]));
    if (values && values.length > 0) return values.slice(0, 2).map((value) => ({ [name]: value, ...beside }));
  }
  return undefined;
}

/** The schema a field must keep as the operation answers it (its item's field), where it answers one. */
function answeredAs(document: OpenApiDocument, operation: OperationModel, name: string): Constraint[] {
  const source = document.paths?.[operation.path]?.[operation.method];
  const item = isObject(source) ? itemSchemaOf(document, source) : undefined;
  const field = propertiesOf(document, item).find((candidate) => candidate.name === name);
  return field ? [{ schema: field.schema, direction: 'response' }] : [];
}

/** The first field a set of changes changes: what the test's name says. */
const changedField = (changes: Record<string, unknown>[]) => Object.keys(changes[0]!)[0];

function bodyTests({ operation, document, plan, resource }: TestInput): TestView[] {
  const schema = bodySchemaOf(document, operation);
  if (schema === undefined || !plan || operation.kind === 'other') return [];
  const tests: TestView[] = [];
  const changes = changesOf(document, operation, plan);
  const singleton = resource?.singleton === true;
  if (operation.kind === 'replace' && changes) tests.push(test(operation, `→ ${operation.success.status}, replaces the resource (GET shows the new ${changedField(changes)})`, singleton ? 'replacesSingleton' : 'replaces', changes));
  if (operation.kind === 'update' && changes) tests.push(test(operation, `→ ${operation.success.status}, changes ${changedField(changes)} and nothing else`, singleton ? 'updatesSingletonOnlyWhatItNames' : 'updatesOnlyWhatItNames', changes));
  for (const violation of violationsOf(document, schema)) {
    // A partial update may leave any field out.
    if (operation.kind === 'update' && violation.code === 'REQUIRED') continue;
    tests.push(test(operation, `→ 422 VALIDATION_ERROR (${violation.field} ${violation.code}) for ${violation.rule}`, 'rejectsInvalidBody', violation));
  }
  tests.push(
    test(operation, '→ 400 for a body that is not JSON', 'rejectsMalformedJson'),
    test(operation, '→ 413 PAYLOAD_TOO_LARGE for a body above the limit', 'rejectsOversizedBody'),
    test(operation, '→ 415 UNSUPPORTED_MEDIA_TYPE for a text/plain body', 'rejectsWrongContentType'),
  );
  return tests;
}

function listTests({ operation, document, plan, resource, model }: TestInput): TestView[] {
  if (!plan || !resource || !answerOf(operation).isList) return [];
  const query = new Set(operation.parameters.query.map((parameter) => parameter.name));
  const create = model.operations.find((candidate) => candidate.resource === resource.key && candidate.kind === 'create');
  // The values a list is sorted, filtered and searched by are written by creates: not those the service answers its own for,
  // nor an item's key, which two items cannot share.
  const createSchema = create && bodySchemaOf(document, create);
  const written = (name: string) => createSchema !== undefined && name !== plan.keyField && !(plan.serverFields ?? []).includes(name);
  const paging = operation.paging!;
  const tests = [test(operation, `→ 422 VALIDATION_ERROR for limit above the maximum (${paging.maxLimit})`, 'rejectsLimitAboveMaximum')];
  if (paging.style === 'cursor') {
    tests.push(
      test(operation, '→ a cursor walk sees every item exactly once and ends with has_more false', 'walksCursorPages'),
      test(operation, '→ 400 for a tampered cursor', 'rejectsTamperedCursor'),
    );
  } else {
    tests.push(test(operation, '→ offset pages add up: every item once, total_pages = ceil(total / limit)', 'walksOffsetPages'));
  }
  if (query.has('sort')) {
    for (const field of resource.fields.filter((candidate) => candidate.sortable)) {
      const values = written(field.name) ? valuesOf(document, createSchema, field.name, 3, answeredAs(document, operation, field.name)) : undefined;
      if (values || field.name === resource.createdField) {
        // An enum sorts in the order it declares its values, as the default store does.
        const declared = field.enum ? { enum: field.enum } : {};
        tests.push(test(operation, `→ sorts by ${field.name} ascending and descending`, 'sorts', { field: field.name, values: values ?? null, ...declared }));
      }
    }
  }
  // Without known fields (a free-form object) there is nothing to select.
  if (query.has('fields') && resource.fields.length > 0) tests.push(selectsFieldsTest(document, operation, resource));
  for (const field of resource.fields.filter((candidate) => candidate.filterable && query.has(candidate.name))) {
    // Sent in the query parameter and answered in the field: valid for both.
    const parameter = operation.parameters.query.find((candidate) => candidate.name === field.name)!;
    const constraints: Constraint[] = [{ schema: parameter.schema, direction: 'request' }, ...answeredAs(document, operation, field.name)];
    const values = written(field.name) ? valuesOf(document, createSchema, field.name, 2, constraints) : undefined;
    if (values) tests.push(test(operation, `→ filters on ${field.name}`, 'filters', { field: field.name, values }));
  }
  if (query.has('created_after') && resource.createdField) tests.push(test(operation, '→ created_after and created_before bound the creation date', 'filtersByCreationDate'));
  // A marker must fit the field: a plain string of room enough.
  const searchable = createSchema === undefined ? undefined : plainStringsOf(document, createSchema).find((field) => field.maxLength >= 16 && isBodyField(field.name) && written(field.name));
  if (query.has('search') && searchable) tests.push(test(operation, `→ search finds an item by its ${searchable.name}`, 'searches', { field: searchable.name }));
  return tests;
}

/**
 * `fields` with one field: the answer must carry it, `id` and the fields the
 * response schema requires, nothing else. The field asked for leaves an
 * optional one out where it can: the first optional field, unless it is the
 * only one (then the first other).
 */
function selectsFieldsTest(document: OpenApiDocument, operation: OperationModel, resource: ResourceModel): TestView {
  const required = sparseFieldsetOf(document, operation)?.required ?? [];
  const candidates = resource.fields.map((field) => field.name).filter((name) => name !== 'id');
  const optional = candidates.filter((name) => !required.includes(name));
  const field = (optional.length === 1 ? candidates.find((name) => name !== optional[0]) : optional[0]) ?? candidates[0] ?? 'id';
  return test(operation, '→ returns only the fields named in fields, with id and the required ones', 'selectsFields', { field, required });
}

function cachingTests({ operation, plan, resource, model, document }: TestInput): TestView[] {
  if (!plan || !resource || (operation.kind !== 'read' && !answerOf(operation).isList)) return [];
  const tests = [test(operation, '→ ETag, and 304 with no body for If-None-Match', 'revalidates')];
  if (operation.kind !== 'read') return tests;
  const writes = model.operations.filter((candidate) => candidate.resource === resource.key && (candidate.kind === 'update' || candidate.kind === 'replace'));
  for (const write of plan.sample === undefined ? [] : writes) {
    const changes = changesOf(document, write, plan);
    if (changes) tests.push(test(operation, `→ changed by ${write.httpMethod}, the resource no longer matches its old ETag`, 'changesETag', { operationId: write.operationId, changes }));
  }
  // Without known fields (a free-form object) there is nothing to select.
  if (resource.fields.length > 0 && operation.parameters.query.some((parameter) => parameter.name === 'fields')) {
    tests.push(selectsFieldsTest(document, operation, resource));
  }
  return tests;
}

export interface ApiTestsView {
  /** The operation the API-wide checks are tried on. */
  probe: string;
  probeTitle: string;
  tests: { name: string; check: string; call: Call }[];
  rateLimit: { name: string; probe: string; call: Call };
}

/**
 * The API-wide checks, tried on a list (or read) that needs no path
 * parameter; none where the API has no such operation. Not on an action: its
 * default handler answers 501 until written.
 */
export function apiTests(model: ApiModel): ApiTestsView | undefined {
  // A list or read: what the default service answers before anyone writes a handler.
  const reads = model.operations.filter(
    (operation) => (operation.kind === 'list' || operation.kind === 'read') && operation.parameters.path.length === 0 && answerOf(operation).hasData,
  );
  const probe = reads.find((operation) => answerOf(operation).isList) ?? reads[0];
  if (!probe) return undefined;
  const { mechanism, version } = model.config.versioning;
  const takesApiKey = model.securitySchemes.some((scheme) => scheme.kind === 'apiKey');
  const tests = [
    { name: "X-Request-Id: the caller's id comes back", check: 'echoesRequestId' },
    { name: 'X-Request-Id: every response gets an id of its own', check: 'newRequestIds' },
    { name: 'an unknown path → 404 in the error envelope', check: 'unknownPath' },
    { name: 'X-RateLimit-Limit, -Remaining and -Reset on successes and errors, Remaining going down', check: 'rateLimitHeaders' },
    { name: `version ${version} answers`, check: 'currentVersion' },
    ...(mechanism === 'url' || mechanism === 'both' ? [{ name: `/v${version + 1} → 404 or 406 in the error envelope`, check: 'unknownUrlVersion' }] : []),
    ...(mechanism === 'header' || mechanism === 'both' ? [{ name: `Accept: application/vnd.api+json;version=${version + 98} → 406 NOT_ACCEPTABLE`, check: 'unknownHeaderVersion' }] : []),
    ...(takesApiKey
      ? [
          { name: 'an API key in its header is accepted', check: 'acceptsApiKey' },
          { name: 'an invalid API key → 401 UNAUTHORIZED', check: 'refusesInvalidApiKey' },
        ]
      : []),
  ];
  const rateLimit = `${probe.httpMethod} ${probe.path}: X-RateLimit-Remaining counts down, then 429 RATE_LIMITED with Retry-After`;
  const suiteCheck = (name: string, check: string) => new Call(new Code('suite.check'), [name, new Code(check), probe.operationId]);
  return {
    probe: probe.operationId,
    probeTitle: commentText(`${probe.httpMethod} ${probe.path}`),
    tests: tests.map((test) => ({ ...test, call: suiteCheck(test.name, `checks.${test.check}`) })),
    rateLimit: { name: rateLimit, probe: probe.operationId, call: suiteCheck(rateLimit, 'spendsTheRateLimit') },
  };
}
