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
