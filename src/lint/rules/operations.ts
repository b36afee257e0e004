/**
 * Operation rules: a unique, URL-safe operationId on every operation (the
 * generated code names methods after it), path parameters that match the
 * template, and lists (GET on a collection) that return arrays.
 */
import { dataSchemaOf, isArraySchema, jsonSchemaOf, mediaOf, pathParams, pathShape, successResponse } from '../../openapi/classify.js';
import { deref, type OpenApiDocument, type OperationObject, type ParameterObject, type RequestBodyObject } from '../../openapi/document.js';
import { filePathOf, isAtOrBelowItem, type FileRoute } from '../../openapi/file-paths.js';
import { pathRoleOf } from '../../openapi/path-roles.js';
import { bodyMediaOf } from '../../openapi/media.js';
import type { Finding, LintOperation, LintRule } from '../rule.js';
import { headNoun, isPlural } from '../words.js';

const URL_SAFE = /^[A-Za-z0-9._~-]+$/;
const at = ({ path, method }: LintOperation, ...rest: string[]) => ['paths', path, method, ...rest];

export const operationId: LintRule = {
  code: 'LINT_OPERATION_ID',
  severity: 'warning',
  check: (context) =>
    context.operations.flatMap((operation): Finding[] => {
      const id = operation.operation.operationId;
      if (id === undefined) return [{ at: at(operation), message: 'the operation has no operationId (one is made from method and path)', operation }];
      if (!URL_SAFE.test(id)) return [{ at: at(operation, 'operationId'), message: `operationId "${id}" is not URL-safe (letters, digits, - . _ ~)`, operation }];
      return [];
    }),
};

/** Two operations with one id would be one method in a client and one handler: always an error. */
export const operationIdUnique: LintRule = {
  code: 'LINT_OPERATION_ID_DUPLICATE',
  severity: 'error',
  check(context) {
    const seen = new Map<string, LintOperation>();
    return context.operations.flatMap((operation): Finding[] => {
      const id = operation.operation.operationId;
      const first = id === undefined ? undefined : seen.get(id);
      if (id !== undefined && !first) seen.set(id, operation);
      return first ? [{ at: at(operation, 'operationId'), message: `operationId "${id}" is also used by ${first.method.toUpperCase()} ${first.path}`, operation }] : [];
    });
  },
};

export const pathParameters: LintRule = {
  code: 'LINT_PATH_PARAMETER',
  severity: 'error',
  check(context) {
    return context.operations.flatMap((operation): Finding[] => {
      const declared = [...(operation.pathItem.parameters ?? []), ...(operation.operation.parameters ?? [])]
        .map((parameter) => deref<ParameterObject>(context.document, parameter))
        .filter((parameter) => parameter?.in === 'path')
        .map((parameter) => parameter!.name);
      const inTemplate = pathParams(operation.path);
      return [
        ...inTemplate.filter((name) => !declared.includes(name)).map((name) => `path parameter {${name}} is not declared`),
        ...declared.filter((name) => !inTemplate.includes(name)).map((name) => `path parameter "${name}" is declared but not in the path`),
      ].map((message) => ({ at: at(operation), message, operation }));
    });
  },
};

export const listReturnsArray: LintRule = {
  code: 'LINT_LIST_NOT_ARRAY',
  severity: 'warning',
  check(context) {
    const paths = Object.keys(context.document.paths ?? {});
    return context.operations.flatMap((operation): Finding[] => {
      if (operation.method !== 'get' || pathShape(operation.path).addressesItem) return [];
      // A collection for certain: a plural noun whose items are addressed by `<path>/{id}` too
      // (`/user` beside `/user/{account_id}` is the signed-in user, not a list).
      const shape = pathShape(operation.path);
      const isCollection =
        isPlural(headNoun(shape.pairs.at(-1)?.collection ?? ''), context.plurals) &&
        paths.some((other) => other.startsWith(`${operation.path}/{`) && pathShape(other).pairs.length === shape.pairs.length);
      const success = successResponse(context.document, operation.operation);
      const body = success && jsonSchemaOf(success.response);
      if (!isCollection || !body || isArraySchema(context.document, dataSchemaOf(context.document, body))) return [];
      return [{ at: at(operation, 'responses', success.status), message: 'a GET on a collection lists it: its body is an array of items', operation }];
    });
  },
};

