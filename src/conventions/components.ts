/**
 * Installs the convention components (the fragments in `schemas/`, and the
 * error responses built from the catalog) into the document. A name the
 * user's spec already uses for something else is a conflict, reported, never
 * silently overwritten.
 */
import { diagnostic, toPointer, type Diagnostic } from '../diagnostics.js';
import { isObject, jsonEqual, type JsonObject, type OpenApiDocument } from '../openapi/document.js';
import { ERRORS } from './errors.js';

/** The parsed contents of `schemas/*.yaml`: OpenAPI `components` sections. */
export type ConventionFragments = Record<string, Record<string, JsonObject>>;

export const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

export function headerRef(name: string): JsonObject {
  return { $ref: `#/components/headers/${name}` };
}

/** Headers every response carries: the request id and the rate-limit figures. */
export function standardHeaders(): Record<string, JsonObject> {
  return Object.fromEntries(['X-Request-Id', ...RATE_LIMIT_HEADERS].map((name) => [name, headerRef(name)]));
}

function errorResponses(validationStatus: 400 | 422): Record<string, JsonObject> {
  return Object.fromEntries(
    Object.values(ERRORS).map((error) => {
      const headers = error.status === 429 ? { ...standardHeaders(), 'Retry-After': headerRef('Retry-After') } : standardHeaders();
      const description =
        error.status === 400 && validationStatus === 400
          ? `${error.description} Also: the input breaks the schema (code VALIDATION_ERROR, with per-field \`details\`).`
          : error.description;
      const example = { error: { code: error.code, message: description, request_id: 'req_0123456789abcdef' } };
      return [
        error.response,
        {
          description: `${error.status} ${error.code}: ${description}`,
          headers,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, example } },
        },
      ];
    }),
  );
}

function notModifiedResponse(): JsonObject {
  return {
    description: 'Not modified: the entity tag in If-None-Match still matches. No body.',
    headers: { ETag: headerRef('ETag'), 'Cache-Control': headerRef('Cache-Control'), ...standardHeaders() },
  };
}

/**
 * 3.1 dropped `nullable`; the fragments are written for 3.0 and translated
 * here so the merged document stays valid for either version.
 */
export function toOpenApi31(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toOpenApi31);
  if (!isObject(node)) return node;
  const entries = Object.entries(node)
    .filter(([key]) => key !== 'nullable')
    .map(([key, value]) => [key, toOpenApi31(value)] as const);
  const result: JsonObject = Object.fromEntries(entries);
  if (node.nullable === true && typeof node.type === 'string') result.type = [node.type, 'null'];
  return result;
}

export function installComponents(
  document: OpenApiDocument,
  fragments: ConventionFragments,
  validationStatus: 400 | 422,
): Diagnostic[] {
  const is31 = document.openapi.startsWith('3.1');
  const sections: ConventionFragments = {
    ...fragments,
    responses: { ...fragments.responses, ...errorResponses(validationStatus), NotModified: notModifiedResponse() },
  };
  const problems: Diagnostic[] = [];
  const components = (document.components ??= {}) as Record<string, Record<string, unknown>>;
  for (const [section, entries] of Object.entries(sections)) {
    if (section === 'securitySchemes') continue; // installed only where the spec has no security (security.ts)
    const target = (components[section] ??= {});
    for (const [name, fragment] of Object.entries(entries)) {
      const value = is31 ? toOpenApi31(fragment) : fragment;
      if (target[name] === undefined) target[name] = value;
      else if (!jsonEqual(target[name], value)) {
        problems.push(
          diagnostic(
            'CONVENTION_NAME_CONFLICT',
            `components.${section}.${name} is defined by your spec and by the conventions, differently`,
            { pointer: toPointer(['components', section, name]) },
          ),
        );
      }
    }
  }
  return problems;
}
