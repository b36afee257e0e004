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
import type { OpenApiDocument } from '../../openapi/document.js';
import { byText } from '../../order.js';
import { answerOf, operationDoc, operationTypeNames, sparseFieldsetOf, typeModules, typesModuleSpecifier } from './resource-types.js';

interface ClientOperation {
  name: string;
  /** Its doc comment: method, path and summary. */
  doc: string;
  /** The method and path, as string literals. */
  httpMethod: string;
  path: string;
  kind: 'ListOperation' | 'Operation' | 'SparseListOperation' | 'SparseOperation';
  factory: 'list' | 'operation' | 'sparseList' | 'sparseOperation';
  params: string;
  data: string;
  /** For an operation that takes `fields`: its Fieldset, as a type (`{ required: 'title'; shape: 'flat' }`). */
  fieldset?: string;
  paging?: string;
  /** Its array and object query parameters written other than the default way (`form`, exploded). */
  styles?: Record<string, { style: string; explode: boolean }>;
}

export const clientTarget: Target = {
  name: 'client',
  async render({ document, model, renderer, runtime }) {
    const modules = typeModules(model).map((module) => ({ ...module, specifier: typesModuleSpecifier(module.fileName, '../generated/') }));
    const namespaceOf = new Map(modules.flatMap((module) => module.operations.map((operation) => [operation.operationId, module.namespace] as const)));
    const operations = model.operations.map((operation) => clientOperation(document, operation, namespaceOf.get(operation.operationId)!));
    const view = {
      title: commentText(model.title),
      modules,
      operations,
      // The runtime's operation types the client uses: no import left unused.
      operationKinds: [...new Set(operations.map((operation) => operation.kind))].sort(byText),
      apiKeyHeader: model.securitySchemes.find((scheme) => scheme.kind === 'apiKey' && scheme.header)?.header ?? 'X-API-Key',
      // Where the version travels only in the Accept header, the client asks for the spec's.
      ...(model.config.versioning.mechanism === 'header' ? { version: model.config.versioning.version } : {}),
    };
    return [
      runtimeFile(runtime, 'client/runtime.ts', 'generated'),
      runtimeFile(runtime, 'client/styles.ts', 'generated'),
      templateFile(renderer, 'client/index.ts.hbs', 'src/client/index.ts', view, 'generated'),
    ];
  },
};

function clientOperation(document: OpenApiDocument, operation: OperationModel, namespace: string): ClientOperation {
  const types = operationTypeNames(operation);
  const named = (name: string) => `${namespace}.${name}`;
  const queryRequired = operation.parameters.query.some((parameter) => parameter.required);
  const parts = [
    ...(types.path ? [named(types.path)] : []),
    ...(types.query ? [`{ query${queryRequired ? '' : '?'}: ${named(types.query)} }`] : []),
    types.body ? `{ body${operation.requestBody?.required ? '' : '?'}: ${named(types.body)} }` : 'NoBody',
    'CallOptions',
  ];
  const { hasData, isList } = answerOf(operation);
  const fieldset = hasData && (isList || operation.kind === 'read') ? sparseFieldsetOf(document, operation) : undefined;
  const sparse = fieldset ? 'Sparse' : '';
  return {
    name: operation.name,
    doc: operationDoc(operation),
    httpMethod: stringLiteral(operation.httpMethod),
    path: stringLiteral(operation.path),
    kind: isList ? `${sparse}ListOperation` : `${sparse}Operation`,
    factory: isList ? (fieldset ? 'sparseList' : 'list') : fieldset ? 'sparseOperation' : 'operation',
    params: parts.join(' & '),
    data: !hasData ? 'void' : isList ? `${named(types.data!)}[number]` : named(types.data!),
    ...(fieldset ? { fieldset: fieldsetType(fieldset.required, operation.resourceShape) } : {}),
    ...(isList ? { paging: operation.paging!.style } : {}),
    ...stylesOf(operation),
  };
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
