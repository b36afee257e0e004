/**
 * openapi-typescript's transform of the merged spec, printed in parts.
 *
 * The merged spec is already bundled and validated, so the transform runs
 * directly, without openapiTS()'s own Redocly lint and bundle passes (2 s on
 * GitHub's spec). Large interfaces are cut into parts of about NODES_PER_PART
 * syntax nodes so the format stage can spread them over every core.
 */
import { astToString, scanDiscriminators, transformSchema, resolveRef, type GlobalContext, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import type { OpenApiDocument } from '../../openapi/document.js';
import type { FilePart } from '../target.js';

/**
 * Parts hold about this many syntax nodes (≈ 200 kB of code): small enough
 * that two cores finish together, large enough that per-part overhead is low.
 */
const NODES_PER_PART = 10_000;

export function* printTypes(document: OpenApiDocument): Generator<FilePart> {
  const schema = document as unknown as OpenAPI3;
  for (const node of transformSchema(schema, context(schema))) yield* partsOf(node);
}

/**
 * The options openapiTS() would use by default (openapi-typescript 7), silent,
 * but for `defaultNonNullable`: a property is required where its schema's
 * `required` says so, not also where it has a `default`. A default is what the
 * receiver assumes when the field is absent (OpenAPI §4.7.24), so a caller may
 * leave it out of a body (the service fills it in), and a response may lack it;
 * openapi-typescript spares only inline request bodies, not the components
 * they refer to.
 */
function context(schema: OpenAPI3): GlobalContext {
  return {
    additionalProperties: false,
    alphabetize: false,
    arrayLength: false,
    defaultNonNullable: false,
    discriminators: scanDiscriminators(schema, { silent: true }),
    emptyObjectsUnknown: false,
    enum: false,
    enumValues: false,
    conditionalEnums: false,
    dedupeEnums: false,
    excludeDeprecated: false,
    exportType: false,
    immutable: false,
    rootTypes: false,
    rootTypesNoSchemaPrefix: false,
    rootTypesKeepCasing: false,
    injectFooter: [],
    pathParamsAsTypes: false,
    postTransform: undefined,
    propertiesRequiredByDefault: false,
    redoc: undefined as never, // only openapiTS()'s lint/bundle pass reads it
    silent: true,
    inject: undefined,
    transform: undefined,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: false,
    resolve: ($ref) => resolveRef(schema, $ref, { silent: true }),
  } satisfies GlobalContext;
}

function* partsOf(node: ts.Node): Generator<FilePart> {
  if (!ts.isInterfaceDeclaration(node) || weight(node) <= NODES_PER_PART) {
    yield { text: astToString([node] as never) + '\n', as: 'statements' };
    return;
  }
  const exported = node.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
  const wrap = (members: readonly ts.TypeElement[]) =>
    ts.factory.updateInterfaceDeclaration(node, node.modifiers, node.name, node.typeParameters, node.heritageClauses, members);
  yield { text: `${exported ? 'export ' : ''}interface ${node.name.text} {\n`, as: 'verbatim' };
  yield* membersInParts(node.members, wrap, 1);
  yield { text: '}\n', as: 'verbatim' };
}

/**
 * Members in parts of about NODES_PER_PART nodes; a member that is itself a large
 * object type (`components.schemas`) is opened and its members cut in turn.
 */
function* membersInParts(
  members: readonly ts.TypeElement[],
  wrap: (members: readonly ts.TypeElement[]) => ts.Node,
  depth: number,
): Generator<FilePart> {
  let pending: ts.TypeElement[] = [];
  let pendingWeight = 0;
  function* flush(): Generator<FilePart> {
    if (pending.length > 0) yield { text: astToString([wrap(pending)] as never) + '\n', as: 'nested', depth };
    pending = [];
    pendingWeight = 0;
  }
  for (const member of members) {
    if (splittable(member)) {
      yield* flush();
      const property = member as ts.PropertySignature & { name: ts.Identifier; type: ts.TypeLiteralNode };
      const indent = '  '.repeat(depth);
      const wrapInner = (inner: readonly ts.TypeElement[]) =>
        wrap([ts.factory.updatePropertySignature(property, property.modifiers, property.name, undefined, ts.factory.createTypeLiteralNode(inner))]);
      yield { text: `${indent}${property.name.text}: {\n`, as: 'verbatim' };
      yield* membersInParts(property.type.members, wrapInner, depth + 1);
      yield { text: `${indent}};\n`, as: 'verbatim' };
      continue;
    }
    pending.push(member);
    pendingWeight += weight(member);
    if (pendingWeight >= NODES_PER_PART) yield* flush();
  }
  yield* flush();
}

/** A plain `name: { …many members… }` property, without comments, that can be opened. */
function splittable(member: ts.TypeElement | undefined): boolean {
  return (
    member !== undefined &&
    ts.isPropertySignature(member) &&
    ts.isIdentifier(member.name) &&
    member.questionToken === undefined &&
    member.type !== undefined &&
    ts.isTypeLiteralNode(member.type) &&
    weight(member) > NODES_PER_PART &&
    (ts.getSyntheticLeadingComments(member) ?? []).length === 0
  );
}

const weights = new WeakMap<ts.Node, number>();

/** Number of syntax nodes below a node: a cheap measure of how much code it prints. */
function weight(node: ts.Node): number {
  let total = weights.get(node);
  if (total === undefined) {
    total = 1;
    ts.forEachChild(node, (child) => {
      total! += weight(child);
    });
    weights.set(node, total);
  }
  return total;
}
