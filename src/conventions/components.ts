/**
 * Installs the convention components (the fragments in `schemas/`, and the
 * error responses built from the catalog) into the document. A name the
 * user's spec already uses for something else stays theirs: the conventions'
 * component is installed under a name of its own (./component-names.ts).
 */
import { isObject, type JsonObject, type OpenApiDocument, type Reference } from '../openapi/document.js';
import { resolveComponentNames, WRITTEN_NAMES, type ComponentNames, type ComponentSections } from './component-names.js';
import { ERRORS } from './errors.js';

/** The parsed contents of `schemas/*.yaml`: OpenAPI `components` sections. */
export type ConventionFragments = Record<string, Record<string, JsonObject>>;

export const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/** Headers every response carries: the request id and the rate-limit figures. */
export function standardHeaders(names: ComponentNames): Record<string, Reference> {
  return Object.fromEntries(['X-Request-Id', ...RATE_LIMIT_HEADERS].map((name) => [name, names.ref('headers', name)]));
}

/** Errors that say when to try again. */
const RETRY_AFTER_STATUSES = new Set([429, 503]);

/** Written with the plain names, like the fragments: installing points their `$ref`s at the installed names. */
function errorResponses(validationStatus: 400 | 422, names: ComponentNames): Record<string, JsonObject> {
  return Object.fromEntries(
    Object.values(ERRORS).map((error) => {
      const headers = RETRY_AFTER_STATUSES.has(error.status) ? { ...standardHeaders(names), 'Retry-After': names.ref('headers', 'Retry-After') } : standardHeaders(names);
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
          content: { 'application/json': { schema: names.ref('schemas', 'ErrorEnvelope'), example } },
        },
      ];
    }),
  );
}

function notModifiedResponse(names: ComponentNames): JsonObject {
  return {
    description: 'Not modified: the entity tag in If-None-Match still matches. No body.',
    headers: { ETag: names.ref('headers', 'ETag'), 'Cache-Control': names.ref('headers', 'Cache-Control'), ...standardHeaders(names) },
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

/** Installs the components and answers where each went: every `$ref` the merge writes to one goes through these names. */
export function installComponents(document: OpenApiDocument, fragments: ConventionFragments, validationStatus: 400 | 422): ComponentNames {
  const is31 = document.openapi.startsWith('3.1');
  const sections: ConventionFragments = {
    ...fragments,
    responses: { ...fragments.responses, ...errorResponses(validationStatus, WRITTEN_NAMES), NotModified: notModifiedResponse(WRITTEN_NAMES) },
  };
  const wanted = (is31 ? toOpenApi31(sections) : sections) as ComponentSections;
  const components = (document.components ??= {}) as ComponentSections;
  const { names, installed } = resolveComponentNames({ components, wanted });
  for (const [section, entries] of Object.entries(installed)) {
    if (section === 'securitySchemes') continue; // installed only where the spec has no security (security.ts)
    const target = (components[section] ??= {});
    for (const [name, value] of Object.entries(entries)) target[name] ??= value;
  }
  return names;
}
