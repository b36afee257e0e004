/**
 * `export type Name = Type;` in prettier's form, for the aliases of
 * src/generated/resources/: a type that is a reference (with type
 * arguments or not) followed by indexed accesses, such as
 * `NonNullable<operations['getBook']['parameters']['query']>['id']`.
 *
 * Prettier's layout of them: one line if it fits; else, where the type has
 * arguments that can break (not one plain name) and the line fits up to its
 * `<`, the arguments one a line; else the type on the next line. Anything
 * else (unions, object types, nested arguments) throws OutOfForm.
 */
import { SelfPrinting, type Place } from './js-print.js';
import { narrow, outOfForm, PRINT_WIDTH, quoted } from './prettier-form.js';

const NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
const INDEX = String.raw`\[(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\d+|number)\]`;
/** A name and indexed accesses: `operations['getBook']['responses'][200]`. */
const ACCESS = new RegExp(`^[A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*)*(?:${INDEX})*$`);
/** A reference with type arguments that hold no `<` or `>`, then indexed accesses. */
const GENERIC = new RegExp(`^([A-Za-z_$][\\w$]*)<([^<>\\n]*)>((?:${INDEX})*)$`);

export class TypeAlias extends SelfPrinting {
  /** The type, its string literals in prettier's quotes. */
  readonly type: string;

  constructor(
    readonly name: string,
    type: string,
  ) {
    super();
    this.type = type.replace(/"((?:[^"\\\n]|\\.)*)"/g, (_literal, content: string) => quoted(content));
  }

  plain(): string {
    return `export type ${this.name} = ${this.type};`;
  }

  print(at: Place): string {
    if (at.column !== 0) return outOfForm('a type alias not at the start of a line');
    if (!NAME.test(this.name)) return outOfForm('a type alias with parameters or a name beyond ASCII');
    narrow(this.type);
    const head = `export type ${this.name} = `;
    const line = `${head}${this.type};`;
    if (line.length <= PRINT_WIDTH) return line;
    const generic = GENERIC.exec(this.type);
    if (generic) {
      const [, reference, list, indices] = generic;
      const args = list!.split(', ');
      if (!args.every((arg) => ACCESS.test(arg))) return outOfForm('type arguments this printer does not lay out');
      // One plain name as the only argument is hugged: `Foo<Bar>` never breaks.
      const hugged = args.length === 1 && NAME.test(args[0]!);
      if (!hugged && head.length + reference!.length + 1 <= PRINT_WIDTH) {
        return `${head}${reference}<\n${args.map((arg) => `  ${arg}`).join(',\n')}\n>${indices};`;
      }
      // On the next line, it must fit there: its arguments would break again.
      if (!hugged && 2 + this.type.length + 1 > PRINT_WIDTH) return outOfForm('type arguments that break below the name');
    } else if (!ACCESS.test(this.type)) {
      return outOfForm('a type this printer does not lay out');
    }
    return `${head.trimEnd()}\n  ${this.type};`;
  }
}
