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
import { answerOf, operationDoc, operationTypeNames, typeModules, typesModuleSpecifier } from './resource-types.js';

interface ClientOperation {
  name: string;
  /** Its doc comment: method, path and summary. */
  doc: string;
  /** The method and path, as string literals. */
  httpMethod: string;
  path: string;
  kind: 'ListOperation' | 'Operation';
  factory: 'list' | 'operation';
  params: string;
  data: string;
  paging?: string;
  /** Its array and object query parameters written other than the default way (`form`, exploded). */
  styles?: Record<string, { style: string; explode: boolean }>;
}

export const clientTarget: Target = {
  name: 'client',
  async render({ model, renderer, runtime }) {
    const modules = typeModules(model).map((module) => ({ ...module, specifier: typesModuleSpecifier(module.fileName, '../generated/') }));
    const namespaceOf = new Map(modules.flatMap((module) => module.operations.map((operation) => [operation.operationId, module.namespace] as const)));
    const view = {
      title: commentText(model.title),
      modules,
      operations: model.operations.map((operation) => clientOperation(operation, namespaceOf.get(operation.operationId)!)),
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

function clientOperation(operation: OperationModel, namespace: string): ClientOperation {
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
  return {
    name: operation.name,
    doc: operationDoc(operation),
    httpMethod: stringLiteral(operation.httpMethod),
    path: stringLiteral(operation.path),
    kind: isList ? 'ListOperation' : 'Operation',
    factory: isList ? 'list' : 'operation',
    params: parts.join(' & '),
    data: !hasData ? 'void' : isList ? `${named(types.data!)}[number]` : named(types.data!),
    ...(isList ? { paging: operation.paging!.style } : {}),
    ...stylesOf(operation),
  };
}

function stylesOf(operation: OperationModel): Pick<ClientOperation, 'styles'> {
  // A scalar is written the same whatever its style.
  const styled = operation.parameters.query.filter((parameter) => parameter.structure && (parameter.style !== 'form' || !parameter.explode));
  return styled.length > 0 ? { styles: Object.fromEntries(styled.map(({ name, style, explode }) => [name, { style, explode }])) } : {};
}
