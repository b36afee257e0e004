/**
 * openapi-typescript's transform of the merged spec, printed in parts.
 *
 * The merged spec is already bundled and validated, so the transform runs
 * directly, without openapiTS()'s own Redocly lint and bundle passes (2 s on
 * GitHub's spec), and printed in prettier's form (types-layout.ts) but for
 * what that printer does not model, which goes to prettier in parts.
 */
import type { GlobalContext, OpenAPI3 } from 'openapi-typescript';
import { createRequire } from 'node:module';
import type TS from 'typescript';
import type { OpenApiDocument } from '../../openapi/document.js';
import type { FilePart } from '../target.js';
import { layoutMember, layoutStatement, OutOfForm } from './types-layout.js';

// Required, not imported: an ES import of TypeScript's 9 MB CommonJS file spends a quarter of a second
// scanning it for exports.
const require = createRequire(import.meta.url);
const ts = require('typescript') as typeof TS;
const { astToString, scanDiscriminators, transformSchema, resolveRef } = await loadOpenapiTypescript();

type Transform = Pick<typeof import('openapi-typescript'), 'astToString' | 'scanDiscriminators' | 'transformSchema' | 'resolveRef'>;

/**
 * openapi-typescript's transform, printer and helpers from their own CommonJS
 * modules: its index also loads Redocly's bundler and linter for openapiTS()
 * (0.1 s alone, 0.25 s beside the other threads), which is never run here.
 * Should the modules move (the version is pinned), or where they cannot be
 * required (Jest), the package's ES build is imported whole.
 */
async function loadOpenapiTypescript(): Promise<Transform> {
  try {
    const { astToString } = require('openapi-typescript/dist/lib/ts.cjs') as Transform;
    const { scanDiscriminators, resolveRef } = require('openapi-typescript/dist/lib/utils.cjs') as Transform;
    const transformSchema = require('openapi-typescript/dist/transform/index.cjs') as Transform['transformSchema'];
    if ([astToString, scanDiscriminators, resolveRef, transformSchema].every((part) => typeof part === 'function'))
      return { astToString, scanDiscriminators, transformSchema, resolveRef };
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (!['MODULE_NOT_FOUND', 'ERR_PACKAGE_PATH_NOT_EXPORTED', 'ERR_REQUIRE_ESM', 'ERR_REQUIRE_ASYNC_MODULE'].includes(code)) throw error;
  }
  return import('openapi-typescript');
}

/**
 * Parts hold about this many syntax nodes (≈ 200 kB of code): small enough
 * that two cores finish together, large enough that per-part overhead is low.
 */
const NODES_PER_PART = 10_000;

export function* printTypes(document: OpenApiDocument): Generator<FilePart> {
  for (const node of typeDeclarations(document)) yield* partsOf(node);
}

/** openapi-typescript's declarations of the document (`paths`, `components`, `operations`…), as syntax nodes. */
export function typeDeclarations(document: OpenApiDocument): TS.Node[] {
  const schema = document as unknown as OpenAPI3;
  return transformSchema(schema, context(schema));
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

function* partsOf(node: TS.Node): Generator<FilePart> {
  if (!ts.isInterfaceDeclaration(node) || node.members.length === 0) {
    const text = inPrettierForm(() => layoutStatement(node));
    yield text !== undefined ? { text, as: 'verbatim' } : { text: astToString([node] as never) + '\n', as: 'statements' };
    return;
  }
  const exported = node.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
  const wrap = (members: readonly TS.TypeElement[]) =>
    ts.factory.updateInterfaceDeclaration(node, node.modifiers, node.name, node.typeParameters, node.heritageClauses, members);
  yield { text: `${exported ? 'export ' : ''}interface ${node.name.text} {\n`, as: 'verbatim' };
  yield* membersInParts(node.members, wrap, 1);
  yield { text: '}\n', as: 'verbatim' };
}

/**
 * Members printed in prettier's form where the layout printer models them.
 * A member it does not model is opened when it is a plain `name: { … }`
 * (`components.schemas`), so only the members that need it go to prettier,
 * in parts of about NODES_PER_PART nodes that the format workers share.
 */
function* membersInParts(
  members: readonly TS.TypeElement[],
  wrap: (members: readonly TS.TypeElement[]) => TS.Node,
  depth: number,
): Generator<FilePart> {
  // At most one of the two holds members at a time, so the parts keep the members' order.
  let printed = '';
  let forPrettier: TS.TypeElement[] = [];
  let forPrettierWeight = 0;
  function* flush(): Generator<FilePart> {
    if (printed !== '') yield { text: printed, as: 'verbatim' };
    if (forPrettier.length > 0) yield { text: astToString([wrap(forPrettier)] as never) + '\n', as: 'nested', depth };
    printed = '';
    forPrettier = [];
    forPrettierWeight = 0;
  }
  for (const member of members) {
    const text = inPrettierForm(() => layoutMember(member, 2 * depth) + '\n');
    if (text !== undefined) {
      if (forPrettier.length > 0) yield* flush();
      printed += text;
    } else if (openable(member)) {
      yield* flush();
      const property = member as TS.PropertySignature & { name: TS.Identifier; type: TS.TypeLiteralNode };
      const indent = '  '.repeat(depth);
      const wrapInner = (inner: readonly TS.TypeElement[]) =>
        wrap([ts.factory.updatePropertySignature(property, property.modifiers, property.name, undefined, ts.factory.createTypeLiteralNode(inner))]);
      yield { text: `${indent}${property.name.text}: {\n`, as: 'verbatim' };
      yield* membersInParts(property.type.members, wrapInner, depth + 1);
      yield { text: `${indent}};\n`, as: 'verbatim' };
    } else {
      if (printed !== '') yield* flush();
      forPrettier.push(member);
      forPrettierWeight += weight(member);
      if (forPrettierWeight >= NODES_PER_PART) yield* flush();
    }
  }
  yield* flush();
}

/** The text the layout printer makes, or undefined where it does not model the node (prettier formats it). */
function inPrettierForm<T>(print: () => T): T | undefined {
  try {
    return print();
  } catch (error) {
    if (error instanceof OutOfForm) return undefined;
    throw error;
  }
}

/**
 * A plain `name: { … }` property that can be opened: its members printed
 * between `name: {` and `};`. Without comments, since the wrapper prettier
 * formats its members in would carry them.
 */
function openable(member: TS.TypeElement): boolean {
  return (
    ts.isPropertySignature(member) &&
    ts.isIdentifier(member.name) &&
    member.questionToken === undefined &&
    (ts.getModifiers(member) ?? []).length === 0 &&
    member.type !== undefined &&
    ts.isTypeLiteralNode(member.type) &&
    (ts.getSyntheticLeadingComments(member) ?? []).length === 0
  );
}

const weights = new WeakMap<TS.Node, number>();

/** Number of syntax nodes below a node: a cheap measure of how much code it prints. */
function weight(node: TS.Node): number {
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
