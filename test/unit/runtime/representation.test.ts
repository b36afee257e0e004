/** How a resource is shown: flat or typed, sparse fieldsets (`id` and required fields always kept), embedded relations. */
import { ApiError } from '../../../src/runtime/server/generated/conventions/errors.js';
import {
  declaredOnly,
  embed,
  fieldOf,
  namesIn,
  sparse,
  typed,
} from '../../../src/runtime/server/generated/conventions/representation.js';

const flatBook = { id: 7, title: 'Dune', pages: 412, genre: 'sf' };
const typedBook = { id: '7', type: 'book', attributes: { title: 'Dune', pages: 412, genre: 'sf' } };

describe('typed', () => {
  test('moves everything but the id under attributes, with the id as a string', () => {
    expect(typed('book', flatBook)).toEqual(typedBook);
  });
});

describe('namesIn: the names a `fields` or `include` parameter lists', () => {
  const known = ['title', 'pages', 'genre'];

  test.each([
    { given: 'title,pages', want: ['title', 'pages'] },
    { given: 'pages,pages,title', want: ['pages', 'title'] },
    { given: '', want: [] },
    { given: undefined, want: [] },
    // Declared an array (`style: form, explode: false`, as Directus does): read into items.
    { given: ['title', 'pages'], want: ['title', 'pages'] },
    { given: ['title,pages', 'title'], want: ['title', 'pages'] },
  ])('$given', ({ given, want }) => {
    expect(namesIn(given, known, 'fields')).toEqual(want);
  });

  /** The error `namesIn` throws, as status and details. */
  const refusal = (...args: Parameters<typeof namesIn>) => {
    try {
      namesIn(...args);
    } catch (error) {
      if (error instanceof ApiError) return { status: error.status, details: error.details };
      throw error;
    }
    return 'accepted';
  };

  test('an unknown name is a 422 on the parameter, naming the unknown and the known ones', () => {
    expect(refusal('title,isbn,author', known, 'fields')).toEqual({
      status: 422,
      details: [{ field: 'query.fields', message: 'names unknown isbn, author; known: title, pages, genre', code: 'INVALID_VALUE' }],
    });
  });

  test('with nothing known, any name is refused as not supported; the status may be another', () => {
    expect(refusal('author', [], 'include', 400)).toEqual({
      status: 400,
      details: [{ field: 'query.include', message: 'is not supported here', code: 'INVALID_VALUE' }],
    });
  });
});

// Before: GitHub's create of a variable answers `{}` (closed); the store's item was sent whole.
describe('declaredOnly', () => {
  it('sends only what a closed answer declares, an empty object for none', () => {
    expect(declaredOnly(flatBook, ['title'], 'flat')).toEqual({ title: 'Dune' });
    expect(declaredOnly(flatBook, [], 'flat')).toEqual({});
  });
  it('leaves an open answer (no list) and the typed shape as they are', () => {
    expect(declaredOnly(flatBook, undefined, 'flat')).toBe(flatBook);
    expect(declaredOnly(typedBook, ['title'], 'typed')).toBe(typedBook);
  });
});

describe('sparse', () => {
  test.each([
    { shape: 'flat' as const, given: flatBook, named: ['title'], required: [], want: { id: 7, title: 'Dune' } },
    { shape: 'flat' as const, given: flatBook, named: ['id'], required: [], want: { id: 7 } },
    { shape: 'flat' as const, given: flatBook, named: ['pages'], required: ['title'], want: { id: 7, title: 'Dune', pages: 412 } },
    { shape: 'typed' as const, given: typedBook, named: ['pages', 'genre'], required: [], want: { id: '7', type: 'book', attributes: { pages: 412, genre: 'sf' } } },
    { shape: 'typed' as const, given: typedBook, named: ['genre'], required: ['title'], want: { id: '7', type: 'book', attributes: { title: 'Dune', genre: 'sf' } } },
    { shape: 'typed' as const, given: { ...typedBook, relationships: { author: { id: '1' } } }, named: ['title'], required: [], want: { id: '7', type: 'book', attributes: { title: 'Dune' }, relationships: { author: { id: '1' } } } },
  ])('$shape, fields=$named, required $required', ({ shape, given, named, required, want }) => {
    expect(sparse(given, { named, required }, shape)).toEqual(want);
  });

  test('no fields, or no resource, leaves it as it is (required fields and all)', () => {
    expect(sparse(flatBook, { named: [], required: ['title'] }, 'flat')).toBe(flatBook);
    expect(sparse(null, { named: ['title'], required: [] }, 'typed')).toBeNull();
  });
});

describe('embed', () => {
  const author = { id: 1, name: 'Frank Herbert' };

  test('puts related resources under their names in a flat resource', () => {
    expect(embed(flatBook, { author }, 'flat')).toEqual({ ...flatBook, author });
  });

  test('and under `relationships` in a typed one, its attributes untouched', () => {
    expect(embed(typedBook, { author }, 'typed')).toEqual({ ...typedBook, relationships: { author } });
  });

  test('nothing to embed leaves the resource as it is', () => {
    expect(embed(flatBook, {}, 'flat')).toBe(flatBook);
  });
});

describe('fieldOf', () => {
  test.each([
    { shape: 'flat' as const, given: flatBook, field: 'pages', want: 412 },
    { shape: 'typed' as const, given: typedBook, field: 'pages', want: 412 },
    { shape: 'typed' as const, given: typedBook, field: 'type', want: undefined }, // a typed resource's fields are its attributes
    { shape: 'typed' as const, given: null, field: 'pages', want: undefined },
  ])('$shape $field', ({ shape, given, field, want }) => {
    expect(fieldOf(given, field, shape)).toBe(want);
  });
});
