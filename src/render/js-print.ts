/**
 * JavaScript values — data, references to code, calls — printed as prettier
 * prints them in a TypeScript file, at the column where they stand, so a
 * template's output needs no prettier pass (GitHub's route table and
 * conformance suite cost prettier seconds).
 *
 * Prettier's rules, as they apply to what this prints:
 * - an object or array stays on one line when it fits (with what follows it
 *   on the line), else it is expanded: an object one property a line, an
 *   array of numbers filling its lines, any other one item a line; an array
 *   is always expanded when it holds two or more arrays (or objects) of more
 *   than one item each, and so is whatever holds such an array (an expanded
 *   object stays expanded: prettier keeps an object that breaks after `{`);
 * - a property whose value does not fit after its key moves the value to the
 *   next line, unless the key is shorter than 5 columns or the value is a
 *   boolean or a non-negative number;
 * - a call stays on one line when it fits; its last argument, an object or
 *   an array, is hugged (`f(a, {`) when the line up to the bracket fits;
 *   otherwise every argument goes on a line of its own.
 * What it does not model (text of uncertain width, a key that pushes a
 * bracket past the margin) throws OutOfForm: the file goes to prettier.
 * test/unit/js-print checks it against prettier.
 */
import { ASCII_IDENTIFIER, fill, narrow, outOfForm, PRINT_WIDTH, printNumber, quoted } from './prettier-form.js';

/** Code written as it is: one line that never breaks (`checks.reads`, `SERVICE.bodyLimit`). */
export class Code {
  constructor(readonly text: string) {
    if (/[\n\r\u2028\u2029]/.test(text)) throw new Error(`code on more than one line: ${text}`);
  }
}

/** `callee(args…)`. */
export class Call {
  constructor(
    readonly callee: Code,
    readonly args: readonly JsValue[],
  ) {}
}

/** Something that prints itself in prettier's form where it stands (a statement or a signature: see type-alias-print.ts, type-print.ts). */
export abstract class SelfPrinting {
  abstract print(at: Place): string;
  /** Its text on one line, for prettier to lay out. */
  abstract plain(): string;
}

/**
 * The body of an arrow function the template wrote just before it
 * (`name: (request) => `), an expression on one line: after the arrow
 * where it fits, else on the next line, indented, as prettier moves it.
 */
export class ArrowBody extends SelfPrinting {
  constructor(readonly code: Code) {
    super();
  }

  print(at: Place): string {
    const { text } = this.code;
    if (at.column + text.length + at.rest <= PRINT_WIDTH) return text;
    const indent = at.indent + 2;
    const margin = `\n${' '.repeat(indent)}`;
    // The arrow must fit where it is (its line ends at `=>`), and the body on its own line, or prettier breaks more.
    if (at.column - 1 > PRINT_WIDTH) return outOfForm('an arrow past the margin');
    if (indent + text.length + at.rest <= PRINT_WIDTH) return `${margin}${text}`;
    // `left !== undefined`: prettier breaks after the operator, both lines at the body's indent.
    const comparison = /^(.+) (!==|===) (undefined|null)$/.exec(text);
    if (comparison && indent + comparison[1]!.length + 4 <= PRINT_WIDTH && indent + comparison[3]!.length + at.rest <= PRINT_WIDTH) {
      return `${margin}${comparison[1]} ${comparison[2]}${margin}${comparison[3]}`;
    }
    return outOfForm('an arrow body that breaks');
  }

  plain(): string {
    return this.code.text;
  }
}

/**
 * The value an object spreads first: `{ [SPREAD]: new Code('COLLECTIONS.books'), table: … }`
 * prints `{ ...COLLECTIONS.books, table: … }`.
 */
export const SPREAD = Symbol('spread');

/**
 * A call the template assigns (`const name = `): after the `=` where the
 * line fits up to its `(`, else on the next line, indented; then laid out
 * as any call (prettier's fluid assignment layout).
 */
export class AssignedCall extends SelfPrinting {
  constructor(readonly call: Call) {
    super();
  }

  print(at: Place): string {
    const { text } = this.call.callee;
    if (!/^(new )?[\w$.]+(<.*>)?$/.test(text)) return outOfForm('a callee this printer does not lay out');
    if (at.column + text.length + 1 <= PRINT_WIDTH) return printCall(this.call, at);
    // Type arguments that could break (not one plain name) give prettier another place to break first.
    if (!/^(new )?[\w$.]+(<[\w$.]+>)?$/.test(text)) return outOfForm('a callee whose type arguments may break');
    const indent = at.indent + 2;
    return `\n${' '.repeat(indent)}${printCall(this.call, { indent, column: indent, rest: at.rest })}`;
  }

