/**
 * JSON printed exactly as prettier (parser `json`, print width 100) prints
 * `JSON.stringify(value, null, 2)`, without running prettier: a large file
 * of data (GitHub's storage model is 3 MB) costs seconds in prettier and
 * milliseconds here. test/unit/json-print checks it against prettier.
 *
 * Prettier's rules, as they apply to that input:
 * - a non-empty object is always expanded (its text breaks after `{`);
 * - an array is expanded when it holds an expanded object or array at any
 *   depth, or two or more objects (or arrays) of more than one entry each;
 * - otherwise it stays on one line when that line, with the `,` after it,
 *   fits in 100 columns; a longer array of numbers fills its lines, any
 *   other longer array puts an item on each line.
 */
import { fill, PRINT_WIDTH } from './prettier-form.js';

const INDENT = '  ';

/** The file's text, or undefined where widths need prettier's Unicode rules (any character beyond ASCII). */
export function printJson(value: unknown): string | undefined {
  const text = JSON.stringify(value);
  if (text === undefined || /[^\x00-\x7f]/.test(text)) return undefined;
  return `${print(JSON.parse(text) as Json, '', 0, 0)}\n`;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `value` printed at `column`, its lines indented by `indent`, followed on its last line by `trailer` characters. */
function print(value: Json, indent: string, column: number, trailer: number): string {
  if (Array.isArray(value)) return printArray(value, indent, column, trailer);
  if (value !== null && typeof value === 'object') return printObject(value, indent);
  return printScalar(value);
}

function printObject(object: { [key: string]: Json }, indent: string): string {
  const keys = Object.keys(object);
  if (keys.length === 0) return '{}';
  const inner = indent + INDENT;
  const members = keys.map((key, index) => {
    const head = `${inner}${JSON.stringify(key)}: `;
    return head + print(object[key]!, inner, head.length, index < keys.length - 1 ? 1 : 0);
  });
  return `{\n${members.join(',\n')}\n${indent}}`;
}

function printArray(array: Json[], indent: string, column: number, trailer: number): string {
  if (array.length === 0) return '[]';
  if (!mustExpand(array)) {
    const flat = printFlat(array);
    if (column + flat.length + trailer <= PRINT_WIDTH) return flat;
  }
  const inner = indent + INDENT;
  if (isNumberList(array)) return `[\n${inner}${fill(array.map((item, index) => (index < array.length - 1 ? `${printScalar(item)},` : printScalar(item))), inner.length)}\n${indent}]`;
  const items = array.map((item, index) => inner + print(item, inner, inner.length, index < array.length - 1 ? 1 : 0));
  return `[\n${items.join(',\n')}\n${indent}]`;
}

function mustExpand(array: Json[]): boolean {
  const entriesOf = (item: Json) => (Array.isArray(item) ? item.length : isObject(item) ? Object.keys(item).length : 0);
  const first = array[0]!;
  const collectionsOfSeveral =
    array.length > 1 &&
    array.every((item) => entriesOf(item) > 1 && Array.isArray(item) === Array.isArray(first) && isObject(item) === isObject(first));
  return collectionsOfSeveral || array.some((item) => (isObject(item) && Object.keys(item).length > 0) || (Array.isArray(item) && mustExpand(item)));
}

function printFlat(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(printFlat).join(', ')}]`;
  return isObject(value) ? '{}' : printScalar(value);
}

function isObject(value: Json): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isNumberList(array: Json[]): boolean {
  return array.length > 1 && array.every((item) => typeof item === 'number');
}

/** Numbers as prettier writes them: `1e+21` → `1e21`. */
function printScalar(value: Exclude<Json, object> | Json): string {
  const text = JSON.stringify(value);
  return typeof value === 'number' ? text.replace('e+', 'e') : text;
}
