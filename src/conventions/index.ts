/**
 * Stage 2 — conventions: merge the REST conventions into the user's spec.
 * A pure function, document in, document out; merging its own output changes
 * nothing. The result is the single source every target is generated from.
 */
import { EXTENSION, operationConfig, resolveConfig, type Config } from '../config.js';
import { diagnostic, SpecforgeError, toPointer } from '../diagnostics.js';
import {
  classifyOperation,
  findField,
  itemSchemaOf,
  pathParams,
  pathShape,
  resourceFields,
  UPDATED_FIELDS,
} from '../openapi/classify.js';
import {
  deref,
  isReference,
  operationsOf,
  type HttpMethod,
  type OpenApiDocument,
  type OperationObject,
  type PathItemObject,
} from '../openapi/document.js';
import { operationIdFor } from '../openapi/names.js';
import type { ComponentNames } from './component-names.js';
import { installComponents, type ConventionFragments } from './components.js';
import { errorsFor } from './errors.js';
import { conventionParameters } from './parameters.js';
import { toTypedResource } from './resource-shape.js';
import { conventionResponses } from './responses.js';
import { effectiveSecurity, isSecured } from '../openapi/security.js';
import { applyDefaultSecurity } from './security.js';
import { pathRoleOf } from '../openapi/path-roles.js';
import { applyVersionSegment, asksForVersionSegment, declaredVersion } from './versioning.js';

export type { ConventionFragments } from './components.js';

export interface MergedSpec {
  document: OpenApiDocument;
  config: Config;
}

export function applyConventions(input: OpenApiDocument, fragments: ConventionFragments): MergedSpec {
  const document = structuredClone(input);
  inlinePathItemRefs(document);
  let config = resolveVersion(document, resolveConfig(document));
  const names = installComponents(document, fragments, config.validation.status);
  applyDefaultSecurity(document, fragments, names);
  const inUrl = applyVersionSegment(document, { ...config.versioning, asked: asksForVersionSegment(input[EXTENSION]) });
  // URLs left without a segment are versioned by the Accept header alone; the resolved configuration says so.
  // (Only the default, `both`, can be left without one: `url` is asked for, and asking adds the segment.)
  if (!inUrl && config.versioning.mechanism === 'both') config = { ...config, versioning: { ...config.versioning, mechanism: 'header' } };

  // Ids the spec declares are taken before any is invented, wherever they stand.
  const operationIds = new Set([...operationsOf(document)].flatMap(({ operation }) => operation.operationId ?? []));
  for (const { path, method, pathItem, operation } of operationsOf(document)) {
    mergeOperation({ document, config, names, path, method, pathItem, operation, operationIds });
  }
  // The resolved configuration travels with the merged spec: targets read it there.
  document[EXTENSION] = config;
  return { document, config };
}

/**
 * The version the spec's URLs already show; else an explicit
 * `versioning.version`; else info.version's major. An explicit version that
 * contradicts the URLs is an error, not a silent choice.
 */
function resolveVersion(document: OpenApiDocument, config: Config): Config {
  const explicit = explicitVersion(document);
  const shown = declaredVersion(document);
  if (explicit !== undefined && shown !== undefined && explicit !== shown) {
    throw new SpecforgeError([
      diagnostic('CONFIG_INVALID_VALUE', `versioning.version is ${explicit}, but the servers or paths say /v${shown}`, {
        pointer: toPointer([EXTENSION, 'versioning', 'version']),
      }),
    ]);
  }
  const version = shown ?? explicit ?? config.versioning.version;
  return { ...config, versioning: { ...config.versioning, version } };
}

/** The `versioning.version` the spec sets itself, if it does. */
function explicitVersion(document: OpenApiDocument): number | undefined {
  return (document[EXTENSION] as { versioning?: { version?: number } } | undefined)?.versioning?.version;
}

interface OperationContext {
  document: OpenApiDocument;
  config: Config;
  /** Where the conventions' components are installed. */
  names: ComponentNames;
  path: string;
  method: HttpMethod;
  pathItem: PathItemObject;
  operation: OperationObject;
  operationIds: Set<string>;
}

function mergeOperation(context: OperationContext): void {
  const { document, config, names, path, method, pathItem, operation } = context;
  const kind = classifyOperation(document, path, method, operation);
  const settings = operationConfig(config, pathItem[EXTENSION], operation[EXTENSION]);
  const fields = resourceFields(document, itemSchemaOf(document, operation));
  const resourceType = pathShape(path).pairs.at(-1)?.collection ?? '';

  operation.operationId ??= operationIdFor(method, path, context.operationIds);
  context.operationIds.add(operation.operationId);

  const singleton = pathRoleOf(document, path) === 'singleton';
  const parameters = conventionParameters(document, {
    kind,
    singleton,
    path,
    config: settings,
    fields,
    declared: operation.parameters ?? [],
    inherited: pathItem.parameters ?? [],
    names,
  });
  if (parameters.length > 0) operation.parameters = parameters;

  const takesBody = operation.requestBody !== undefined;
  const errors = errorsFor({
    method,
    kind,
    secured: isSecured(effectiveSecurity(document, operation)),
    addressesId: pathParams(path).length > 0,
    takesBody,
    takesInput: takesBody || parameters.length > 0 || (pathItem.parameters ?? []).length > 0,
    versioned: config.versioning.mechanism !== 'none',
    validationStatus: config.validation.status,
  });
  operation.responses = conventionResponses(document, operation.responses ?? {}, {
    kind,
    paging: settings.paging.style,
    hasUpdatedAt: findField(fields, UPDATED_FIELDS) !== undefined,
    errors,
    // A singleton has no id to stand beside its attributes.
    shapeResource: (schema) => (settings.resourceShape === 'typed' && !singleton ? toTypedResource({ document, schema, resourceType }) : schema),
    names,
  });
}

/**
 * OpenAPI 3.1 lets a path item be a `$ref` (to `components.pathItems`). The
 * merge changes each path's operations, so each path gets its own copy.
 */
function inlinePathItemRefs(document: OpenApiDocument): void {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (isReference(item)) document.paths![path] = structuredClone(deref<PathItemObject>(document, item) ?? {});
  }
}