  plain(): string {
    return plain(this.call);
  }
}

export type JsValue = null | boolean | number | string | Code | Call | SelfPrinting | readonly JsValue[] | { readonly [key: string]: JsValue; readonly [SPREAD]?: Code };

/** Where a value starts: the indentation of its lines, its column, and how many characters follow it on its line. */
export interface Place {
  indent: number;
  column: number;
  rest: number;
}

/** `value` printed at `at`. */
export function printJs(value: JsValue, at: Place): string {
  if (value instanceof SelfPrinting) return value.print(at);
  if (value instanceof Call) return printCall(value, at);
  if (Array.isArray(value)) return printArray(value as readonly JsValue[], at);
  if (isObject(value)) return printObject(value, at);
  return scalar(value as Scalar);
}

/** `key: value,` at `indent`. */
function printProperty(key: string, value: JsValue, indent: number): string {
  const keyText = propertyKey(key);
  const printed = propertyValue(keyText, value, indent, 1);
  return printed.startsWith('\n') ? `${' '.repeat(indent)}${keyText}:${printed}` : `${' '.repeat(indent)}${keyText}: ${printed}`;
}

/**
 * The value of a property whose key (as printed: `keyText`) stands at
 * `indent`, followed by `rest` characters: the text after `key: `, or, where
 * prettier moves the value to the next line, that line (starting with `\n`).
 */
export function propertyValue(keyText: string, value: JsValue, indent: number, rest: number): string {
  const column = indent + keyText.length + 2;
  if (isBreakable(value)) {
    const printed = printJs(value, { indent, column, rest });
    // Prettier would move the value to the next line if even its opening bracket passed the margin,
    // a value on one line (`[]`, `f()`) with what follows it, or a call it breaks like a name (no or one short argument;
    // one object or array it hugs from the key's line: `key: f({`).
    const oneLine = !printed.includes('\n');
    if (column + firstLineLength(printed) + (oneLine ? rest : 0) > PRINT_WIDTH) outOfForm('a key too long for its value');
    const hugsItsArgument = /\([{[]$/.test(printed.slice(0, firstLineLength(printed)));
    if (value instanceof Call && value.args.length <= 1 && !oneLine && !hugsItsArgument) outOfForm('a call prettier may move below its key');
    return printed;
  }
  const text = scalar(value as Scalar);
  const fits = column + text.length + rest <= PRINT_WIDTH;
  const moves = !fits && breaksAfterColon(keyText, value as Scalar);
  // A member chain of three names or more (`TABLES.books.name`) still past the margin is one prettier breaks before a `.`.
  if (!fits && value instanceof Code && value.text.split('.').length > 2 && (!moves || indent + 2 + text.length + rest > PRINT_WIDTH)) outOfForm('code prettier may break');
  return moves ? `\n${' '.repeat(indent + 2)}${text}` : text;
}

type Scalar = null | boolean | number | string | Code | SelfPrinting;

/** The value, if it is JSON or made of this module's kinds; anything else (`undefined`, a Date) is a mistake of the view that made it. */
export function jsValue(value: unknown): JsValue {
  const kind = typeof value;
  if (value === null || kind === 'string' || kind === 'number' || kind === 'boolean' || value instanceof Code || value instanceof SelfPrinting) return value as JsValue;
  if (value instanceof Call) return value.args.forEach(jsValue), value;
  if (Array.isArray(value)) return value.forEach(jsValue), value as JsValue;
  // A plain object: its prototype is an Object.prototype (of any realm: Jest runs tests in another) or none.
  const prototype: unknown = kind === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (prototype === null || (prototype !== undefined && Object.getPrototypeOf(prototype) === null)) {
    const spread = (value as { [SPREAD]?: unknown })[SPREAD];
    if (spread !== undefined && !(spread instanceof Code)) throw new Error('{{js}} spreads code only');
    return Object.values(value as object).forEach(jsValue), value as JsValue;
  }
  throw new Error(`{{js}} prints JSON values, not ${value === undefined ? 'undefined' : Object.prototype.toString.call(value)}`);
}

function isObject(value: JsValue): value is { readonly [key: string]: JsValue } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Code) && !(value instanceof Call) && !(value instanceof SelfPrinting);
}

function isBreakable(value: JsValue): boolean {
  return Array.isArray(value) || isObject(value) || value instanceof Call;
}

/**
 * Prettier's assignment layouts for a key and a value of one piece: a key
 * shorter than 5 columns, a boolean or a non-negative number never move;
 * anything else goes to the next line when it does not fit.
 */
function breaksAfterColon(keyText: string, value: Scalar): boolean {
  if (keyText.length < 5) return false;
  return !(typeof value === 'boolean' || (typeof value === 'number' && !scalar(value).startsWith('-')));
}

function scalar(value: Scalar): string {
  if (value instanceof SelfPrinting) return outOfForm('a statement inside a value');
  if (value === null) return 'null';
  if (value instanceof Code) return value.text;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return outOfForm('a number JSON cannot hold');
    return printNumber(JSON.stringify(value));
  }
  return stringLiteral(value);
}

