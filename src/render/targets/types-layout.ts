/**
 * openapi-typescript's declarations printed directly in prettier's form
 * (print width 100, single quotes, babel-ts), so GitHub's 7.5 MB of types
 * need no prettier pass: prettier spent 11 s of a 30 s run on them.
 *
 * It covers the syntax openapi-typescript emits and prettier's layout of it:
 * interfaces and type literals always expanded (the printed text breaks
 * after `{`), unions on one line, on the next, or one member a line with
 * `|` (a lone object with `null` hugged), intersections as prettier joins
 * them, JSDoc comments re-indented. Anything else — a kind of node, a
 * character beyond printable ASCII, a layout it does not model — throws
 * OutOfForm, and the caller hands that declaration to prettier.
 * test/unit/types-layout checks it against prettier on every example and
 * public spec.
 */
import { createRequire } from 'node:module';
import type TS from 'typescript';
import { ASCII_IDENTIFIER, narrow, outOfForm, OutOfForm, PRINT_WIDTH, printNumber, quoted } from '../prettier-form.js';

// Required, not imported: an ES import of TypeScript's 9 MB CommonJS file spends a quarter of a second scanning it for exports.
const ts = createRequire(import.meta.url)('typescript') as typeof TS;

export { OutOfForm };

/** A top-level declaration (an interface, a type alias) and its line end. */
export function layoutStatement(node: TS.Node): string {
  if (syntheticComments(node).length > 0) outOfForm('a comment on a declaration');
  const prefix = exportPrefix(node);
  if (ts.isInterfaceDeclaration(node)) {
    if (node.typeParameters || node.heritageClauses) outOfForm('a generic or extending interface');
    return `${prefix}interface ${identifier(node.name)} ${body(node.members, 0)}\n`;
  }
  if (ts.isTypeAliasDeclaration(node)) {
    if (node.typeParameters) outOfForm('a generic type alias');
    const head = `${prefix}type ${identifier(node.name)} = `;
    const type = unwrap(node.type);
    if (ts.isTypeLiteralNode(type)) return `${head}${body(type.members, 0)};\n`;
    const flat = flatOf(type);
    if (flat === undefined || head.length + flat.length + 1 > PRINT_WIDTH) outOfForm('a type alias that breaks');
    return `${head}${flat};\n`;
  }
  return outOfForm(ts.SyntaxKind[node.kind]);
}

/** A member of an interface or type literal at `indent` columns, with its comments and `;`. */
export function layoutMember(member: TS.TypeElement, indent: number): string {
  const comments = syntheticComments(member).map((comment) => commentLines(comment, indent));
  return [...comments, memberLine(member, indent)].join('\n');
}

function memberLine(member: TS.TypeElement, indent: number): string {
  const readonly = modifiersOf(member, [ts.SyntaxKind.ReadonlyKeyword]).length > 0 ? 'readonly ' : '';
  let head: string;
  let type: TS.TypeNode | undefined;
  if (ts.isPropertySignature(member)) {
    head = `${readonly}${propertyName(member.name)}${member.questionToken ? '?' : ''}: `;
    type = member.type;
  } else if (ts.isIndexSignatureDeclaration(member)) {
    const [parameter, ...others] = member.parameters;
    if (!parameter || others.length > 0 || !ts.isIdentifier(parameter.name) || !parameter.type || parameter.questionToken || parameter.dotDotDotToken) {
      outOfForm('an unusual index signature');
    }
    const keyType = flatOf(unwrap(parameter!.type!)) ?? outOfForm('an index signature key that breaks');
    head = `${readonly}[${identifier(parameter!.name as TS.Identifier)}: ${keyType}]: `;
    type = member.type;
  } else {
    return outOfForm(ts.SyntaxKind[member.kind]);
  }
  if (!type) return outOfForm('a member without a type');
  const start = indent + head.length;
  const printed = layout(unwrap(type), { indent, column: start, rest: 1 }, 'annotation');
  // prettier breaks an index signature's key (`[\n  key: string\n]`) before a line that does not fit.
  if (ts.isIndexSignatureDeclaration(member) && start + firstLineLength(`${printed};`) > PRINT_WIDTH) outOfForm('an index signature that breaks');
  // A type that starts on the next line leaves no space after the colon.
  return `${' '.repeat(indent)}${printed.startsWith('\n') ? head.trimEnd() : head}${printed};`;
}

