import fc from 'fast-check';
import ts from 'typescript';
import { commentText, fileRegistry, fileStem, identifierName, identifierRegistry, isIdentifier, shellWord, stringLiteral } from '../../src/model/names.js';
import { camelCase, kebabCase, operationIdFor, pascalCase, singular, words } from '../../src/openapi/names.js';

describe('names', () => {
  test.each([
    ['list-books', ['list', 'books']],
    ['list_books', ['list', 'books']],
    ['listBooks', ['list', 'books']],
    ['HTTPServer', ['http', 'server']],
    ['get /authors/{author_id}', ['get', 'authors', 'author', 'id']],
  ])('words(%s)', (given, want) => {
    expect(words(given)).toEqual(want);
  });

  test('cases', () => {
    expect(camelCase('list-books')).toBe('listBooks');
    expect(pascalCase('book_reviews')).toBe('BookReviews');
    expect(kebabCase('BookReviews')).toBe('book-reviews');
    expect(camelCase('2fa-codes')).toBe('_2faCodes');
  });

  test.each([
    ['books', 'book'],
    ['categories', 'category'],
    ['boxes', 'box'],
    ['status', 'status'],
    ['data', 'data'],
  ])('singular(%s) = %s', (given, want) => {
    expect(singular(given)).toBe(want);
  });

  test('operationIdFor is unique among taken ids', () => {
    expect(operationIdFor('get', '/authors/{author_id}/books', new Set())).toBe('getAuthorsAuthorIdBooks');
    expect(operationIdFor('get', '/books', new Set(['getBooks']))).toBe('getBooks2');
  });
});

describe('names for code and disk (src/model/names.ts)', () => {
  // Arbitrary Unicode, with the characters that break code and paths made likely.
  const hostile = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: fc.constantFrom(...`'"\`\\/.{}$*\n\r\u2028\u0000 -_aZ9книги書cafe\u0301\u200d\u202e`.split('')), maxLength: 40 }),
    fc.constantFrom('delete', 'console', 'con', 'NUL', 'com1', '', '---', '123', 'a'.repeat(300), '__proto__', 'constructor'),
  );

  test('identifierName: always an identifier the scanner reads as one, never a reserved word or a global for a binding', () => {
    fc.assert(
      fc.property(hostile, fc.constantFrom('camel', 'pascal') as fc.Arbitrary<'camel' | 'pascal'>, fc.boolean(), (text, style, ascii) => {
        const name = identifierName(text, { case: style, fallback: 'resource', ascii });
        expect(scansAsOneIdentifier(name)).toBe(true);
        expect(isIdentifier(name)).toBe(true);
        expect(['console', 'process', 'require', 'undefined', 'delete']).not.toContain(name);
        if (ascii) expect(name).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
      }),
    );
  });

  test('identifierName: property names may be reserved words', () => {
    expect(identifierName('delete', { case: 'camel', fallback: 'operation', property: true })).toBe('delete');
    expect(identifierName('delete', { case: 'camel', fallback: 'operation' })).toBe('delete_');
    expect(identifierName('2fa codes', { case: 'camel', fallback: 'x' })).toBe('_2faCodes');
    expect(identifierName('книги', { case: 'pascal', fallback: 'x' })).toBe('Книги');
    expect(identifierName('---', { case: 'camel', fallback: 'resource' })).toMatch(/^resource[0-9A-Fa-f]{8}$/);
  });

  test('fileStem: always portable — lower-case ASCII, digits and dashes, bounded, no device name', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const stem = fileStem(text, 'resource');
        expect(stem).toMatch(/^[a-z0-9][a-z0-9-]*$/);
        expect(stem.length).toBeLessThanOrEqual(60);
        expect(stem).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)$/);
      }),
    );
  });

  test('fileStem: readable where it can be, a fallback with a hash where it cannot', () => {
    expect(fileStem('BookReviews', 'r')).toBe('book-reviews');
    expect(fileStem('Cafés', 'r')).toBe('cafes');
    expect(fileStem('con', 'r')).toBe('con-');
    expect(fileStem('книги', 'resource')).toMatch(/^resource-[0-9a-f]{8}$/);
    expect(fileStem('книги', 'resource')).not.toBe(fileStem('書籍', 'resource'));
    expect(fileStem('a'.repeat(300), 'r')).not.toBe(fileStem(`${'a'.repeat(299)}b`, 'r'));
  });

  test('registries: distinct names for distinct sources (case-insensitively for files), in claim order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(hostile, { maxLength: 20 }), (texts) => {
        const files = fileRegistry(['root']);
        const stems = texts.map((text) => files.claim(fileStem(text, 'resource')));
        expect(new Set(stems.map((stem) => stem.toLowerCase())).size).toBe(stems.length);
        expect(stems).not.toContain('root');
        const bindings = identifierRegistry(['store']);
        const names = texts.map((text) => bindings.claim(identifierName(text, { case: 'camel', fallback: 'resource' })));
        expect(new Set(names).size).toBe(names.length);
        expect(names).not.toContain('store');
      }),
    );
    const types = identifierRegistry();
    expect(types.claim('Book')).toBe('Book');
    expect(types.claim('List', (prefix) => [`${prefix}Data`])).toBe('List');
    expect(types.claim('ListData')).toBe('ListData2');
  });

  test('stringLiteral: scans as one string literal whose value is the text', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, stringLiteral(text));
        expect(scanner.scan()).toBe(ts.SyntaxKind.StringLiteral);
        expect(scanner.getTokenValue()).toBe(text);
        expect(scanner.scan()).toBe(ts.SyntaxKind.EndOfFileToken);
      }),
    );
  });

  test('commentText: stays inside a block comment and a line comment, with no bidi control', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const comment = commentText(text);
        for (const source of [`/** ${comment} */`, `// ${comment}`]) {
          const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, source);
          expect([ts.SyntaxKind.MultiLineCommentTrivia, ts.SyntaxKind.SingleLineCommentTrivia]).toContain(scanner.scan());
          expect(scanner.scan()).toBe(ts.SyntaxKind.EndOfFileToken);
        }
        expect(comment).not.toMatch(/[\u202a-\u202e\u2066-\u2069\n\r]/);
      }),
    );
  });

  test('shellWord: one word to a POSIX shell', () => {
    expect(shellWord('api.yaml')).toBe('api.yaml');
    expect(shellWord("my api's spec.yaml")).toBe(`'my api'\\''s spec.yaml'`);
    expect(shellWord('x;rm -rf ~')).toBe(`'x;rm -rf ~'`);
  });
});

/** Whether TypeScript parses the text as a binding name: `let <text>;` with no syntax error. */
function scansAsOneIdentifier(text: string): boolean {
  const source = ts.createSourceFile('name.ts', `let ${text};`, ts.ScriptTarget.Latest);
  const [statement] = source.statements;
  const diagnostics = (source as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics;
  return (
    diagnostics.length === 0 &&
    source.statements.length === 1 &&
    statement !== undefined &&
    ts.isVariableStatement(statement) &&
    statement.declarationList.declarations[0]?.name.getText(source) === text
  );
}
