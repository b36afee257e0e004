/**
 * `src/generated/resources/<resource>.ts`: named aliases into the
 * openapi-typescript types for each resource and its operations (`Book`,
 * `ListBooksQuery`, `CreateBookBody`, `GetBookData`…), the names handlers and
 * clients import. A resource that leaves the spec takes its file with it.
 */
import type { OperationModel, ResourceModel } from '../../model/index.js';
import type { Target } from '../target.js';

interface Alias {
  name: string;
  type: string;
}

export const resourceTypesTarget: Target = {
  name: 'resource-types',
  async render({ model, renderer }) {
    return model.resources.map((resource) => {
      const operations = model.operations.filter((operation) => operation.resource === resource.key);
      const view = {
        name: resource.name,
        item: itemAlias(resource, operations),
        operations: operations.map((operation) => ({
          httpMethod: operation.httpMethod,
          path: operation.path,
          // Printed in a `//` comment: one line, whatever the spec's summary holds.
          summary: (operation.summary ?? '').replace(/\s+/g, ' ').trim(),
          aliases: aliasesOf(operation),
        })),
      };
      return {
        path: `src/generated/resources/${resource.name}.ts`,
        contents: renderer.render('types/resource.ts.hbs', view),
        kind: 'generated' as const,
        format: 'typescript' as const,
      };
    });
  },
};

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function operationType(operation: OperationModel): string {
  return `operations[${quote(operation.operationId)}]`;
}

function aliasesOf(operation: OperationModel): Alias[] {
  const base = operationType(operation);
  const name = operation.typeName;
  const aliases: Alias[] = [];
  if (operation.parameters.path.length > 0) aliases.push({ name: `${name}Path`, type: `${base}['parameters']['path']` });
  if (operation.parameters.query.length > 0) {
    aliases.push({ name: `${name}Query`, type: `NonNullable<${base}['parameters']['query']>` });
  }
  if (operation.requestBody?.jsonContentType) {
    aliases.push({ name: `${name}Body`, type: `NonNullable<${base}['requestBody']>['content'][${quote(operation.requestBody.jsonContentType)}]` });
  }
  if (operation.success.contentType) {
    const response = `${base}['responses'][${operation.success.status}]['content'][${quote(operation.success.contentType)}]`;
    aliases.push({ name: `${name}Response`, type: response });
    aliases.push({ name: `${name}Data`, type: `${name}Response['data']` });
  }
  return aliases;
}

/** The resource as `data` carries it: from its read, else from a list's items, else from its create. */
function itemAlias(resource: ResourceModel, operations: OperationModel[]): Alias & { doc: string } | undefined {
  const doc = `A ${resource.typeName}, as the \`data\` of a response carries it.`;
  const withData = (kind: OperationModel['kind']) => operations.find((operation) => operation.kind === kind && operation.success.contentType);
  const single = withData('read') ?? withData('create') ?? withData('replace');
  if (single) return { name: resource.typeName, type: `${single.typeName}Data`, doc };
  const list = withData('list');
  if (list) return { name: resource.typeName, type: `${list.typeName}Data[number]`, doc };
  return undefined;
}