/** `{ … }` of an interface or type literal whose `}` stands at `indent`: expanded, one member a line. */
function body(members: TS.NodeArray<TS.TypeElement>, indent: number): string {
  if (members.length === 0) return '{}';
  return `{\n${members.map((member) => layoutMember(member, indent + 2)).join('\n')}\n${' '.repeat(indent)}}`;
}

/** Where a type starts: the indentation of its lines, its first column, and how many characters follow it on its last line. */
interface Place {
  indent: number;
  column: number;
  rest: number;
}

/** What holds a type, as far as its layout depends on it. */
type Holder = 'annotation' | 'union' | 'intersection' | 'array';

function layout(type: TS.TypeNode, at: Place, holder: Holder): string {
  if (syntheticComments(type).length > 0) outOfForm('a comment on a type');
  if (ts.isTypeLiteralNode(type)) return body(type.members, at.indent);
  if (ts.isUnionTypeNode(type)) return unionLayout(type, at, holder);
  if (ts.isIntersectionTypeNode(type)) return intersectionLayout(type, at, holder);
  if (ts.isArrayTypeNode(type)) {
    const element = arrayElement(type);
    return arrayOf(layout(element, { ...at, rest: at.rest + 2 }, 'array'));
  }
  if (ts.isTypeReferenceNode(type) && type.typeArguments) return referenceLayout(type, at);
  return flatOf(type) ?? outOfForm(ts.SyntaxKind[type.kind]);
}

function unionLayout(union: TS.UnionTypeNode, at: Place, holder: Holder): string {
  const members = unionMembers(union);
  if (members.length === 1) return layout(members[0]!, at, holder);
  const flat = flatOf(union);
  const parenthesized = needsParentheses(holder);
  if (hugs(members)) {
    if (!parenthesized) return huggedLayout(members, at);
    return `(${huggedLayout(members, { ...at, column: at.column + 1, rest: at.rest + 1 })})`;
  }
  if (parenthesized) return parenthesizedUnionLayout(members, flat, at);
  if (holder !== 'annotation') {
    if (flat === undefined || at.column + flat.length + at.rest > PRINT_WIDTH) outOfForm('a union that breaks here');
    return flat!;
  }
  if (flat !== undefined && at.column + flat.length + at.rest <= PRINT_WIDTH) return flat;
  // Indented on the next line: whole, if it fits there, else one member a line.
  const indent = at.indent + 2;
  const margin = ' '.repeat(indent);
  if (flat !== undefined && indent + flat.length + at.rest <= PRINT_WIDTH) return `\n${margin}${flat}`;
  return members
    .map((member, index) => {
      const place = { indent: indent + 2, column: indent + 2, rest: index === members.length - 1 ? at.rest : 0 };
      return `\n${margin}| ${layout(member, place, 'union')}`;
    })
    .join('');
}

/**
 * `(A | B)` inside an array, union or intersection: on one line when it fits,
 * else the parentheses open a block holding the union whole or one member a line.
 */
function parenthesizedUnionLayout(members: TS.TypeNode[], flat: string | undefined, at: Place): string {
  if (flat !== undefined && at.column + flat.length + 2 + at.rest <= PRINT_WIDTH) return `(${flat})`;
  const indent = at.indent + 2;
  const margin = ' '.repeat(indent);
  const inside =
    flat !== undefined && indent + flat.length <= PRINT_WIDTH
      ? flat
      : members.map((member) => `| ${layout(member, { indent: indent + 2, column: indent + 2, rest: 0 }, 'union')}`).join(`\n${margin}`);
  return `(\n${margin}${inside}\n${' '.repeat(at.indent)})`;
}

