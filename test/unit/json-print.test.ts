import fc from 'fast-check';
import * as prettier from 'prettier';
import { PRETTIER_OPTIONS } from '../../src/format/index.js';
import { printJson } from '../../src/render/json-print.js';

/** What the format stage would make of the same data. */
const byPrettier = (value: unknown) => prettier.format(`${JSON.stringify(value, null, 2)}\n`, { ...PRETTIER_OPTIONS, parser: 'json' });

const numbers = (count: number, step: number) => Array.from({ length: count }, (_, index) => index * step);

describe('printJson: prettier’s JSON without prettier', () => {
  test.each([
    { name: 'an empty object', value: {} },
    { name: 'scalars and empty collections', value: { a: 1, b: 'x', c: null, d: true, e: [], f: {} } },
    { name: 'a short array on one line', value: { files: ['dist', 'src'], n: [1, 2, 3] } },
    { name: 'an array of one object, expanded', value: { d: [{ x: 1 }] } },
    { name: 'arrays of several arrays of several, expanded', value: { e: [[1, 2], [3, 4]], f: [[1], [2]], g: [[1, 2], [3]] } },
    { name: 'a nested expanded array expands its parents', value: { n: [[[1, 2], [3, 4]]] } },
    { name: 'numbers in prettier’s notation', value: { n: [1e21, 1e-7, 0.5, -0, -3] } },
    { name: 'a long number array fills its lines', value: { big: numbers(60, 1000), exact: numbers(21, 10000) } },
    { name: 'a long string array, one item a line', value: { s: Array.from({ length: 12 }, (_, index) => `string${index}`) } },
    { name: 'the trailing comma counts toward the width', value: { a: ['x'.repeat(86)], b: ['x'.repeat(86)] } },
    { name: 'empty objects stay inline in arrays', value: { o: [{}, {}, [{}]] } },
  ])('$name', async ({ value }) => {
    expect(printJson(value)).toBe(await byPrettier(value));
  });

  test('leaves text beyond ASCII to prettier (its widths follow Unicode rules)', () => {
    expect(printJson({ title: 'книги' })).toBeUndefined();
    expect(printJson({ ['書']: 1 })).toBeUndefined();
  });

  test('matches prettier on arbitrary data', async () => {
    const scalar = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.string({ maxLength: 30 }));
    const { json } = fc.letrec((tie) => ({
      json: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
      array: fc.oneof(fc.array(tie('json'), { maxLength: 6 }), fc.array(fc.integer({ min: -1e6, max: 1e9 }), { maxLength: 40 }), fc.array(fc.string({ maxLength: 20 }), { maxLength: 12 })),
      object: fc.dictionary(fc.string({ maxLength: 12 }), tie('json'), { maxKeys: 5 }),
    }));
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string({ maxLength: 12 }), json, { maxKeys: 6 }), async (value) => {
        const printed = printJson(value);
        if (printed !== undefined) expect(printed).toBe(await byPrettier(value));
      }),
      { numRuns: 400 },
    );
  });
});