/** A string as prettier writes it: JSON's escapes, prettier's choice of quotes. */
export function stringLiteral(text: string): string {
  return quoted(narrow(JSON.stringify(text).slice(1, -1)));
}

/**
 * A key: bare where it is an identifier, else a string (prettier keeps
 * `'200'` quoted in TypeScript). `__proto__` is computed: written plainly it
 * would set the object's prototype, not hold the data.
 */
export function propertyKey(key: string): string {
  if (key === '__proto__') return "['__proto__']";
  if (ASCII_IDENTIFIER.test(key)) return key;
  // `café` may be a name by Unicode's tables, which prettier then writes bare.
  if (MAYBE_IDENTIFIER.test(key)) return outOfForm('a key that may be a name beyond ASCII');
  return stringLiteral(key);
}

const MAYBE_IDENTIFIER = /^[\w$\u0080-\uffff]*[\u0080-\uffff][\w$\u0080-\uffff]*$/;

/** Its members as printed: the spread (`...COLLECTIONS.books`) first, then each key's. */
function membersOf(object: { readonly [key: string]: JsValue }): { key?: string; value: JsValue }[] {
  const spread = (object as { [SPREAD]?: Code })[SPREAD];
  return [...(spread ? [{ value: spread }] : []), ...Object.keys(object).map((key) => ({ key, value: object[key]! }))];
}

function printObject(object: { readonly [key: string]: JsValue }, at: Place): string {
  if (membersOf(object).length === 0) return '{}';
  if (!forcesBreak(object)) {
    const flat = flatOf(object);
    if (at.column + flat.length + at.rest <= PRINT_WIDTH) return flat;
  }
  return expandedObject(object, at.indent);
}

function expandedObject(object: { readonly [key: string]: JsValue }, indent: number): string {
  const members = membersOf(object).map(({ key, value }) => `${key === undefined ? `${' '.repeat(indent + 2)}...${(value as Code).text}` : printProperty(key, value, indent + 2)},\n`);
  return `{\n${members.join('')}${' '.repeat(indent)}}`;
}

function printArray(array: readonly JsValue[], at: Place): string {
  if (array.length === 0) return '[]';
  if (!mustExpand(array)) {
    const flat = flatOf(array);
    if (at.column + flat.length + at.rest <= PRINT_WIDTH) return flat;
  }
  return expandedArray(array, at.indent);
}

function expandedArray(array: readonly JsValue[], indent: number): string {
  const inner = indent + 2;
  const margin = ' '.repeat(inner);
  if (isConcise(array)) return `[\n${margin}${fill(array.map((item) => `${scalar(item as number)},`), inner)}\n${' '.repeat(indent)}]`;
  const items = array.map((item) => `${margin}${printJs(item, { indent: inner, column: inner, rest: 1 })},\n`);
  return `[\n${items.join('')}${' '.repeat(indent)}]`;
}

/** An array of numbers only: prettier fills its lines rather than giving each number one. */
function isConcise(array: readonly JsValue[]): boolean {
  return array.length > 0 && array.every((item) => typeof item === 'number');
}

/** An array prettier expands whatever its width: it holds an expanded object, or several collections of several items. */
function mustExpand(array: readonly JsValue[]): boolean {
  return array.some(forcesBreak) || severalCollections(array);
}

