/**
 * Every problem a user can cause is a Diagnostic: a stable code, where it is
 * (file, JSON pointer, line:column) and how to fix it. User errors never
 * surface as stack traces; only `InternalError`s do.
 */

export type Severity = 'error' | 'warning';

/** The catalog: stable codes and the fix we suggest when the caller gives none. */
export const DIAGNOSTIC_CATALOG = {
  SPEC_NOT_FOUND: 'Check the path; it is resolved against the current directory.',
  SPEC_READ_FAILED: 'Check that the file is readable.',
  SPEC_PARSE_ERROR: 'Fix the YAML/JSON syntax at the position shown.',
  SPEC_NOT_OBJECT: 'An OpenAPI document is a mapping with `openapi`, `info` and `paths` at its top level.',
  SPEC_SWAGGER_2:
    'specforge reads OpenAPI 3.0 and 3.1. Convert the document first, e.g. with the `swagger2openapi` npm package.',
  SPEC_UNSUPPORTED_VERSION: 'Set `openapi` to a 3.0.x or 3.1.x version.',
  SPEC_REF_NOT_FOUND: 'Point the $ref at an existing location, or add the missing definition.',
  SPEC_REF_FILE_NOT_FOUND: 'Check the relative path of the $ref; it is resolved against the file that contains it.',
  SPEC_REMOTE_REF:
    'Download the document and reference it by a relative path: generated output must not depend on the network, nor on what a server answers that day.',
  SPEC_REF_ABSOLUTE:
    'Reference the file by a path relative to the file that holds the $ref: an absolute path or a file: URL names a place on one machine, and may reach any file on it.',
  SPEC_REF_OUTSIDE_ROOT:
    'Move the referenced file inside the spec\'s folder (or its git repository), or pass --ref-root <dir> to allow a wider folder you trust.',
  SPEC_TOO_LARGE: 'Split the spec into files referenced by $ref, or remove what the service does not need; a larger spec is not read.',
  SPEC_TOO_DEEP: 'Flatten the nesting: move nested schemas to components.schemas and reference them by $ref.',
  SPEC_ALIAS_EXPANSION: 'Use fewer nested YAML aliases (*name): a shared part that expands the document many times over is refused, as in a "billion laughs" attack.',
  SPEC_NUL_CHARACTER: 'Remove the NUL character (\\u0000, or a zero byte): no name or text in a spec needs one.',
  SPEC_NOT_UTF8: 'Save the file as UTF-8 (JSON and YAML 1.2 files are UTF-8); the position shown is the first byte that is not.',
  SPEC_INVALID: 'Make the document conform to the OpenAPI specification at the location shown.',
  OVERLAY_NOT_FOUND:
    'Check the path given to --overlay (resolved against the current directory) or to "overlay" in specforge.config.json (resolved against its folder).',
  OVERLAY_INVALID:
    'Make the overlay an OpenAPI Overlay 1.0 document: `overlay: 1.0.0`, `info` with `title` and `version`, and `actions`, each a `target` (an RFC 9535 JSONPath such as $.paths[\'/items\'].post) with an `update` or `remove: true`.',
  OVERLAY_TARGET_UNMATCHED:
    'Correct the target, or drop the action if the spec no longer has the fault it patched; targets are matched against the spec with the files it references inlined.',
  OVERLAY_TARGET_INVALID:
    'An action applies to objects and arrays: to change a string, number or null, target the object that holds it and `update` that property.',
  OVERLAY_TOO_LARGE: 'Target fewer places (a narrower JSONPath), or make the update smaller.',
  CONFIG_UNKNOWN_KEY: 'Remove the key or correct its spelling; `specforge --help` and the README list every option.',
  CONFIG_INVALID_VALUE: 'Use one of the documented values for this option.',
  CONFIG_FILE_INVALID: 'Make specforge.config.json a JSON object, e.g. { "spec": "openapi.yaml", "out": "generated" }.',
  TEMPLATES_NOT_FOUND: 'Pass a directory that exists to --templates.',
  TEMPLATES_NOT_GIVEN:
    'Pass --templates <dir> (or set "templates" in specforge.config.json); or pass --force to go back to the built-in templates.',
  TEMPLATE_ERROR: 'Fix the template at the position shown.',
  OUTPUT_PATH_COLLISION:
    'Two outputs were given one file name. This is a bug in specforge (or in a --templates override that names files): please report it with the spec.',
  OUTPUT_HAND_EDITED: 'Move your change into a scaffold file (they are never overwritten), or pass --force to discard it.',
  OUTPUT_NOT_OURS:
    'A file specforge did not write is in the way. Move it, or choose another --out directory.',
  OUTPUT_SYMLINK:
    'A symbolic link inside --out could send a write or a deletion anywhere. Replace the link with a real folder or file (or remove it), then run again.',
  OUTPUT_PATH_INVALID:
    'A name in the spec makes a file path that is not portable or leaves --out: rename the path segment, resource or operationId it comes from.',
  OUTPUT_TARGET_REFUSED:
    'Give --out a folder of its own for the generated project (e.g. ./generated): not empty, not a root, not your home folder, not the folder that holds the spec.',
  LINT_PATH_VERB: 'Name the resource instead (`POST /users`, not `/createUser`): the HTTP method is the verb.',
  LINT_COLLECTION_SINGULAR: 'Use the plural (`/books/{book_id}`), or list the word in x-specforge.lint.plurals if it is one.',
  LINT_PATH_CASING: 'Write every multi-word path segment in one casing, kebab-case or camelCase.',
  LINT_PATH_SHAPE: 'Remove the trailing slash or the empty segment.',
  LINT_VERSION_SEGMENT: 'Use `/v<N>` (N ≥ 1), first or right after `/api`, the same in every path.',
  LINT_OPERATION_ID: 'Give every operation an operationId of letters, digits, `-`, `.`, `_` or `~`.',
  LINT_OPERATION_ID_DUPLICATE: 'Rename one of the two: operationIds name client methods and handlers, and must be unique.',
  LINT_PATH_PARAMETER: 'Declare each `{param}` of the path as an `in: path` parameter, and no other.',
  LINT_LIST_NOT_ARRAY: 'Return an array of items from the collection (single items live at `<collection>/{id}`).',
  LINT_MEDIA_NOT_SERVED: 'Write its handler in src/handlers/ (it receives the uploaded files, returns a FileAnswer or an async iterable of events), or set the rule to off in x-specforge.lint.rules. The default store keeps files only where a form or a file is POSTed to a collection (or PUT below its item) and downloaded below the item.',
  LINT_MEDIA_UNSUPPORTED: 'Offer JSON or a form (multipart/form-data, application/x-www-form-urlencoded) as well, or parse the bytes in its handler and set the rule to off in x-specforge.lint.rules.',
  LINT_FIELD_CASING: 'Rename to snake_case (`created_after`, `has_more`), as the conventions name their own fields.',
  LINT_CLOSED_ALLOF:
    'Move `additionalProperties: false` from the branch to the composed schema as `unevaluatedProperties: false` (OpenAPI 3.1), or drop it from the branch (3.0 has no way to close a composition).',
  LINT_UNBOUNDED_INPUT: 'Bound it: `maxLength` for strings, `maxItems` for arrays, `maximum` for numbers.',
  LINT_SECURITY_SCHEME: 'Use `http` `bearer` or an `apiKey` in the `X-API-Key` header.',
  LINT_QUERY_KEY_SCHEME: 'Read the key from a header (`X-API-Key`): URLs end up in logs and browser histories.',
  LINT_CREDENTIAL_IN_QUERY: 'Send credentials in a header (`Authorization: Bearer …` or `X-API-Key`), never in the URL; rename the parameter if it is not one.',
  LINT_CONVENTION_PARAMETER: 'Drop the declaration (the conventions add theirs), or rename the parameter if it means something else.',
  LINT_CONVENTION_ERROR_BODY: 'Declare no body for error statuses (the conventions add the error envelope), or use the envelope.',
  SCAFFOLD_UNKNOWN: 'Name a scaffold as `specforge generate` lists it, relative to --out (e.g. src/store/index.ts), or by a path into --out.',
  SCAFFOLD_ORIGIN_MISSING: 'Run `specforge generate` first: it records the rendering of each scaffold in .specforge/scaffolds/, committed with the project.',
  MANIFEST_INVALID: 'Delete .specforge/manifest.json only if you know every generated file is unchanged; then regenerate.',
  STORAGE_MODEL_INVALID: 'Restore migrations/storage.json from version control (it is generated: the model the migrations bring a database to); delete it only to start the migrations over from 0001.',
} as const;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CATALOG;

