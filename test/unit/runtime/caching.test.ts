/** The service's conditional reads: the ETag and how `If-None-Match` compares (RFC 9110 §13.1.2). */
import {
  entityTag,
  latest,
  matchesIfNoneMatch,
} from '../../../src/runtime/server/generated/conventions/caching.js';

describe('entityTag', () => {
  test('is a strong, quoted tag that depends only on the representation', () => {
    const tag = entityTag('{"data":{"id":1}}');
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(entityTag('{"data":{"id":1}}')).toBe(tag);
    expect(entityTag('{"data":{"id":2}}')).not.toBe(tag);
  });
});

describe('matchesIfNoneMatch', () => {
  const tag = entityTag('x');

  test.each([
    ['the same tag', tag, true],
    ['its weak form (If-None-Match compares weakly)', `W/${tag}`, true],
    ['one of a list', `"other", ${tag}`, true],
    ['any current representation', ' * ', true],
    ['another tag', '"other"', false],
    ['the tag unquoted', tag.slice(1, -1), false],
  ])('%s', (_case, header, matches) => {
    expect(matchesIfNoneMatch(header, tag)).toBe(matches);
  });
});

describe('latest', () => {
  test('is the latest date among strings and dates, skipping what is not a date', () => {
    expect(latest(['2024-01-01T00:00:00Z', new Date('2025-06-01T00:00:00Z'), 'soon', 42, null])).toEqual(
      new Date('2025-06-01T00:00:00Z'),
    );
  });

  test('is undefined when nothing is a date', () => {
    expect(latest(['never', undefined])).toBeUndefined();
  });
});