/** `{ … } | null`: one object (or named type) with only `null`s and `void`s stays on the object's lines. */
function hugs(members: TS.TypeNode[]): boolean {
  const objects = members.filter((member) => ts.isTypeLiteralNode(member) || ts.isTypeReferenceNode(member));
  return objects.length === 1 && members.every((member) => member === objects[0] || isVoid(member));
}

function huggedLayout(members: TS.TypeNode[], at: Place): string {
  const flats = members.map((member) => flatOf(member));
  let text = '';
  let column = at.column;
  members.forEach((member, index) => {
    // What follows this member on its line: the void types after it, flat.
    const rest = flats.slice(index + 1).reduce((sum, flat) => sum + 3 + (flat ?? outOfForm('a hugged union')).length, at.rest);
    const printed = `${index > 0 ? ' | ' : ''}${layout(member, { indent: at.indent, column: column + (index > 0 ? 3 : 0), rest }, 'union')}`;
    text += printed;
    column = columnAfter(printed, column);
  });
  return text;
}

/** prettier's intersection: `A & {` inline with objects, `A &` + a new line between two non-objects when it breaks. */
function intersectionLayout(intersection: TS.IntersectionTypeNode, at: Place, holder: Holder): string {
  const members = intersectionMembers(intersection);
  if (members.length === 1) return layout(members[0]!, at, holder);
  const parenthesized = needsParentheses(holder);
  const open = parenthesized ? '(' : '';
  const close = parenthesized ? ')' : '';
  const flat = flatOf(intersection);
  if (flat !== undefined && at.column + open.length + flat.length + close.length + at.rest <= PRINT_WIDTH) return `${open}${flat}${close}`;
  let text = open;
  let column = at.column + open.length;
  let wasIndented = false;
  members.forEach((member, index) => {
    const last = index === members.length - 1;
    // What follows the last member on its line is known; before that, only members whose layout ignores it are modelled.
    const rest = last ? at.rest + close.length : 0;
    const fixed = ts.isTypeLiteralNode(member) || isObjectsIntersection(member) || fixedOf(member) !== undefined;
    if (!fixed && !last) outOfForm('an intersection member that breaks');
    const isObject = ts.isTypeLiteralNode(member);
    const previousIsObject = index > 0 && ts.isTypeLiteralNode(members[index - 1]!);
    const laidOut = (place: Place) => {
      const printed = layout(member, place, 'intersection');
      // The last member, a union or intersection, is modelled on one line: `} & (A | B);`.
      if (!fixed && printed.includes('\n')) outOfForm('an intersection member that breaks');
      return printed;
    };
    let piece: string;
    if (index === 0) {
      piece = laidOut({ indent: at.indent, column, rest });
    } else if (isObject && previousIsObject) {
      piece = ` & ${laidOut({ indent: at.indent + (wasIndented ? 2 : 0), column: column + 3, rest })}`;
    } else if (!isObject && !previousIsObject) {
      const indent = at.indent + 2;
      piece = ` &\n${' '.repeat(indent)}${laidOut({ indent, column: indent, rest })}`;
    } else {
      if (index > 1) wasIndented = true;
      piece = ` & ${laidOut({ indent: at.indent + (index > 1 ? 2 : 0), column: column + 3, rest })}`;
    }
    text += piece;
    column = columnAfter(piece, column);
  });
  return text + close;
}

/**
 * `({ … } & { … })` inside an intersection (an object with properties and
 * additionalProperties, in an allOf): its objects are expanded whatever
 * follows them, so its layout does not depend on the rest of the line.
 */
function isObjectsIntersection(type: TS.TypeNode): boolean {
  return ts.isIntersectionTypeNode(type) && intersectionMembers(type).every((member) => ts.isTypeLiteralNode(member));
}