function keepsFiles(document: OpenApiDocument, { path, method, operation }: LintOperation): boolean {
  const media = mediaOf(document, operation);
  if (media === 'upload' && method === 'post') return createsWithFiles(document, path, operation);
  const item = itemPathAbove(document, path);
  if (item === undefined || (media !== 'download' && media !== 'upload')) return false;
  const routes = fileRoutesBelow(document, item);
  const filePath = filePathOf(routes);
  if (path !== filePath || !routes.some((route) => route.path === path && route.method === method)) return false;
  const collection = item.slice(0, item.lastIndexOf('/'));
  const create = document.paths?.[collection]?.post as OperationObject | undefined;
  return (create !== undefined && createsWithFiles(document, collection, create)) || routes.some((route) => route.path === filePath && route.method === 'put');
}

/** A form with a file field, or a file, POSTed to a collection, answering the new item as JSON. */
function createsWithFiles(document: OpenApiDocument, path: string, operation: OperationObject): boolean {
  const body = operation.requestBody && deref<RequestBodyObject>(document, operation.requestBody);
  const media = body && bodyMediaOf(document, body.content ?? {});
  const takesFiles = media?.kind === 'form' ? media.files.length > 0 : media?.kind === 'bytes' || media?.kind === 'unsupported';
  const success = successResponse(document, operation);
  return takesFiles && success !== undefined && jsonSchemaOf(success.response) !== undefined && pathRoleOf(document, path) === 'collection';
}

/** The file GETs and bytes PUTs at the item's path or at an action below it (the paths the item's resource holds). */
function fileRoutesBelow(document: OpenApiDocument, item: string): FileRoute[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, pathItem]) => {
    if (!isAtOrBelowItem(path, item) || (path !== item && pathRoleOf(document, path) !== 'action')) return [];
    const routes: FileRoute[] = [];
    const get = (pathItem as Record<string, OperationObject | undefined>).get;
    const put = (pathItem as Record<string, OperationObject | undefined>).put;
    if (get && mediaOf(document, get) === 'download') routes.push({ path, method: 'get' });
    if (put && isBytesBody(document, put)) routes.push({ path, method: 'put' });
    return routes;
  });
}

function isBytesBody(document: OpenApiDocument, operation: OperationObject): boolean {
  const body = operation.requestBody && deref<RequestBodyObject>(document, operation.requestBody);
  const kind = body && bodyMediaOf(document, body.content ?? {}).kind;
  return kind === 'bytes' || kind === 'unsupported';
}

/** The item path a path is, or stands below by fixed segments (`/documents/{id}` of `/documents/{id}/content`). */
function itemPathAbove(document: OpenApiDocument, path: string): string | undefined {
  const segments = path.split('/');
  while (segments.length > 1 && !/^\{[^}]+\}$/.test(segments.at(-1)!)) segments.pop();
  const item = segments.join('/');
  return segments.length > 1 && pathRoleOf(document, item) === 'item' ? item : undefined;
}

const MEDIA_WORDS = { upload: 'takes a form or a file (its request body is not JSON)', download: 'answers a file (its success is not JSON)', stream: 'answers an event stream' } as const;

/**
 * Files and streams the default store does not serve: their default handler
 * answers 501 until written; never a silent drop. The store keeps a
 * collection's files (render/targets/uploads.ts): a form or a file POSTed to
 * the collection, a PUT of bytes and a file GET at or below its item.
 */
export const mediaNotServed: LintRule = {
  code: 'LINT_MEDIA_NOT_SERVED',
  severity: 'warning',
  check: (context) =>
    context.operations.flatMap((operation): Finding[] => {
      const media = mediaOf(context.document, operation.operation);
      if (media === 'json' || keepsFiles(context.document, operation)) return [];
      return [{ at: at(operation), message: `${operation.method.toUpperCase()} ${operation.path} ${MEDIA_WORDS[media]}: its default handler answers 501 NOT_IMPLEMENTED`, operation }];
    }),
};

/** A request body the service does not parse (XML, structured text): its handler gets the bytes as a file, unchecked against the schema. */
export const mediaUnsupported: LintRule = {
  code: 'LINT_MEDIA_UNSUPPORTED',
  severity: 'warning',
  check: (context) =>
    context.operations.flatMap((operation): Finding[] => {
      const body = operation.operation.requestBody && deref<RequestBodyObject>(context.document, operation.operation.requestBody);
      const media = body && bodyMediaOf(context.document, body.content ?? {});
      if (media?.kind !== 'unsupported') return [];
      const named = media.mediaTypes.join(', ');
      return [{ at: at(operation, 'requestBody'), message: `${operation.method.toUpperCase()} ${operation.path} takes ${named}, which the service does not parse: its handler receives the bytes as a file, not validated against the schema`, operation }];
    }),
};