export interface SourceLocation {
  file?: string;
  /** JSON pointer into the document, e.g. `#/paths/~1books/get`. */
  pointer?: string;
  line?: number;
  column?: number;
}

export interface Diagnostic extends SourceLocation {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  hint: string;
}

export function diagnostic(
  code: DiagnosticCode,
  message: string,
  location: SourceLocation = {},
  options: { severity?: Severity; hint?: string } = {},
): Diagnostic {
  return {
    code,
    severity: options.severity ?? 'error',
    message,
    hint: options.hint ?? DIAGNOSTIC_CATALOG[code],
    ...location,
  };
}

/** A failure caused by the user's input: exit code 1, printed as diagnostics. */
export class SpecforgeError extends Error {
  readonly diagnostics: Diagnostic[];

  constructor(diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => `${d.code}: ${d.message}`).join('\n'));
    this.name = 'SpecforgeError';
    this.diagnostics = diagnostics;
  }
}

export function fail(code: DiagnosticCode, message: string, location: SourceLocation = {}, hint?: string): never {
  throw new SpecforgeError([diagnostic(code, message, location, hint === undefined ? {} : { hint })]);
}

/** Escapes one reference token for a JSON pointer (RFC 6901). */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function toPointer(path: readonly (string | number)[]): string {
  return '#' + path.map((token) => '/' + escapePointerToken(token)).join('');
}