/** `Name<A, B>`: on one line when it fits; a lone object argument hugged. */
function referenceLayout(reference: TS.TypeReferenceNode, at: Place): string {
  const name = identifier(reference.typeName);
  const [only, ...others] = (reference.typeArguments ?? []).map(unwrap);
  if (only && others.length === 0 && ts.isTypeLiteralNode(only)) return `${name}<${body(only.members, at.indent)}>`;
  const flat = flatOf(reference);
  if (flat === undefined || at.column + flat.length + at.rest > PRINT_WIDTH) outOfForm('type arguments that break');
  return flat!;
}

/**
 * A type on one line, or undefined where prettier must break it (an
 * expanded type literal inside). Parentheses are prettier's: around a union
 * or intersection inside another, an array or an operator.
 */
function flatOf(type: TS.TypeNode): string | undefined {
  if (syntheticComments(type).length > 0) return outOfForm('a comment on a type');
  if (ts.isTypeLiteralNode(type)) return type.members.length === 0 ? '{}' : undefined;
  if (ts.isUnionTypeNode(type) || ts.isIntersectionTypeNode(type)) {
    const isUnion = ts.isUnionTypeNode(type);
    const members = isUnion ? unionMembers(type) : intersectionMembers(type);
    if (members.length === 1) return flatOf(members[0]!);
    const flats = members.map((member) => nestedFlat(member));
    return flats.includes(undefined) ? undefined : flats.join(isUnion ? ' | ' : ' & ');
  }
  if (ts.isArrayTypeNode(type)) {
    const element = nestedFlat(arrayElement(type));
    return element === undefined ? undefined : arrayOf(element);
  }
  if (ts.isTypeReferenceNode(type) && type.typeArguments) {
    const flats = type.typeArguments.map((argument) => flatOf(unwrap(argument)));
    return flats.includes(undefined) ? undefined : `${identifier(type.typeName)}<${flats.join(', ')}>`;
  }
  if (ts.isParenthesizedTypeNode(type)) return flatOf(unwrap(type));
  return fixedOf(type) ?? outOfForm(ts.SyntaxKind[type.kind]);
}

/** A member of a union, intersection or array, in parentheses where it is itself a union or intersection. */
function nestedFlat(type: TS.TypeNode): string | undefined {
  const flat = flatOf(type);
  if (flat === undefined) return undefined;
  const compound = (ts.isUnionTypeNode(type) && unionMembers(type).length > 1) || (ts.isIntersectionTypeNode(type) && intersectionMembers(type).length > 1);
  return compound ? `(${flat})` : flat;
}

/** A type whose text never depends on the width (no group prettier could break), or undefined. */
function fixedOf(type: TS.TypeNode): string | undefined {
  if (syntheticComments(type).length > 0) return undefined;
  const keyword = KEYWORDS.get(type.kind);
  if (keyword !== undefined) return keyword;
  if (ts.isLiteralTypeNode(type)) return literal(type.literal);
  if (ts.isIdentifier(type as TS.Node)) return literalIdentifier((type as TS.Node as TS.Identifier).text);
  if (ts.isTypeReferenceNode(type)) return type.typeArguments ? undefined : identifier(type.typeName);
  if (ts.isIndexedAccessTypeNode(type)) {
    const object = fixedOf(unwrap(type.objectType));
    const index = fixedOf(unwrap(type.indexType));
    return object === undefined || index === undefined ? undefined : `${object}[${index}]`;
  }
  if (ts.isArrayTypeNode(type)) {
    const element = arrayElement(type);
    if (ts.isUnionTypeNode(element) || ts.isIntersectionTypeNode(element)) return undefined;
    const text = fixedOf(element);
    return text === undefined ? undefined : arrayOf(text);
  }
  if (ts.isTypeOperatorNode(type) && type.operator !== ts.SyntaxKind.UniqueKeyword) {
    const operand = fixedOf(unwrap(type.type));
    return operand === undefined ? undefined : `${ts.tokenToString(type.operator)} ${operand}`;
  }
  return undefined;
}

