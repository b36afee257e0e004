/**
 * Types in prettier's form where an interface declares them: a handler's
 * method (`name(request: T): R;`, handlers.ts) and a client operation's
 * property (`name: T;`, the client's index.ts).
 *
 * The types are the views' text, read by a small parser: names with
 * indexed accesses, references with type arguments, object types, unions
 * and intersections of them, string literals. Each is laid out as
 * prettier's printers build its document (./doc.ts prints it): a
 * reference's arguments one a line (a lone plain name or object type
 * hugged), an object type a member a line, a union `| ` a line (below an
 * annotation's key), an intersection as prettier joins objects to their
 * neighbours. Anything else (parentheses, functions, a line that stays past
 * the margin, text beyond ASCII) throws OutOfForm: the file goes to prettier.
 * test/unit/type-print checks it against prettier.
 */
import { group, ifBreak, indent, join, line, printDoc, softline, type Doc } from './doc.js';
import { SelfPrinting, type Place } from './js-print.js';
import { narrow, outOfForm, quoted } from './prettier-form.js';

type TypeNode =
  | { kind: 'atom'; text: string; plainName: boolean }
  | { kind: 'reference'; name: string; args: TypeNode[]; suffix: string }
  | { kind: 'object'; members: { key: string; type: TypeNode }[] }
  | { kind: 'union' | 'intersection'; types: TypeNode[] };

/** `name(parameter: Type): Returned;` in an interface, on a line of its own. */
export class MethodSignature extends SelfPrinting {
  constructor(
    readonly name: string,
    readonly parameter: { name: string; type: string },
    readonly returned: string,
  ) {
    super();
  }

  plain(): string {
    return `${this.name}(${this.parameter.name}: ${this.parameter.type}): ${this.returned};`;
  }

  print(at: Place): string {
    narrow(this.name + this.parameter.name);
    const type = parseType(this.parameter.type);
    const returned = parseType(this.returned);
    // A lone parameter of an object type is hugged (`name(request: {`); a union right after `:` is laid out otherwise.
    if (type.kind === 'object') return outOfForm('a parameter prettier hugs');
    if (type.kind === 'union' || returned.kind === 'union') return outOfForm('a union annotation of a method');
    const parameter = [`${this.parameter.name}: `, typeDoc(type)];
    return printed(group([this.name, '(', indent([softline, parameter]), ifBreak(','), softline, ')', group([': ', typeDoc(returned)]), ';']), at);
  }
}

/** `name: Type;` in an interface, on a line of its own. */
export class PropertySignature extends SelfPrinting {
  constructor(
    readonly name: string,
    readonly type: string,
  ) {
    super();
  }

  plain(): string {
    return `${this.name}: ${this.type};`;
  }

  print(at: Place): string {
    narrow(this.name);
    return printed([`${this.name}: `, memberTypeDoc(parseType(this.type)), ';'], at);
  }
}

/** The doc printed where it stands (a name longer than a line stays long, as prettier keeps it). */
function printed(doc: Doc, at: Place): string {
  if (at.column !== at.indent || at.rest !== 0) return outOfForm('a signature not on a line of its own');
  return printDoc(doc, at);
}

/** The type as prettier's printer builds its doc (printTypeParameters, union, intersection and object type printers). */
function typeDoc(node: TypeNode): Doc {
  switch (node.kind) {
    case 'atom':
      return node.text;
    case 'reference':
      if (node.suffix !== '') return outOfForm('indexed access of a reference with arguments');
      return [node.name, typeArgumentsDoc(node.args)];
    case 'object':
      if (node.members.length === 0) return '{}';
      return group(['{', indent([line, join([';', line], node.members.map(({ key, type }) => [`${key}: `, memberTypeDoc(type)]))]), ifBreak(';'), line, '}']);
    case 'union': {
      // An object prettier may hug; an intersection it puts in parentheses.
      if (node.types.some((type) => type.kind === 'object' || type.kind === 'intersection')) return outOfForm('a union prettier lays out otherwise');
      // Each alternative is aligned past its `| ` (prettier's align(2), the same as an indent here).
      return group([ifBreak('| '), join([line, '| '], node.types.map((type) => indent(typeDoc(type))))]);
    }
    case 'intersection':
      return intersectionDoc(node.types);
  }
}

/**
 * A member's type. A union that does not fit after its key moves to the next line, and breaks there `| ` a line
 * if it does not fit there either (prettier's layout after an operator).
 */
