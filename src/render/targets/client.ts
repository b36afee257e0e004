/**
 * `src/client/`: a typed client with no runtime dependencies. `runtime.ts`
 * is the same for every API (transport, retries, errors, paging, cache),
 * copied from `src/runtime/client/runtime.ts`;
 * `index.ts` binds one method per operation, typed by the named types of
 * `src/generated/resources/`.
 */
import type { OperationModel } from '../../model/index.js';
import { runtimeFile, templateFile, type Target } from '../target.js';
import { commentText, stringLiteral } from '../../model/names.js';
import { NamedImports } from '../import-print.js';
import { Call, Code, type JsValue } from '../js-print.js';
import { PropertySignature } from '../type-print.js';
import type { OpenApiDocument } from '../../openapi/document.js';
import { byText } from '../../order.js';
import { essenceOf, MULTIPART } from '../../openapi/media.js';
import { answerOf, operationDoc, operationTypeNames, sparseFieldsetOf, typeModules, typesModulePath, typesModuleSpecifier } from './resource-types.js';

interface ClientOperation {
  name: string;
  /** Its doc comment: method, path and summary. */
  doc: string;
  /** The method and path, as string literals. */
  httpMethod: string;
  path: string;
  kind: 'ListOperation' | 'Operation' | 'SparseListOperation' | 'SparseOperation' | 'FileOperation' | 'EventOperation';
  factory: 'list' | 'operation' | 'sparseList' | 'sparseOperation' | 'file' | 'events';
  /** Its type's arguments: the parameters, then (but for a file) the data, then any Fieldset (`{ required: 'title'; shape: 'flat' }`). */
  typeArguments: string;
  /** How a body that is not JSON is sent (`conventions` of the runtime's bodies.ts). */
  body?: { encoding: 'multipart' | 'urlencoded' | 'bytes'; mediaType?: string };
  /** The Accept header of a file answer: its declared media types. */
  accept?: string;
  /** An event stream's data: JSON to parse, or text. */
  events?: { json: boolean };
  paging?: string;
  /** Its array and object query parameters written other than the default way (`form`, exploded). */
  styles?: Record<string, { style: string; explode: boolean }>;
}

export const clientTarget: Target = {
  name: 'client',
  async render({ document, model, renderer, runtime }) {
    const modules = typeModules(model).map((module) => ({ ...module, specifier: typesModuleSpecifier(module.fileName, '../generated/'), path: typesModulePath(module.fileName, '../generated/') }));
    const namespaceOf = new Map(modules.flatMap((module) => module.operations.map((operation) => [operation.operationId, module.namespace] as const)));
    const operations = model.operations.map((operation) => clientOperation(document, operation, namespaceOf.get(operation.operationId)!));
    // The runtime's operation types the client uses: no import left unused.
    const operationKinds = [...new Set(operations.map((operation) => operation.kind))].sort(byText);
    const sendsBytes = operations.some((operation) => operation.body?.encoding === 'bytes');
    const view = {
      title: commentText(model.title),
      operationKinds,
      sendsBytes,
      runtimeImports: new NamedImports('import', ['Transport', 'type CallOptions', 'type ClientOptions', ...(sendsBytes ? ['type Bytes'] : []), ...operationKinds.map((kind) => `type ${kind}`)], './runtime.js'),
      modules,
      operations: operations.map((operation, index) => ({
        ...operation,
        signature: new PropertySignature(operation.name, `${operation.kind}<${operation.typeArguments}>`),
        binding: transportCall(model.operations[index]!, operation),
      })),
      apiKeyHeader: model.securitySchemes.find((scheme) => scheme.kind === 'apiKey' && scheme.header)?.header ?? 'X-API-Key',
      // Where the version travels only in the Accept header, the client asks for the spec's.
      ...(model.config.versioning.mechanism === 'header' ? { version: model.config.versioning.version } : {}),
    };
    return [
      runtimeFile(runtime, 'client/runtime.ts', 'generated'),
      runtimeFile(runtime, 'client/styles.ts', 'generated'),
      runtimeFile(runtime, 'client/bodies.ts', 'generated'),
      runtimeFile(runtime, 'client/events.ts', 'generated'),
      templateFile(renderer, 'client/index.ts.hbs', 'src/client/index.ts', view, 'generated'),
    ];
  },
};

