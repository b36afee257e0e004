/**
 * Every name the generated code and files use for a resource or an
 * operation, given once, in spec order, distinct within its namespace: the
 * templates print these and nothing else that came from the spec.
 */
import { singular } from '../openapi/names.js';
import { fileRegistry, fileStem, identifierName, identifierRegistry } from './names.js';
import type { OperationModel, ResourceModel } from './types.js';

/** The group of the operations that act on no resource (`GET /`): its module, handler file and bindings. */
export const ROOT_NAMES = { fileName: 'root', identifier: 'root', pascalName: 'Root' } as const;

/**
 * Bindings that share a module scope with the resources' own (the handler
 * objects in `app.ts`, the collections in `store/index.ts`): a resource
 * named after one of them is renamed, not allowed to shadow it.
 */
const FIXED_BINDINGS = [
  ROOT_NAMES.identifier,
  'handlers',
  'store',
  'createApp',
  'requestConventions',
  'routesFor',
  'integerFromEnv',
  // app.ts's other imports and functions.
  'randomBytes',
  'setMaxListeners',
  'ownRoutes',
  'useBehind',
  'useFront',
  'asyncContextFromEnv',
  'redactionOf',
  'createLogger',
  'serviceLogger',
  'errorLoggerFor',
  'tracingFor',
  'redisRateLimitFromEnv',
  'processCursorSecret',
  'proxySettings',
  'defaultCursorSecret',
  'errors',
  // The generated store's own names beside the collections it makes (src/generated/store.ts).
  'database',
  'createStore',
  'createMemoryStore',
  'COLLECTIONS',
  'SINGLETONS',
];

/** What a types module calls an operation's parts: `ListBooksQuery`, `GetBookData`… */
export const OPERATION_TYPE_SUFFIXES = ['Path', 'Query', 'Body', 'Form', 'Response', 'Data', 'Event'] as const;

/**
 * Gives each resource its file name, bindings and item type name, and each
 * operation its method name (client and handlers) and type-name prefix.
 * Resource items and operation parts share the types modules, so one
 * registry of type names serves both. `hasRoot`: some operations act on no
 * resource, and the root group takes its names first.
 */
export function nameAll({ resources, operations, hasRoot }: { resources: ResourceModel[]; operations: OperationModel[]; hasRoot: boolean }): void {
  const files = fileRegistry(hasRoot ? [ROOT_NAMES.fileName] : []);
  const bindings = identifierRegistry(FIXED_BINDINGS);
  // `<pascalName>Handlers` and `<pascalName>Types` end in words no fixed name of theirs ends in.
  const pascalNames = identifierRegistry(hasRoot ? [ROOT_NAMES.pascalName] : []);
  const types = identifierRegistry();
  for (const resource of resources) {
    resource.fileName = files.claim(fileStem(resource.name, 'resource'));
    resource.identifier = bindings.claim(identifierName(resource.name, { case: 'camel', fallback: 'resource' }));
    resource.pascalName = pascalNames.claim(identifierName(resource.name, { case: 'pascal', fallback: 'resource' }));
    // An item of a collection is one of many (`Book`); a singleton is the one object its path names (`Settings`).
    const noun = resource.singleton ? resource.type : singular(resource.type);
    resource.typeName = types.claim(identifierName(noun, { case: 'pascal', fallback: 'resource' }));
  }
  const methods = identifierRegistry();
  for (const operation of operations) {
    operation.name = methods.claim(identifierName(operation.operationId, { case: 'camel', fallback: 'operation', property: true }));
    operation.typeName = types.claim(identifierName(operation.operationId, { case: 'pascal', fallback: 'operation' }), (prefix) =>
      OPERATION_TYPE_SUFFIXES.map((suffix) => `${prefix}${suffix}`),
    );
  }
}