function memberTypeDoc(type: TypeNode): Doc {
  const doc = typeDoc(type);
  return type.kind === 'union' ? group(indent([softline, doc])) : doc;
}

/** `<A, B>`: a lone plain name or object type is hugged; others break one a line, with no trailing comma. */
function typeArgumentsDoc(args: TypeNode[]): Doc {
  const [only] = args;
  const docs = args.map((arg) => typeDoc(arg));
  if (args.length === 1 && only!.kind === 'atom' && /^['"\d]/.test(only!.text)) return outOfForm('a lone literal type argument');
  if (args.length === 1 && ((only!.kind === 'atom' && only!.plainName) || only!.kind === 'object')) return ['<', docs[0]!, '>'];
  return group(['<', indent([softline, join([',', line], docs)]), softline, '>']);
}

/** prettier's intersection: `&` and a line between two types that are not objects; an object joins its neighbours on their line. */
function intersectionDoc(types: TypeNode[]): Doc {
  let indented = false;
  return group(
    types.map((type, index) => {
      const doc = typeDoc(type);
      if (index === 0) return doc;
      const object = type.kind === 'object';
      const previousObject = types[index - 1]!.kind === 'object';
      if (object && previousObject) return [' & ', indented ? indent(doc) : doc];
      if (!object && !previousObject) return indent([' &', line, doc]);
      if (index > 1) indented = true;
      return [' & ', index > 1 ? indent(doc) : doc];
    }),
  );
}

// Strings as the views write them, double-quoted (JSON.stringify): their content is what `quoted` takes.
const TOKEN = /\s*(?:([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)|("(?:[^"\\\n]|\\.)*")|(\d+)|([<>,|&{};:?[\]]))/y;

/** The type's text read as the nodes above; anything else (parentheses, functions, text beyond ASCII) is out of form. */
export function parseType(text: string): TypeNode {
  narrow(text);
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length && !/^\s*$/.test(text.slice(TOKEN.lastIndex))) {
    const match = TOKEN.exec(text);
    if (!match) return outOfForm('a type this printer does not read');
    const [, name, string, number, punctuation] = match;
    tokens.push(string !== undefined ? quoted(string.slice(1, -1)) : (name ?? number ?? punctuation)!);
  }
  let at = 0;
  const peek = () => tokens[at];
  const take = (expected?: string) => {
    const token = tokens[at++];
    if (token === undefined || (expected !== undefined && token !== expected)) return outOfForm('a type this printer does not read');
    return token;
  };
  const isName = (token: string | undefined) => token !== undefined && /^[A-Za-z_$]/.test(token);
  const isLiteral = (token: string | undefined) => token !== undefined && /^['"\d]/.test(token);
  const list = (kind: 'union' | 'intersection', separator: string, item: () => TypeNode): TypeNode => {
    const types = [item()];
    while (peek() === separator) take(), types.push(item());
    return types.length === 1 ? types[0]! : { kind, types };
  };
  const union = (): TypeNode => list('union', '|', () => list('intersection', '&', primary));
  const suffix = () => {
    let text = '';
    while (peek() === '[') {
      take();
      const index = take();
      if (!isName(index) && !isLiteral(index)) return outOfForm('an index this printer does not read');
      text += `[${index}]`;
      take(']');
    }
    return text;
  };
  function primary(): TypeNode {
    const token = take();
    if (token === '{') return objectType();
    if (isLiteral(token)) return { kind: 'atom', text: token + suffix(), plainName: false };
    if (!isName(token)) return outOfForm('a type this printer does not read');
    const args: TypeNode[] = [];
    if (peek() === '<') {
      take();
      do args.push(union());
      while (peek() === ',' && take());
      take('>');
    }
    const after = suffix();
    if (args.length > 0) return { kind: 'reference', name: token, args, suffix: after };
    return { kind: 'atom', text: token + after, plainName: after === '' };
  }
  function objectType(): TypeNode {
    const members: { key: string; type: TypeNode }[] = [];
    while (peek() !== '}') {
      const key = take();
      // A quoted key prettier may unquote: left to it.
      if (!/^[A-Za-z_$][\w$]*$/.test(key)) return outOfForm('a member key this printer does not print');
      const optional = peek() === '?' ? take() : '';
      take(':');
      members.push({ key: key + optional, type: union() });
      if (peek() === ';') take();
    }
    take('}');
    return { kind: 'object', members };
  }
  const type = union();
  if (at !== tokens.length) return outOfForm('a type this printer does not read');
  return type;
}
