/**
 * The one registry of Handlebars helpers. Few and small on purpose:
 * templates print what the view model computed, they do not compute.
 */
import { camelCase, pascalCase } from '../openapi/names.js';
import { Call, Code, type JsValue } from './js-print.js';

export const HELPERS = {
  /** `{{json value}}`: a value as a JSON literal, for embedding data in code. */
  json: (value: unknown) => JSON.stringify(value ?? null),
  /** `{{#if (eq a b)}}`: strict equality. */
  eq: (a: unknown, b: unknown) => a === b,
  /** `{{join list ", "}}`: list items joined by a separator. */
  join: (list: unknown, separator: unknown) => (Array.isArray(list) ? list.join(typeof separator === 'string' ? separator : ', ') : ''),
  /** `{{camelCase "list-books"}}` → `listBooks`. */
  camelCase: (text: unknown) => camelCase(String(text)),
  /** `{{pascalCase "list-books"}}` → `ListBooks`. */
  pascalCase: (text: unknown) => pascalCase(String(text)),
  /** `{{js (code "parameters." validator)}}`: code written as it is (a reference), its parts joined. */
  code: (...parts: unknown[]) => new Code(parts.map(String).join('')),
  /** `{{js (call "handler" group name)}}`: a call of `callee` with these values. */
  call: (callee: unknown, ...args: unknown[]) => new Call(new Code(String(callee)), args as JsValue[]),
} as const;

export type HelperName = keyof typeof HELPERS;

/**
 * Handlebars passes an options object as the last argument; helpers above
 * take only their real arguments, so this strips it.
 */
export function withoutOptions(helper: (...args: never[]) => unknown) {
  const call = helper as unknown as (...args: unknown[]) => unknown;
  return (...args: unknown[]) => call(...args.slice(0, -1));
}