const KEYWORDS = new Map<TS.SyntaxKind, string>(
  [
    ts.SyntaxKind.AnyKeyword,
    ts.SyntaxKind.UnknownKeyword,
    ts.SyntaxKind.NeverKeyword,
    ts.SyntaxKind.StringKeyword,
    ts.SyntaxKind.NumberKeyword,
    ts.SyntaxKind.BooleanKeyword,
    ts.SyntaxKind.BigIntKeyword,
    ts.SyntaxKind.ObjectKeyword,
    ts.SyntaxKind.UndefinedKeyword,
    ts.SyntaxKind.VoidKeyword,
    ts.SyntaxKind.SymbolKeyword,
  ].map((kind) => [kind, ts.tokenToString(kind)!]),
);

function literal(node: TS.LiteralTypeNode['literal']): string {
  switch (node.kind) {
    case ts.SyntaxKind.NullKeyword:
      return 'null';
    case ts.SyntaxKind.TrueKeyword:
      return 'true';
    case ts.SyntaxKind.FalseKeyword:
      return 'false';
    case ts.SyntaxKind.StringLiteral:
      return quoted(typescriptEscaped((node as TS.StringLiteral).text));
    case ts.SyntaxKind.NumericLiteral:
      return printNumber((node as TS.NumericLiteral).text);
  }
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) {
    return `-${printNumber(node.operand.text)}`;
  }
  return outOfForm(ts.SyntaxKind[node.kind]);
}

/** openapi-typescript writes an enum's values as identifiers holding their JSON text (`"open"`, `42`, `true`). */
function literalIdentifier(text: string): string {
  if (text.startsWith('"')) return quoted(narrow(text.slice(1, -1)));
  if (/^-?\d/.test(text)) return text.startsWith('-') ? `-${printNumber(text.slice(1))}` : printNumber(text);
  if (ASCII_IDENTIFIER.test(text)) return text;
  return outOfForm('an identifier that is not a name or a literal');
}

/**
 * `T[]`. A negative number is parenthesized: openapi-typescript writes
 * `-1[]`, which does not parse (and prettier turns `(-1)[]` back into it),
 * so this is the one place the printed text is not prettier's.
 */
function arrayOf(element: string): string {
  return element.startsWith('-') ? `(${element})[]` : `${element}[]`;
}

/** An array's element type; `(readonly T[])[]` keeps parentheses this printer does not model. */
function arrayElement(array: TS.ArrayTypeNode): TS.TypeNode {
  const element = unwrap(array.elementType);
  return ts.isTypeOperatorNode(element) ? outOfForm('an operator in an array') : element;
}

function firstLineLength(text: string): number {
  const newline = text.indexOf('\n');
  return newline === -1 ? text.length : newline;
}

function isVoid(type: TS.TypeNode): boolean {
  return type.kind === ts.SyntaxKind.VoidKeyword || (ts.isLiteralTypeNode(type) && type.literal.kind === ts.SyntaxKind.NullKeyword);
}

function needsParentheses(holder: Holder): boolean {
  return holder === 'union' || holder === 'intersection' || holder === 'array';
}

/** Members as prettier parses the printed text: parentheses dropped, a bare union inside a union flattened. */
function unionMembers(union: TS.UnionTypeNode): TS.TypeNode[] {
  return union.types.flatMap((member) => (ts.isUnionTypeNode(member) ? unionMembers(member) : [unwrap(member)]));
}

function intersectionMembers(intersection: TS.IntersectionTypeNode): TS.TypeNode[] {
  return intersection.types.flatMap((member) => (ts.isIntersectionTypeNode(member) ? intersectionMembers(member) : [unwrap(member)]));
}

