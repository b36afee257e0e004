/**
 * The part of prettier's document printer the type printer needs: text,
 * groups, indentation, lines and what prints only where a group breaks. A
 * group prints on one line when it fits, with what follows it up to the
 * next place that may break; else its own lines break and its groups decide
 * again, one by one (prettier's printDocToString and fits).
 */
import { PRINT_WIDTH } from './prettier-form.js';

export type Doc =
  | string
  | readonly Doc[]
  | { kind: 'group'; contents: Doc }
  | { kind: 'indent'; contents: Doc }
  | { kind: 'line'; soft: boolean }
  | { kind: 'ifBreak'; broken: Doc; flat: Doc };

export const group = (contents: Doc): Doc => ({ kind: 'group', contents });
export const indent = (contents: Doc): Doc => ({ kind: 'indent', contents });
/** A space on one line, else a new line. */
export const line: Doc = { kind: 'line', soft: false };
/** Nothing on one line, else a new line. */
export const softline: Doc = { kind: 'line', soft: true };
export const ifBreak = (broken: Doc, flat: Doc = ''): Doc => ({ kind: 'ifBreak', broken, flat });
export const join = (separator: Doc, docs: readonly Doc[]): Doc => docs.flatMap((doc, index) => (index === 0 ? [doc] : [separator, doc]));

type Mode = 'flat' | 'break';
interface Command {
  indent: number;
  mode: Mode;
  doc: Doc;
}

/** `doc` printed from `column`, its lines indented from `indent`. */
export function printDoc(doc: Doc, at: { indent: number; column: number }): string {
  const commands: Command[] = [{ indent: at.indent, mode: 'break', doc }];
  let out = '';
  let column = at.column;
  while (commands.length > 0) {
    const { indent, mode, doc } = commands.pop()!;
    if (typeof doc === 'string') {
      out += doc;
      column += doc.length;
    } else if (Array.isArray(doc)) {
      for (let index = doc.length - 1; index >= 0; index--) commands.push({ indent, mode, doc: doc[index]! });
    } else {
      const node = doc as Exclude<Doc, string | readonly Doc[]>;
      if (node.kind === 'indent') commands.push({ indent: indent + 2, mode, doc: node.contents });
      else if (node.kind === 'ifBreak') commands.push({ indent, mode, doc: mode === 'break' ? node.broken : node.flat });
      else if (node.kind === 'group') {
        const flat: Command = { indent, mode: 'flat', doc: node.contents };
        commands.push(mode === 'flat' || fits(flat, commands, PRINT_WIDTH - column) ? flat : { indent, mode: 'break', doc: node.contents });
      } else if (mode === 'flat') {
        if (!node.soft) (out += ' '), column++;
      } else {
        out = `${out.replace(/ +$/, '')}\n${' '.repeat(indent)}`;
        column = indent;
      }
    }
  }
  return out;
}

/** Whether `next` fits in `width` on one line, with the commands after it up to their first line that breaks. */
function fits(next: Command, rest: readonly Command[], width: number): boolean {
  const commands: { mode: Mode; doc: Doc }[] = [next];
  let restIndex = rest.length;
  while (width >= 0) {
    if (commands.length === 0) {
      if (restIndex === 0) return true;
      commands.push(rest[--restIndex]!);
      continue;
    }
    const { mode, doc } = commands.pop()!;
    if (typeof doc === 'string') width -= doc.length;
    else if (Array.isArray(doc)) for (let index = doc.length - 1; index >= 0; index--) commands.push({ mode, doc: doc[index]! });
    else {
      const node = doc as Exclude<Doc, string | readonly Doc[]>;
      if (node.kind === 'indent' || node.kind === 'group') commands.push({ mode, doc: node.contents });
      else if (node.kind === 'ifBreak') commands.push({ mode, doc: mode === 'break' ? node.broken : node.flat });
      else if (mode === 'break') return true;
      else if (!node.soft) width--;
    }
  }
  return false;
}
