/**
 * `import { a, b } from 'module';` (and `import type`, `export type`) in
 * prettier's form: on one line when it fits, else a name a line; a single
 * name never breaks.
 */
import { SelfPrinting, type Place } from './js-print.js';
import { narrow, outOfForm, PRINT_WIDTH, quoted } from './prettier-form.js';

export class NamedImports extends SelfPrinting {
  constructor(
    /** `import`, `import type`, `export type`… */
    readonly keyword: string,
    readonly names: readonly string[],
    readonly from: string,
  ) {
    super();
  }

  plain(): string {
    return `${this.keyword} { ${this.names.join(', ')} } from ${JSON.stringify(this.from)};`;
  }

  print(at: Place): string {
    if (at.column !== 0 || at.rest !== 0) return outOfForm('an import not on a line of its own');
    if (!this.names.every((name) => /^(type )?[A-Za-z_$][\w$]*$/.test(name))) return outOfForm('a name this printer does not print');
    const from = quoted(narrow(JSON.stringify(this.from).slice(1, -1)));
    const line = `${this.keyword} { ${this.names.join(', ')} } from ${from};`;
    if (line.length <= PRINT_WIDTH || this.names.length === 1) return line;
    return `${this.keyword} {\n${this.names.map((name) => `  ${name},\n`).join('')}} from ${from};`;
  }
}
