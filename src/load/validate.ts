/**
 * Validation of the bundled document: every internal `$ref` resolves, and the
 * document conforms to the OpenAPI 3.0 / 3.1 schema (swagger-parser). Each
 * problem comes back as a diagnostic whose pointer is in the bundled document.
 */
import { diagnostic, parsePointer, parseRef, toPointer, type Diagnostic } from '../diagnostics.js';
import { lookup, visitRefs } from '../openapi/document.js';

type Json = Record<string, unknown>;

interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

export function findBrokenRefs(document: unknown): Diagnostic[] {
  const problems: Diagnostic[] = [];
  visitRefs(document, ({ $ref }, path) => {
    if ($ref.startsWith('#') && lookup(document, $ref) === undefined) {
      problems.push(diagnostic('SPEC_REF_NOT_FOUND', `$ref "${$ref}" does not resolve`, { pointer: toPointer([...path, '$ref']) }));
    }
  });
  return problems;
}

export async function validateOpenApi(bundled: Json): Promise<Diagnostic[]> {
  // Imported on first use: swagger-parser is CommonJS that require()s an ES module, which
  // Node 20 supports and Jest's module loader does not; tests reach it through the CLI.
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  try {
    // swagger-parser dereferences in place: hand it a copy.
    await SwaggerParser.validate(structuredClone(bundled) as never);
    return [];
  } catch (error) {
    const details = (error as { details?: AjvError[] }).details;
    if (Array.isArray(details) && details.length > 0) return schemaProblems(bundled, details);
    const message = String((error as Error).message ?? error).replace(/^Validation failed\.\s*/, '');
    return [diagnostic('SPEC_INVALID', message)];
  }
}

/**
 * Ajv with allErrors reports every failed branch of every oneOf; keep the
 * errors a person can act on: without the "it is not a Reference object
 * either" noise, without a branch's complaint where the object breaks a
 * rule outside any branch (a parameter without `in` is not "a path parameter
 * missing `required`"), one per location and message.
 */
function schemaProblems(bundled: Json, errors: AjvError[]): Diagnostic[] {
  const inBranch = (e: AjvError) => /\/(oneOf|anyOf)\//.test(e.schemaPath);
  const plainAt = new Set(errors.filter((e) => !inBranch(e) && e.keyword !== 'oneOf' && e.keyword !== 'anyOf').map((e) => e.instancePath));
  const actionable = errors.filter(
    (e) =>
      !['oneOf', 'anyOf', 'if', 'not', 'then', 'else', '$ref'].includes(e.keyword) &&
      !(e.keyword === 'required' && e.params?.missingProperty === '$ref') &&
      !(inBranch(e) && plainAt.has(e.instancePath)) &&
      !(e.keyword === 'additionalProperties' && errors.some((o) => o !== e && o.instancePath.startsWith(e.instancePath + '/'))),
  );
  const chosen = actionable.length > 0 ? actionable : errors;
  const seen = new Set<string>();
  const problems: Diagnostic[] = [];
  for (const error of chosen) {
    const pointer = toBundledPointer(bundled, error.instancePath);
    const message = describe(error);
    const key = pointer + message;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(diagnostic('SPEC_INVALID', message, { pointer }));
  }
  return problems;
}

function describe(error: AjvError): string {
  const params = error.params ?? {};
  if (error.keyword === 'additionalProperties') return `unexpected property "${String(params.additionalProperty)}"`;
  if (error.keyword === 'required') return `missing required property "${String(params.missingProperty)}"`;
  if (error.keyword === 'enum') return `${error.message}: ${JSON.stringify(params.allowedValues)}`;
  return error.message ?? error.keyword;
}

/**
 * Ajv's instancePath is a path through the *dereferenced* document; follow it
 * through the bundled one, jumping to a `$ref`'s target whenever it crosses one,
 * so the pointer names the place the user has to edit.
 */
function toBundledPointer(bundled: Json, instancePath: string): string {
  let tokens: string[] = [];
  let node: unknown = bundled;
  for (const token of parsePointer('#' + instancePath)) {
    const ref = (node as Json | undefined)?.$ref;
    if (typeof ref === 'string' && ref.startsWith('#')) {
      tokens = parseRef(ref);
      node = lookup(bundled, ref);
    }
    node = typeof node === 'object' && node !== null ? (node as Json)[token] : undefined;
    tokens.push(token);
  }
  return toPointer(tokens);
}
