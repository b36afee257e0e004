/**
 * swagger-parser's bundler inlines an external file where it is first used
 * and points every other use there, e.g. `#/paths/~1notes~1{id}/get/…/schema`.
 * The merge rewrites exactly those places (it wraps bodies in the envelope),
 * so such a reference would end up pointing at an envelope. Schemas reached
 * that way are moved to `components.schemas`, named after their file; any
 * other kind of object is copied to each place that references it.
 */
import { basename, extname } from 'node:path';
import { parseRef, toPointer } from '../diagnostics.js';
import { lookup, visitRefs, walk, type JsonObject, type OpenApiDocument } from '../openapi/document.js';
import { pascalCase } from '../openapi/names.js';
import type { SourceSet } from './sources.js';
import { byText } from '../order.js';

const SCHEMA_KEYS = new Set(['schema', 'items', 'additionalProperties', 'not', 'contains', 'propertyNames']);
const SCHEMA_LISTS = new Set(['properties', 'allOf', 'anyOf', 'oneOf', 'patternProperties', '$defs', 'definitions', 'prefixItems']);

export function hoistInlinedFiles(document: OpenApiDocument, sources: SourceSet): void {
  const targets = [...new Set(refsOutsideComponents(document))].sort((a, b) => depth(b) - depth(a) || byText(a, b));
  for (const target of targets) {
    const tokens = parseRef(target);
    const value = lookup(document, target);
    if (value === undefined) continue;
    if (isSchemaPosition(tokens)) {
      const origin = sources.resolveBundled(toPointer(tokens));
      const name = uniqueName(document, nameFor(origin, sources));
      ((document.components ??= {}).schemas ??= {})[name] = value as JsonObject;
      // Later diagnostics about the component still lead to the file it was written in.
      sources.recordMove(['components', 'schemas', name], origin);
      const replacement = `#/components/schemas/${name}`;
      setAt(document, tokens, { $ref: replacement });
      rewriteRefs(document, (ref) => (ref === target ? replacement : ref.startsWith(target + '/') ? replacement + ref.slice(target.length) : ref));
    } else {
      inlineRefs(document, target, value);
    }
  }
}

function depth(pointer: string): number {
  return pointer.split('/').length;
}

function isSchemaPosition(tokens: string[]): boolean {
  const last = tokens.at(-1) ?? '';
  const parent = tokens.at(-2) ?? '';
  return SCHEMA_KEYS.has(last) || SCHEMA_LISTS.has(parent);
}

function refsOutsideComponents(document: OpenApiDocument): string[] {
  const found: string[] = [];
  visitRefs(document, ({ $ref }) => {
    if ($ref.startsWith('#/') && !$ref.startsWith('#/components/')) found.push($ref);
  });
  return found;
}

function rewriteRefs(document: OpenApiDocument, rewrite: (ref: string) => string): void {
  visitRefs(document, (holder) => {
    holder.$ref = rewrite(holder.$ref);
  });
}

function inlineRefs(document: OpenApiDocument, target: string, value: unknown): void {
  visitRefs(document, (holder) => {
    if (holder.$ref !== target) return;
    const inlined: JsonObject = holder;
    delete inlined.$ref;
    Object.assign(inlined, structuredClone(value));
  });
}

/** `components/note.yaml` → `Note`; a fragment inside a file adds its last token. */
function nameFor(origin: { file: string; tokens: string[] }, sources: SourceSet): string {
  const file = pascalCase(basename(origin.file, extname(origin.file)));
  if (origin.tokens.length === 0) return file;
  const last = pascalCase(origin.tokens.at(-1)!);
  return origin.file === sources.root ? last : file + last;
}

function uniqueName(document: OpenApiDocument, base: string): string {
  const taken = document.components?.schemas ?? {};
  let name = base || 'Schema';
  for (let n = 2; name in taken; n++) name = `${base}${n}`;
  return name;
}

function setAt(document: OpenApiDocument, tokens: string[], value: unknown): void {
  const parent = walk(document, tokens.slice(0, -1)) as JsonObject;
  parent[tokens.at(-1)!] = value;
}