/** Tokens of a JSON pointer (RFC 6901), with or without the leading `#`. */
export function parsePointer(pointer: string): string[] {
  const body = pointer.replace(/^#/, '');
  if (body === '') return [];
  return body
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Tokens of a `$ref`'s fragment (none: the whole file); a URI fragment, so percent-encoded (`%7B` for `{`). */
export function parseRef(ref: string): string[] {
  const hash = ref.indexOf('#');
  return hash < 0 ? [] : parsePointer(percentDecode(ref.slice(hash)));
}

export function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a lone `%` is a character, not an escape
  }
}

/** Text in an ANSI style (`1` bold, `2` dim, `31` red…), or plain when colour is off. */
export function ansi(color: boolean, code: string, text: string): string {
  return color ? `\u001b[${code}m${text}\u001b[0m` : text;
}

/** `✘ CODE  file:line:col  #/pointer` then the message and the fix, one per line. */
export function formatDiagnostic(d: Diagnostic, options: { color: boolean; cwd?: string }): string {
  const paint = (code: string, text: string) => ansi(options.color, code, text);
  const mark = d.severity === 'error' ? paint('31', '✘') : paint('33', '⚠');
  const file = d.file ? relativeTo(d.file, options.cwd) : undefined;
  const where = [
    file ? file + (d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : '') : undefined,
    d.pointer,
  ]
    .filter(Boolean)
    .join('  ');
  const head = `${mark} ${paint('1', d.code)}${where ? '  ' + where : ''}`;
  return `${head}\n  ${d.message}\n  ${paint('2', 'fix:')} ${d.hint}`;
}

function relativeTo(file: string, cwd: string | undefined): string {
  if (!cwd || !file.startsWith(cwd + '/')) return file;
  return file.slice(cwd.length + 1);
}