function unwrap(type: TS.TypeNode): TS.TypeNode {
  return ts.isParenthesizedTypeNode(type) ? unwrap(type.type) : type;
}

function columnAfter(printed: string, column: number): number {
  const newline = printed.lastIndexOf('\n');
  return newline === -1 ? column + printed.length : printed.length - newline - 1;
}

function identifier(name: TS.EntityName | TS.Identifier): string {
  if (!ts.isIdentifier(name) || !ASCII_IDENTIFIER.test(name.text)) return outOfForm('a qualified or non-ASCII name');
  return name.text;
}

function propertyName(name: TS.PropertyName): string {
  if (ts.isIdentifier(name)) return identifier(name);
  if (ts.isStringLiteral(name)) {
    // prettier's `quoteProps: as-needed` unquotes a name that is an identifier.
    return ASCII_IDENTIFIER.test(name.text) ? name.text : quoted(typescriptEscaped(name.text));
  }
  if (ts.isNumericLiteral(name)) return printNumber(name.text);
  return outOfForm(ts.SyntaxKind[name.kind]);
}

/** A string literal's text as TypeScript's printer escapes it: quotes, backslashes, control and non-ASCII characters. */
function typescriptEscaped(text: string): string {
  return text.replace(/[\\"\u0000-\u001f\u007f-\uffff]/g, (character, offset: number) => {
    const named = TYPESCRIPT_ESCAPES[character];
    if (named !== undefined) return named;
    if (character === '\0') return /[0-9]/.test(text.charAt(offset + 1)) ? '\\x00' : '\\0';
    // ASCII's DEL is written as it is; everything above it as a \u escape.
    if (character === '\u007f') return character;
    return `\\u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  });
}

const TYPESCRIPT_ESCAPES: Record<string, string> = { '\t': '\\t', '\v': '\\v', '\f': '\\f', '\b': '\\b', '\r': '\\r', '\n': '\\n', '\\': '\\\\', '"': '\\"' };

function exportPrefix(node: TS.Node): string {
  const modifiers = modifiersOf(node, [ts.SyntaxKind.ExportKeyword]);
  return modifiers.length > 0 ? 'export ' : '';
}

/** The node's modifiers, all of which must be among `allowed`. */
function modifiersOf(node: TS.Node, allowed: TS.SyntaxKind[]): TS.ModifierLike[] {
  const modifiers = ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : [];
  if (modifiers.some((modifier) => !allowed.includes(modifier.kind))) outOfForm('a modifier');
  return [...modifiers];
}

function syntheticComments(node: TS.Node): readonly TS.SynthesizedComment[] {
  if ((ts.getSyntheticTrailingComments(node) ?? []).length > 0) outOfForm('a trailing comment');
  return ts.getSyntheticLeadingComments(node) ?? [];
}

/**
 * A block comment as prettier prints it before a member: a JSDoc block's
 * lines re-indented (` * …`, trimmed), a one-line comment as written.
 */
function commentLines(comment: TS.SynthesizedComment, indent: number): string {
  if (comment.kind !== ts.SyntaxKind.MultiLineCommentTrivia || !comment.hasTrailingNewLine) outOfForm('a comment on the same line');
  // Line ends other than \n are line breaks to TypeScript and prettier alike, but split differently.
  if (/[\r\u2028\u2029]/.test(comment.text)) outOfForm('a comment with other line ends');
  const margin = ' '.repeat(indent);
  if (!comment.text.includes('\n')) return `${margin}/*${comment.text}*/`;
  const lines = `*${comment.text}*`.split('\n').map((line) => line.trimStart());
  if (!lines.every((line) => line.startsWith('*'))) outOfForm('a block comment that is not JSDoc-shaped');
  const last = lines.length - 1;
  return lines
    .map((line, index) => (index === 0 ? `${margin}/${line.trimEnd()}` : index === last ? `${margin} ${line}/` : `${margin} ${line.trimEnd()}`))
    .join('\n');
}
