/**
 * `{{js value}}` in a template: the helper leaves a mark in the rendered
 * text, and once the whole text exists each mark is replaced by its value
 * printed in prettier's form for the place it stands (its column, its
 * line's indentation, its key when it is a property's value, what follows
 * it on the line), which only the rendered text knows.
 */
import { randomUUID } from 'node:crypto';
import { Call, Code, jsValue, plain, printJs, propertyValue, type JsValue } from './js-print.js';

export { plain };
import { OutOfForm, PRINT_WIDTH } from './prettier-form.js';

/** A line the template wrote: names from a spec beyond ASCII (`'café'` as a key, which prettier writes bare) are left to prettier. */
const ASCII_LINE = /^[\x20-\x7e]*$/;

/** `export const name: Type =`, its value on the next line: prettier has nowhere to break it, and leaves it past the margin. */
const UNBREAKABLE_HEAD = /^(export )?const [A-Za-z_$][\w$]*: [A-Za-z_$][\w$]* =$/;

/** The values a render marked, under a mark no text from a spec can hold. */
export class JsMarks {
  readonly values: unknown[] = [];
  private readonly mark = `\u0000${randomUUID()}:`;

  /** What the helper writes in place of `value`. */
  add(value: unknown): string {
    this.values.push(jsValue(value));
    return `${this.mark}${this.values.length - 1}\u0000`;
  }

  /**
   * The text with every value printed. `inForm` says whether each was
   * printed where it stands; where one could not be (see js-print), every
   * value is written plainly, for prettier to lay out.
   */
  place(text: string): { text: string; inForm: boolean } {
    if (!this.templateLinesInForm(text)) return { text: this.replace(text, (value) => plain(value as JsValue)), inForm: false };
    if (this.values.length === 0) return { text, inForm: true };
    try {
      return { text: this.replace(text, (value, place) => place(value)), inForm: true };
    } catch (error) {
      if (!(error instanceof OutOfForm)) throw error;
      return { text: this.replace(text, (value) => plain(value as JsValue)), inForm: false };
    }
  }

  /**
   * Whether the lines the template wrote itself (those with no value) are as
   * prettier leaves them, as far as a line shows it: within the margin (or a
   * head prettier cannot break), in ASCII, no double-quoted string and no space at the end. A name
   * from a spec can make a template's line too long; prettier would break it.
   * Comments are prettier's to keep as they are. An empty block or list the
   * template opened and closed on two lines (a spec of no operations) prettier writes `{}`.
   */
  private templateLinesInForm(text: string): boolean {
    if (/[{[]\n *[}\]]/.test(text)) return false;
    for (const line of text.split('\n')) {
      if (line.includes(this.mark) || /^\s*(\/\/|\/\*|\*)/.test(line)) continue;
      if ((line.length > PRINT_WIDTH && !UNBREAKABLE_HEAD.test(line)) || /"|\s$/.test(line) || !ASCII_LINE.test(line)) return false;
    }
    return true;
  }

  private replace(text: string, print: (value: unknown, place: (value: unknown) => string) => string): string {
    const pattern = new RegExp(`${this.mark}(\\d+)\u0000`, 'g');
    // Pieces, joined once at the end, and the line being written: reading it back from one growing
    // string would copy the whole text at every value (GitHub's conformance files hold thousands).
    const pieces: string[] = [];
    let line = '';
    const write = (piece: string) => {
      pieces.push(piece);
      const newline = piece.lastIndexOf('\n');
      line = newline === -1 ? line + piece : piece.slice(newline + 1);
    };
    let from = 0;
    for (const match of text.matchAll(pattern)) {
      write(text.slice(from, match.index));
      from = match.index + match[0].length;
      const lineEnd = text.indexOf('\n', from);
      const rest = text.slice(from, lineEnd === -1 ? text.length : lineEnd);
      const value = this.values[Number(match[1])];
      const printed = print(value, (value) => {
        if (rest.includes(this.mark)) throw new OutOfForm('two values on a line');
        return placed(value as JsValue, line, rest);
      });
      // A property's value moved to the next line leaves no space after the colon.
      if (printed.startsWith('\n')) trimEnd(pieces);
      write(printed);
    }
    write(text.slice(from));
    return pieces.join('');
  }
}

/** The pieces without the spaces that end them. */
function trimEnd(pieces: string[]): void {
  while (pieces.length > 0) {
    const last = pieces.pop()!.replace(/ +$/, '');
    if (last !== '') return void pieces.push(last);
  }
}

/** A property's key as a template writes it, before the value: `  key: `. */
const PROPERTY = /^( *)([A-Za-z_$][\w$]*|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"): $/;

/**
 * The value printed for its place: the line before it (a property's key,
 * or any text), and what follows it on the line. Only places whose width
 * is certain: ASCII text around it, no comment after the value, and a key's value
 * followed by its `,` alone (a type member's `;` is laid out otherwise).
 */
function placed(value: JsValue, before: string, rest: string): string {
  if (!ASCII_LINE.test(before) || !ASCII_LINE.test(rest)) throw new OutOfForm('text beyond ASCII around a value');
  if (/\/[/*]/.test(rest)) throw new OutOfForm('a comment after a value');
  const property = PROPERTY.exec(before);
  if (property) {
    if (rest !== ',') throw new OutOfForm('a key whose value is not followed by its comma alone');
    return propertyValue(property[2]!, value, property[1]!.length, rest.length);
  }
  const printed = printJs(value, { indent: /^ */.exec(before)![0].length, column: before.length, rest: rest.length });
  // Code past the margin (a store call after `=>`): prettier would move it or break it. A string there it leaves as it is.
  const code = value instanceof Code || value instanceof Call;
  if (code && !printed.includes('\n') && before.length + printed.length + rest.length > PRINT_WIDTH) throw new OutOfForm('code past the margin');
  return printed;
}
