/**
 * `src/generated/resources/<resource>.ts`: named aliases into the
 * openapi-typescript types for each resource and its operations (`Book`,
 * `ListBooksQuery`, `CreateBookBody`, `GetBookData`…), the names handlers and
 * clients import. A resource that leaves the spec takes its file with it.
 */
import type { ApiModel, OperationModel, ResourceModel } from '../../model/index.js';
import { pascalCase } from '../../openapi/names.js';
import { templateFile, type Target } from '../target.js';

interface Alias {
  name: string;
  type: string;
}

/** Operations that act on no resource (`GET /`) have their aliases in `root.ts`. */
export const ROOT_MODULE = 'root';

/** The name a generated file imports a types module under: `import type * as BooksTypes from …/books.js`. */
export const typesNamespace = (module: string) => `${pascalCase(module)}Types`;

/** One module per resource, and `root` for the operations of none. */
export function typeModules(model: ApiModel): { name: string; resource?: ResourceModel; operations: OperationModel[] }[] {
  const modules = model.resources.map((resource) => ({
    name: resource.name,
    resource,
    operations: model.operations.filter((operation) => operation.resource === resource.key),
  }));
  const keys = new Set(model.resources.map((resource) => resource.key));
  const rest = model.operations.filter((operation) => !keys.has(operation.resource));
  return rest.length > 0 ? [...modules, { name: ROOT_MODULE, operations: rest }] : modules;
}

export const resourceTypesTarget: Target = {
  name: 'resource-types',
  async render({ model, renderer }) {
    return typeModules(model).map(({ name, resource, operations }) => {
      const view = {
        name,
        item: resource && itemAlias(resource, operations),
        operations: operations.map((operation) => ({
          httpMethod: operation.httpMethod,
          path: operation.path,
          // Printed in a `//` comment: one line, whatever the spec's summary holds.
          summary: (operation.summary ?? '').replace(/\s+/g, ' ').trim(),
          aliases: aliasesOf(operation),
        })),
      };
      return templateFile(renderer, 'types/resource.ts.hbs', `src/generated/resources/${name}.ts`, view, 'generated');
    });
  },
};

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function operationType(operation: OperationModel): string {
  return `operations[${quote(operation.operationId)}]`;
}

/** The names of an operation's aliases, where the operation has that part. */
export function operationTypeNames(operation: OperationModel): { path?: string; query?: string; body?: string; response?: string; data?: string } {
  const name = operation.typeName;
  return {
    ...(operation.parameters.path.length > 0 ? { path: `${name}Path` } : {}),
    ...(operation.parameters.query.length > 0 ? { query: `${name}Query` } : {}),
    ...(operation.requestBody?.jsonContentType ? { body: `${name}Body` } : {}),
    ...(operation.success.contentType ? { response: `${name}Response`, data: `${name}Data` } : {}),
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

function aliasesOf(operation: OperationModel): Alias[] {
  const base = operationType(operation);
  const names = operationTypeNames(operation);
  const aliases: Alias[] = [];
  if (names.path) aliases.push({ name: names.path, type: `${base}['parameters']['path']` });
  if (names.query) aliases.push({ name: names.query, type: `NonNullable<${base}['parameters']['query']>` });
  if (names.body) {
    aliases.push({ name: names.body, type: `NonNullable<${base}['requestBody']>['content'][${quote(operation.requestBody!.jsonContentType!)}]` });
  }
  if (names.response && names.data) {
    aliases.push({ name: names.response, type: `${base}['responses'][${operation.success.status}]['content'][${quote(operation.success.contentType!)}]` });
    aliases.push({ name: names.data, type: `${names.response}['data']` });
  }
  return aliases;
}

/** The resource as `data` carries it: from its read, else from a list's items, else from its create. */
/** The name of a resource's item type (`Book`), when its operations show one. */
export function itemTypeName(resource: ResourceModel, operations: OperationModel[]): string | undefined {
  return itemAlias(resource, operations)?.name;
}

function itemAlias(resource: ResourceModel, operations: OperationModel[]): Alias & { doc: string } | undefined {
  const doc = `A ${resource.typeName}, as the \`data\` of a response carries it.`;
  const withData = (kind: OperationModel['kind']) => operations.find((operation) => operation.kind === kind && operation.success.contentType);
  const single = withData('read') ?? withData('create') ?? withData('replace');
  if (single) return { name: resource.typeName, type: `${single.typeName}Data`, doc };
  const list = withData('list');
  if (list) return { name: resource.typeName, type: `${list.typeName}Data[number]`, doc };
  return undefined;
}
