/**
 * Parameter styles (OpenAPI 3.x, "Style Values"): the client writes a value
 * (runtime/client/styles.ts) as the service reads it back
 * (runtime/server/generated/conventions/styles.ts), before validation.
 */
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { queryPairs } from '../../../src/runtime/client/styles.js';
import {
  deserializeHeaders,
  deserializeQuery,
  queryOf,
  type StyledParameter,
} from '../../../src/runtime/server/generated/conventions/styles.js';

/** Koa's own reading of a query string (`ctx.query`), which queryOf stands in for. */
const koaQuery = (createRequire(import.meta.url)('koa/lib/search-params.js') as { parse(search: string): object }).parse;

const rgb = { R: 100, G: 200, B: 150 };

describe('queryPairs: the client writes each style as the specification table does', () => {
  test.each([
    { style: 'form', explode: true, value: [3, 4, 5], want: ['color=3', 'color=4', 'color=5'] },
    { style: 'form', explode: false, value: [3, 4, 5], want: ['color=3,4,5'] },
    { style: 'spaceDelimited', explode: false, value: [3, 4, 5], want: ['color=3%204%205'] },
    { style: 'pipeDelimited', explode: false, value: [3, 4, 5], want: ['color=3|4|5'] },
    { style: 'form', explode: true, value: rgb, want: ['R=100', 'G=200', 'B=150'] },
    { style: 'form', explode: false, value: rgb, want: ['color=R,100,G,200,B,150'] },
    { style: 'deepObject', explode: true, value: rgb, want: ['color[R]=100', 'color[G]=200', 'color[B]=150'] },
    { style: 'form', explode: true, value: 'blue', want: ['color=blue'] },
    { style: 'form', explode: false, value: undefined, want: [] },
  ])('$style, explode $explode: $value', ({ style, explode, value, want }) => {
    expect(queryPairs('color', value, { style, explode })).toEqual(want);
  });

  test('names and items are percent-encoded, the delimiters are not', () => {
    expect(queryPairs('q', ['a,b', 'c&d'], { style: 'form', explode: false })).toEqual(['q=a%2Cb,c%26d']);
    expect(queryPairs('f', { 'a b': 'x=y' }, { style: 'deepObject', explode: true })).toEqual(['f[a%20b]=x%3Dy']);
  });
});

/** The query as Koa hands it over (`ctx.query`: decoded, a repeated name as an array), and as it was sent (`ctx.querystring`). */
function query(parameters: StyledParameter[], search: string) {
  const params = new URLSearchParams(search);
  const values = Object.fromEntries([...new Set(params.keys())].map((key) => [key, params.getAll(key).length > 1 ? params.getAll(key) : params.get(key)!]));
  return deserializeQuery(values, parameters, search);
}

describe('deserializeQuery: what the service reads back', () => {
  const ids: StyledParameter = { name: 'ids', style: 'form', explode: false, type: 'array' };
  const color: StyledParameter = { name: 'color', style: 'form', explode: false, type: 'object' };

  test.each([
    { parameter: ids, given: 'ids=1,2,3', want: { ids: ['1', '2', '3'] } },
    { parameter: ids, given: 'ids=1,2&ids=3', want: { ids: ['1', '2', '3'] } },
    { parameter: ids, given: 'ids=', want: { ids: [] } },
    { parameter: ids, given: 'i%64s=a%2Cb,c&x=%2C', want: { ids: ['a,b', 'c'], x: ',' } },
    { parameter: { ...ids, style: 'spaceDelimited' as const }, given: 'ids=1%202+3', want: { ids: ['1', '2', '3'] } },
    { parameter: { ...ids, style: 'pipeDelimited' as const }, given: 'ids=1|2', want: { ids: ['1', '2'] } },
    // The spec's own example encodes the pipe: both forms delimit.
    { parameter: { ...ids, style: 'pipeDelimited' as const }, given: 'ids=blue%7Cblack|c%2C+d', want: { ids: ['blue', 'black', 'c, d'] } },
    { parameter: { ...ids, explode: true }, given: 'ids=1&ids=2', want: { ids: ['1', '2'] } },
    { parameter: color, given: 'color=R,100,G,200', want: { color: { R: '100', G: '200' } } },
    { parameter: color, given: 'color=R%2CG,1%2C2', want: { color: { 'R,G': '1,2' } } },
    {
      parameter: { ...color, explode: true, properties: ['R', 'G', 'B'] },
      given: 'R=100&G=200&limit=5',
      want: { color: { R: '100', G: '200' }, limit: '5' },
    },
    {
      parameter: { name: 'filter', style: 'deepObject' as const, explode: true, type: 'object' as const },
      given: 'filter[status]=open&filter[owner]=me&limit=5',
      want: { filter: { status: 'open', owner: 'me' }, limit: '5' },
    },
    { parameter: ids, given: 'other=x', want: { other: 'x' } },
  ])('$parameter.style (explode $parameter.explode) $given', ({ parameter, given, want }) => {
    expect(query([parameter], given)).toEqual({ values: want, problems: [] });
  });

  test.each([
    { parameter: color, given: 'color=R,100,G', message: /3 items/ },
    {
      parameter: { name: 'filter', style: 'deepObject' as const, explode: true, type: 'object' as const },
      given: 'filter[a][b]=1&filter[c]=2',
      message: /filter\[a\]\[b\]/,
    },
    {
      parameter: { name: 'filter', style: 'deepObject' as const, explode: true, type: 'object' as const },
      given: 'filter=open',
      message: /filter\[property\]=value/,
    },
  ])('cannot be read: one INVALID_FORMAT detail for the parameter, its keys taken out ($given)', ({ parameter, given, message }) => {
    const { values, problems } = query([parameter], given);
    expect(values).toEqual({});
    expect(problems).toEqual([{ field: `query.${parameter.name}`, message: expect.stringMatching(message), code: 'INVALID_FORMAT' }]);
  });
});