function severalCollections(array: readonly JsValue[]): boolean {
  const sizeOf = (item: JsValue) => (Array.isArray(item) ? item.length : isObject(item) ? membersOf(item).length : 0);
  const kindOf = (item: JsValue) => (Array.isArray(item) ? 'array' : isObject(item) ? 'object' : 'other');
  return array.length > 1 && array.every((item) => sizeOf(item) > 1 && kindOf(item) === kindOf(array[0]!));
}

/** Whether the printed value breaks whatever its width: it is, or holds, an array that must expand. */
function forcesBreak(value: JsValue): boolean {
  if (isObject(value)) return Object.values(value).some(forcesBreak);
  if (Array.isArray(value)) return mustExpand(value);
  if (value instanceof Call) return value.args.some(forcesBreak);
  return false;
}

/** A value on one line (it holds nothing that forces a break). */
function flatOf(value: JsValue): string {
  if (Array.isArray(value)) return `[${value.map(flatOf).join(', ')}]`;
  if (isObject(value)) {
    const members = membersOf(value);
    return members.length === 0 ? '{}' : `{ ${members.map(({ key, value }) => (key === undefined ? `...${(value as Code).text}` : `${propertyKey(key)}: ${flatOf(value)}`)).join(', ')} }`;
  }
  if (value instanceof Call) return `${value.callee.text}(${value.args.map(flatOf).join(', ')})`;
  return scalar(value as Scalar);
}

function printCall(call: Call, at: Place): string {
  const { callee, args } = call;
  const open = `${callee.text}(`;
  if (args.length === 0) return `${open})`;
  const head = args.slice(0, -1);
  const last = args[args.length - 1]!;
  const headBreaks = head.some(forcesBreak);
  if (!headBreaks && huggable(args)) {
    const leading = `${open}${head.map((arg) => `${flatOf(arg)}, `).join('')}`;
    if (!forcesBreak(last)) {
      const flat = `${leading}${flatOf(last)})`;
      if (at.column + flat.length + at.rest <= PRINT_WIDTH) return flat;
    }
    // Hugged: the last argument expanded from the line of the call, if that line fits up to its bracket.
    if (at.column + leading.length + 1 <= PRINT_WIDTH) {
      const expanded = isObject(last) ? expandedObject(last, at.indent) : expandedArray(last as readonly JsValue[], at.indent);
      return `${leading}${expanded})`;
    }
  } else if (!headBreaks && !forcesBreak(last)) {
    const flat = `${open}${args.map(flatOf).join(', ')})`;
    if (at.column + flat.length + at.rest <= PRINT_WIDTH) return flat;
  }
  const inner = at.indent + 2;
  const lines = args.map((arg) => `${' '.repeat(inner)}${printJs(arg, { indent: inner, column: inner, rest: 1 })},\n`);
  return `${open}\n${lines.join('')}${' '.repeat(at.indent)})`;
}

/** Prettier hugs a last argument that is a non-empty object or array, unless the one before it is of its kind, or it is an array of numbers after others. */
function huggable(args: readonly JsValue[]): boolean {
  const last = args[args.length - 1]!;
  const before = args.length > 1 ? args[args.length - 2]! : undefined;
  const kindOf = (value: JsValue | undefined) => (value === undefined ? 'none' : Array.isArray(value) ? 'array' : isObject(value) ? 'object' : 'other');
  if (kindOf(last) === 'object') return membersOf(last as { readonly [key: string]: JsValue }).length > 0 && kindOf(before) !== 'object';
  if (kindOf(last) === 'array') return (last as readonly JsValue[]).length > 0 && kindOf(before) !== 'array' && !(args.length > 1 && isConcise(last as readonly JsValue[]));
  return false;
}

function firstLineLength(text: string): number {
  const newline = text.indexOf('\n');
  return newline === -1 ? text.length : newline;
}

/** A value as code prettier parses, on one line: prettier lays it out. */
export function plain(value: JsValue): string {
  if (value instanceof SelfPrinting) return value.plain();
  if (value instanceof Code) return value.text;
  if (value instanceof Call) return `${value.callee.text}(${value.args.map(plain).join(', ')})`;
  if (Array.isArray(value)) return `[${value.map(plain).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const spread = (value as { [SPREAD]?: Code })[SPREAD];
    const entries = [
      ...(spread ? [`...${spread.text}`] : []),
      ...Object.entries(value).map(([key, item]) => `${key === '__proto__' ? "['__proto__']" : JSON.stringify(key)}: ${plain(item)}`),
    ];
    return `{ ${entries.join(', ')} }`;
  }
  return typeof value === 'number' && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
}
