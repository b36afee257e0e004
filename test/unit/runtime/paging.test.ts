/** The cursor codec: a cursor is the position, signed for one walk of one list by the service's secret. */
import { ApiError } from '../../../src/runtime/server/generated/conventions/errors.js';
import { decodeCursor, encodeCursor, listQueryOf, paginationOf, paginationText, type PagingRule } from '../../../src/runtime/server/generated/conventions/paging.js';

const SECRET = 'secret';
const WALK = 'books?sort=title';

test('a cursor decodes to the position it was issued for', () => {
  const position = ['Dune', 'a1b2', { published: 1965 }, null, true];
  expect(decodeCursor(encodeCursor(position, WALK, SECRET), WALK, SECRET)).toEqual(position);
});

test('a cursor is URL-safe as it is', () => {
  expect(encodeCursor('ünïcode/+=', WALK, SECRET)).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
});

describe('a next page’s cursor (paginationOf), signed once for the same page asked again', () => {
  const rule: PagingRule = { style: 'cursor', defaultLimit: 20, maxLimit: 100, filters: ['genre'] };
  const listed = (query: Record<string, unknown>, secret: string) => listQueryOf(rule, { query, sent: new Set(Object.keys(query)) }, secret);
  const cursorOf = (next: string, query: Record<string, unknown>, secret: string) => {
    const pagination = paginationOf(rule, listed(query, secret), { items: [], next }, secret) as { cursor: string };
    return pagination.cursor;
  };

  test('asked again, the same cursor; it continues that walk, under that secret only', () => {
    const first = cursorOf('b-7', { genre: 'poetry' }, SECRET);
    expect(cursorOf('b-7', { genre: 'poetry' }, SECRET)).toBe(first);
    expect(listed({ genre: 'poetry', cursor: first }, SECRET).after).toBe('b-7');
    expect(refused(first, WALK, 'other')).toBe(400);
  });

  test('another position, walk or secret: another cursor, each valid where it was made', () => {
    const first = cursorOf('b-7', { genre: 'poetry' }, SECRET);
    const otherPosition = cursorOf('b-8', { genre: 'poetry' }, SECRET);
    const otherWalk = cursorOf('b-7', { genre: 'fiction' }, SECRET);
    const otherSecret = cursorOf('b-7', { genre: 'poetry' }, 'other');
    expect(new Set([first, otherPosition, otherWalk, otherSecret]).size).toBe(4);
    expect(listed({ genre: 'fiction', cursor: otherWalk }, SECRET).after).toBe('b-7');
    expect(listed({ genre: 'poetry', cursor: otherSecret }, 'other').after).toBe('b-7');
    expect(() => listed({ genre: 'fiction', cursor: first }, SECRET)).toThrow(ApiError);
  });
});

const refused = (cursor: string, walk = WALK, secret = SECRET) => {
  try {
    decodeCursor(cursor, walk, secret);
  } catch (error) {
    return error instanceof ApiError ? error.status : error;
  }
  return 'accepted';
};

test('the pagination member’s text is its JSON, whatever the page', () => {
  const pages = [
    { cursor: null, has_more: false },
    { cursor: encodeCursor(['ünïcode/+=', 3, null], WALK, SECRET), has_more: true },
    { page: 2, limit: 20, total: 41, total_pages: 3 },
  ];
  for (const pagination of pages) expect(paginationText(pagination)).toBe(JSON.stringify(pagination));
});

describe('anything but a cursor this service signed for this walk is a 400', () => {
  const cursor = encodeCursor(7, WALK, SECRET);
  const [payload, signature] = cursor.split('.') as [string, string];

  test.each([
    ['another walk of the list', cursor, 'books?sort=-title', SECRET],
    ['another secret', cursor, WALK, 'other'],
    ['a changed position', `${Buffer.from(JSON.stringify({ p: 8, w: WALK })).toString('base64url')}.${signature}`, WALK, SECRET],
    ['a stray character in the signature', `${payload}.${signature}!`, WALK, SECRET],
    ['no signature', payload, WALK, SECRET],
    ['an extra part', `${cursor}.x`, WALK, SECRET],
    ['garbage', 'not a cursor', WALK, SECRET],
  ])('%s', (_case, given, walk, secret) => {
    expect(refused(given, walk, secret)).toBe(400);
  });
});

describe('equality filters', () => {
  const rule: PagingRule = { style: 'cursor', defaultLimit: 20, maxLimit: 100, filters: ['state', 'label'] };
  // As validation leaves the query: `state`'s declared default (open) filled in.
  const query = { limit: 20, state: 'open', label: 'bug' };

  test('a filter the caller sent applies', () => {
    expect(listQueryOf(rule, { query, sent: new Set(['state', 'label']) }, SECRET).filters).toEqual({ state: 'open', label: 'bug' });
  });

  test("a filter's default the caller did not send does not: it would hide every item that lacks the value", () => {
    expect(listQueryOf(rule, { query, sent: new Set(['label']) }, SECRET).filters).toEqual({ label: 'bug' });
  });
});