describe('deserializeHeaders: simple, items separated by commas', () => {
  test.each([
    { parameter: { type: 'array' as const, explode: false }, given: '1, 2,3', want: ['1', '2', '3'] },
    { parameter: { type: 'object' as const, explode: false }, given: 'R,100,G,200', want: { R: '100', G: '200' } },
    { parameter: { type: 'object' as const, explode: true }, given: 'R=100, G=200', want: { R: '100', G: '200' } },
  ])('$parameter: $given', ({ parameter, given, want }) => {
    const styled: StyledParameter = { name: 'x-color', style: 'simple', ...parameter };
    expect(deserializeHeaders({ 'x-color': given, accept: '*/*' }, [styled])).toEqual({
      values: { 'x-color': want, accept: '*/*' },
      problems: [],
    });
  });

  test('an exploded object item without `=` is a detail for the header', () => {
    const styled: StyledParameter = { name: 'x-color', style: 'simple', explode: true, type: 'object' };
    expect(deserializeHeaders({ 'x-color': 'R=100,G' }, [styled]).problems).toEqual([
      { field: 'header.x-color', message: 'cannot read G: expected property=value', code: 'INVALID_FORMAT' },
    ]);
  });
});

describe('a round trip: what the client writes, the service reads', () => {
  test.each([
    { style: 'form', explode: false, type: 'array' as const, value: ['a', 'b'] },
    { style: 'form', explode: false, type: 'array' as const, value: ['a,b', 'c', 'd|e f+g%h'] },
    { style: 'pipeDelimited', explode: false, type: 'array' as const, value: ['a', 'b'] },
    { style: 'pipeDelimited', explode: false, type: 'array' as const, value: ['a/b', 'c,d', 'e f'] },
    { style: 'spaceDelimited', explode: false, type: 'array' as const, value: ['a,b', 'c|d', 'e+f'] },
    { style: 'form', explode: false, type: 'object' as const, value: { R: '1', G: '2' } },
    { style: 'form', explode: false, type: 'object' as const, value: { 'R,G': '1,2', B: '&=' } },
    { style: 'form', explode: true, type: 'array' as const, value: ['a,b', 'c'] },
    { style: 'deepObject', explode: true, type: 'object' as const, value: { status: 'open' } },
  ])('$style, explode $explode, $type: $value', ({ style, explode, type, value }) => {
    const parameter = { name: 'p', style, explode, type } as StyledParameter;
    expect(query([parameter], queryPairs('p', value, { style, explode }).join('&')).values).toEqual({ p: value });
  });
});

describe('queryOf reads a query string as Koa does', () => {
  test.each(['', 'a=1', 'a=1&a=2&a=3', 'a&b=&=c&&d==e', '__proto__=x&__proto__=y', 'toString=1&constructor=2', 'q=a+b%20c%2B&q=%zz&%C3%A9=%E9', 'é=ü&ü', '?limit=5', '??a=1', 'a=?&?b', 'a=\uD800&\uDC00=b'])('%j', (search) => {
    expect(queryOf(search)).toStrictEqual(koaQuery(search));
    expect(Object.getPrototypeOf(queryOf(search))).toBe(Object.prototype);
  });

  test('any string of the characters that matter', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '=', '&', '%', '2', 'B', '+', 'é', '_', 'p', 'r', 'o', 't', '__proto__', '?', '\uD800', '\uDC00') });
    fc.assert(fc.property(text, (search) => expect(queryOf(search)).toStrictEqual(koaQuery(search))), { numRuns: 2000 });
  });
});