function clientOperation(document: OpenApiDocument, operation: OperationModel, namespace: string): ClientOperation {
  const types = operationTypeNames(operation);
  const named = (name: string) => `${namespace}.${name}`;
  const queryRequired = operation.parameters.query.some((parameter) => parameter.required);
  const body = bodyType(operation, types, named);
  const params = [
    ...(types.path ? [named(types.path)] : []),
    ...(types.query ? [`{ query${queryRequired ? '' : '?'}: ${named(types.query)} }`] : []),
    body ? `{ body${operation.requestBody?.required ? '' : '?'}: ${body} }` : 'NoBody',
    'CallOptions',
  ].join(' & ');
  const common = { name: operation.name, doc: operationDoc(operation), httpMethod: stringLiteral(operation.httpMethod), path: stringLiteral(operation.path), ...bodyEncoding(operation), ...stylesOf(operation) };
  const { file, events } = operation.success;
  if (file) return { ...common, kind: 'FileOperation', factory: 'file', typeArguments: params, accept: file.mediaTypes.join(', ') };
  if (events) return { ...common, kind: 'EventOperation', factory: 'events', typeArguments: `${params}, ${named(types.event!)}`, events: { json: !events.text } };
  const { hasData, isList } = answerOf(operation);
  const fieldset = hasData && (isList || operation.kind === 'read') ? sparseFieldsetOf(document, operation) : undefined;
  const sparse = fieldset ? 'Sparse' : '';
  const data = !hasData ? 'void' : isList ? `${named(types.data!)}[number]` : named(types.data!);
  return {
    ...common,
    kind: isList ? `${sparse}ListOperation` : `${sparse}Operation`,
    factory: isList ? (fieldset ? 'sparseList' : 'list') : fieldset ? 'sparseOperation' : 'operation',
    typeArguments: [params, data, ...(fieldset ? [fieldsetType(fieldset.required, operation.resourceShape)] : [])].join(', '),
    ...(isList ? { paging: operation.paging!.style } : {}),
  };
}

/** The body's type: JSON as the spec says, a form with `Blob`s for its files (or the caller's own `FormData`), or bytes. */
function bodyType(operation: OperationModel, types: ReturnType<typeof operationTypeNames>, named: (name: string) => string): string | undefined {
  if (types.body) return named(types.body);
  if (types.form) return operation.requestBody!.form!.mediaTypes.some((type) => essenceOf(type) === MULTIPART) ? `${named(types.form)} | FormData` : named(types.form);
  return operation.requestBody?.bytes ? 'Bytes' : undefined;
}

/** How the client writes a body that is not JSON: the form's first declared encoding, or bytes. */
function bodyEncoding(operation: OperationModel): Pick<ClientOperation, 'body'> {
  const { form, bytes } = operation.requestBody ?? {};
  if (form) return { body: { encoding: essenceOf(form.mediaTypes[0]!) === MULTIPART ? 'multipart' : 'urlencoded' } };
  if (!bytes) return {};
  // One concrete type is sent as such; among several, the Blob's own type says which (bodies.ts).
  const [only] = bytes;
  return { body: { encoding: 'bytes', ...(bytes.length === 1 && !only!.includes('*') ? { mediaType: only } : {}) } };
}

/** `transport.factory({ method, path, … }, events?)`: the operation's binding in createClient. */
function transportCall(operation: OperationModel, { factory, paging, styles, body, accept, events }: ClientOperation): Call {
  const route: Record<string, JsValue> = { method: operation.httpMethod, path: operation.path, ...(paging ? { paging } : {}), ...(styles ? { styles } : {}), ...(body ? { body } : {}), ...(accept ? { accept } : {}) };
  return new Call(new Code(`transport.${factory}`), [route, ...(events ? [events] : [])]);
}

function stylesOf(operation: OperationModel): Pick<ClientOperation, 'styles'> {
  // A scalar is written the same whatever its style.
  const styled = operation.parameters.query.filter((parameter) => parameter.structure && (parameter.style !== 'form' || !parameter.explode));
  return styled.length > 0 ? { styles: Object.fromEntries(styled.map(({ name, style, explode }) => [name, { style, explode }])) } : {};
}

/** The Fieldset of the client's runtime, as a type: the required names as a union of literals. */
function fieldsetType(required: string[], shape: OperationModel['resourceShape']): string {
  const names = required.length > 0 ? required.map(stringLiteral).join(' | ') : 'never';
  return `{ required: ${names}; shape: ${stringLiteral(shape)} }`;
}
