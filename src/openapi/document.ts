/**
 * The slice of the OpenAPI 3.x object model that specforge reads and writes.
 * Deliberately loose (specs are user input); narrowing happens where a value is
 * read, through the guards below.
 */
import { parseRef } from '../diagnostics.js';

export type JsonObject = Record<string, unknown>;

export interface Reference {
  $ref: string;
}

export type SchemaObject = JsonObject & {
  type?: string | string[];
  properties?: Record<string, SchemaObject | Reference>;
  items?: SchemaObject | Reference;
  required?: string[];
  allOf?: (SchemaObject | Reference)[];
  enum?: unknown[];
  format?: string;
};

export interface MediaTypeObject extends JsonObject {
  schema?: SchemaObject | Reference;
}

export interface ResponseObject extends JsonObject {
  description: string;
  headers?: Record<string, JsonObject | Reference>;
  content?: Record<string, MediaTypeObject>;
}

export interface ParameterObject extends JsonObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: SchemaObject | Reference;
  description?: string;
  style?: string;
  explode?: boolean;
}

export interface RequestBodyObject extends JsonObject {
  required?: boolean;
  content: Record<string, MediaTypeObject>;
}

export type SecurityRequirement = Record<string, string[]>;

export interface OperationObject extends JsonObject {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: (ParameterObject | Reference)[];
  requestBody?: RequestBodyObject | Reference;
  responses?: Record<string, ResponseObject | Reference>;
  security?: SecurityRequirement[];
  deprecated?: boolean;
}

export interface PathItemObject extends JsonObject {
  parameters?: (ParameterObject | Reference)[];
}

export interface OpenApiDocument extends JsonObject {
  openapi: string;
  info: JsonObject & { title: string; version: string };
  servers?: (JsonObject & { url: string })[];
  paths?: Record<string, PathItemObject>;
  components?: JsonObject & {
    schemas?: Record<string, SchemaObject | Reference>;
    responses?: Record<string, ResponseObject | Reference>;
    parameters?: Record<string, ParameterObject | Reference>;
    headers?: Record<string, JsonObject | Reference>;
    securitySchemes?: Record<string, JsonObject>;
  };
  security?: SecurityRequirement[];
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export function isReference(value: unknown): value is Reference {
  return typeof value === 'object' && value !== null && typeof (value as Reference).$ref === 'string';
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Equality of JSON values: object key order does not matter, and neither
 * does the realm an object was made in (unlike util.isDeepStrictEqual).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => key in b && jsonEqual(a[key], b[key]));
}

/**
 * Calls `visit` for every object holding a string `$ref`, with the path to
 * it. One mutable path serves the whole walk (it is hot on large specs):
 * copy it to keep it.
 */
export function visitRefs(node: unknown, visit: (holder: Reference & JsonObject, path: readonly string[]) => void): void {
  const path: string[] = [];
  const walkNode = (value: unknown) => {
    if (typeof value !== 'object' || value === null) return;
    if (isReference(value)) visit(value as Reference & JsonObject, path);
    for (const [key, child] of Object.entries(value)) {
      path.push(key);
      walkNode(child);
      path.pop();
    }
  };
  walkNode(node);
}

/** Follows local `$ref`s (`#/…`) until a value that is not a reference. */
export function deref<T>(document: OpenApiDocument, value: T | Reference): T | undefined {
  let current: unknown = value;
  const seen = new Set<string>();
  while (isReference(current)) {
    if (seen.has(current.$ref) || !current.$ref.startsWith('#/')) return undefined;
    seen.add(current.$ref);
    current = lookup(document, current.$ref);
  }
  return current as T | undefined;
}

/** The value a local `$ref` (`#/components/…`, percent-encoded) points at. */
export function lookup(document: unknown, ref: string): unknown {
  return walk(document, parseRef(ref));
}

/** The value at a path of tokens, or undefined where the path leaves the document. */
export function walk(document: unknown, tokens: readonly string[]): unknown {
  let node: unknown = document;
  for (const token of tokens) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(node, token)) return undefined;
    node = (node as JsonObject)[token];
  }
  return node;
}

/** Every (path, method, operation) in document order. */
export function* operationsOf(
  document: OpenApiDocument,
): Generator<{ path: string; method: HttpMethod; pathItem: PathItemObject; operation: OperationObject }> {
  for (const [path, pathItem] of Object.entries(document.paths ?? {})) {
    if (!isObject(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (isObject(operation)) yield { path, method, pathItem, operation: operation as OperationObject };
    }
  }
}
