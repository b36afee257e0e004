/** The store's statements: fragments inline, values become numbered parameters, names are quoted. */
import { compiled, identifier, join, parameters, sql } from '../../../src/runtime/server/store/statement.js';

test('values become $n parameters in order, across nested fragments; fragments inline', () => {
  const conditions = [sql`${identifier('author_id')} = ${'a-1'}`, sql`${identifier('pages')} > ${100}`];
  const statement = sql`select * from ${identifier('books')} where ${join(conditions, ' and ')} limit ${21}`;
  const query = compiled(statement);
  expect(query.sql).toBe('select * from "books" where "author_id" = $1 and "pages" > $2 limit $3');
  expect(query.parameters).toEqual(['a-1', 100, 21]);
});

test('a value is never text: quotes, a fragment-looking string and NUL stay parameters', () => {
  const hostile = ["x'; drop table books; --", '$1', 'a\u0000b'];
  const query = compiled(sql`insert into t (a, b, c) values (${parameters(hostile)}) returning ${join([identifier('a'), identifier('b')])}`);
  expect(query.sql).toBe('insert into t (a, b, c) values ($1, $2, $3) returning "a", "b"');
  expect(query.parameters).toEqual(hostile);
});

test('an identifier doubles its quotes; one with NUL is refused', () => {
  expect(compiled(sql`select ${identifier('say "hi"')}`).sql).toBe('select "say ""hi"""');
  expect(() => identifier('a\u0000b')).toThrow('is not an SQL name');
});
