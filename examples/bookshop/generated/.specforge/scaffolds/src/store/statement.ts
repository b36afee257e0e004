/**
 * The store's statements: SQL text and its parameters, composed by
 * concatenation and run as Kysely `CompiledQuery`s. Kysely's own `sql` tag
 * builds a frozen query tree and compiles it again for every request; on a
 * read by id that was a tenth of the service's time. Written like that tag:
 * an interpolated fragment is inlined, any other value becomes a parameter.
 * Kysely stays the typed builder for queries of your own (`database()`).
 * specforge created this file once; it is yours.
 */
import { CompiledQuery, type QueryResult } from 'kysely';
import { executeCompiled, type Database } from './database.js';

/** Where a parameter goes in a fragment's text, numbered `$n` when the statement runs. */
const PARAMETER = '\u0000';

/** A piece of a statement: text, with a PARAMETER mark for each of its values, in order. */
export class Fragment {
  constructor(
    readonly text: string,
    readonly values: readonly unknown[],
  ) {}
}

/** A fragment from a template: fragments inline, other values become parameters (never text). */
export function sql(strings: TemplateStringsArray, ...parts: unknown[]): Fragment {
  let text = strings[0]!;
  const values: unknown[] = [];
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index];
    if (part instanceof Fragment) {
      text += part.text;
      for (const value of part.values) values.push(value);
    } else {
      text += PARAMETER;
      values.push(part);
    }
    text += strings[index + 1]!;
  }
  return new Fragment(text, values);
}

/** A quoted identifier (a table's or a column's name). */
export function identifier(name: string): Fragment {
  // PostgreSQL's identifiers hold no NUL; refusing it also keeps PARAMETER unambiguous.
  if (name.includes(PARAMETER)) throw new Error(`${JSON.stringify(name)} is not an SQL name.`);
  return new Fragment(`"${name.replaceAll('"', '""')}"`, []);
}

/** The fragments one after another, the separator's text between them (a comma by default). */
export function join(fragments: readonly Fragment[], separator = ', '): Fragment {
  const values: unknown[] = [];
  for (const fragment of fragments) for (const value of fragment.values) values.push(value);
  return new Fragment(fragments.map((fragment) => fragment.text).join(separator), values);
}

/** The values as parameters, comma-separated (an insert's `values (…)`). */
export function parameters(values: readonly unknown[]): Fragment {
  return new Fragment(values.map(() => PARAMETER).join(', '), values);
}

/** The statement as the driver takes it: `$1`, `$2`… in place of the marks. */
export function compiled(statement: Fragment): CompiledQuery {
  let number = 0;
  const text = statement.text.replace(/\u0000/g, () => `$${++number}`);
  return CompiledQuery.raw(text, [...statement.values]);
}

/** Runs the statement on the database (or a transaction of it). */
export function run<Row>(
  database: Pick<Database, 'executeQuery'>,
  statement: Fragment,
): Promise<QueryResult<Row>> {
  return executeCompiled<Row>(database, compiled(statement));
}
