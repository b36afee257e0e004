/**
 * JavaScript values printed in prettier's form (src/render/js-print.ts):
 * for every value, in each place templates put one (a statement's call, a
 * property's value), the text must be what prettier makes of the same value
 * written plainly, and prettier must leave it as it is.
 */
import fc from 'fast-check';
import * as prettier from 'prettier';
import { PRETTIER_OPTIONS } from '../../src/format/index.js';
import { ArrowBody, AssignedCall, Call, Code, SPREAD, type JsValue } from '../../src/render/js-print.js';
import { JsMarks, plain as plainOf } from '../../src/render/js-place.js';

const format = (text: string) => prettier.format(text, { ...PRETTIER_OPTIONS, parser: 'babel-ts' });

/** A module holding `value` where templates put values: a call statement in a block, and a property of an expanded object. */
function moduleWith(value: JsValue, key: string, marks: JsMarks): string {
  const statement = value instanceof Call ? value : new Call(new Code('suite.check'), ['a name', new Code('checks.reads'), value]);
  return `describe('tests', () => {\n  ${marks.add(statement)};\n});\n\nexport const ROUTE = {\n  ${key}: ${marks.add(value)},\n  kind: 'read',\n};\n`;
}

/** The module as js-place prints it, and whether every value was in form. */
function placed(value: JsValue, key: string): { text: string; inForm: boolean } {
  const marks = new JsMarks();
  return marks.place(moduleWith(value, key, marks));
}

/** The same module with the values written plainly, on one line each, for prettier to lay out. */
function plain(value: JsValue, key: string): string {
  const marks = new JsMarks();
  const text = moduleWith(value, key, marks);
  return (marks as unknown as { replace: (text: string, print: (value: unknown) => string) => string }).replace(text, (value) => plainOf(value as JsValue));
}

async function expectPrettiersForm(value: JsValue, key = 'parameters'): Promise<void> {
  const { text, inForm } = placed(value, key);
  expect(inForm).toBe(true);
  expect(text).toBe(await format(plain(value, key)));
  expect(await format(text)).toBe(text);
}

const long = (stem: string, count: number) => Array.from({ length: count }, (_, index) => `${stem}-${index}`);

describe('js-print: values as prettier prints them', () => {
  test.each<[string, JsValue]>([
    ['a short array', ['a', 'b']],
    ['an array that breaks', long('a-rather-long-value', 8)],
    ['numbers that fill their lines', Array.from({ length: 40 }, (_, index) => index * 1234.5 - 7)],
    ['an object on its line', { field: 'title', values: ['a', 'b'] }],
    ['an object that breaks', { field: 'a-rather-long-field-name', values: long('a-rather-long-value', 3) }],
    ['an object holding an array that must expand', { pairs: [[1, 2], [3, 4]] }],
    ['an empty object and array', { none: {}, empty: [] }],
    ['arrays of arrays', [[1, 2], [3, 4]]],
    ['arrays of one-item arrays', [[1], [2]]],
    ['objects in an array', [{ a: 1 }, { b: 2 }]],
    ['objects of several keys in an array', [{ a: 1, b: 2 }, { a: 3, b: 4 }]],
    ['keys that need quotes', { 'with-dash': 1, '200': 'x', "it's": true, 'say "hi"': null, __proto__key: 1 }],
    ['a __proto__ key stays data', JSON.parse('{"__proto__": {"a": 1}}') as JsValue],
    ['quotes in strings', ["it's", 'say "hi"', `both ' and "`, 'back\\slash', 'tab\there', 'line\nbreak']],
    ['numbers as prettier writes them', [1e21, 1.5e-7, -0.5, 100, 0]],
    ['a long string after a long key', { a_long_key: 'x'.repeat(95), b: 'y'.repeat(98) }],
    ['scalars after a very long key', { ['k'.repeat(92)]: null, ['j'.repeat(92)]: -1, ['m'.repeat(92)]: true, ['n'.repeat(92)]: 12345, ['o'.repeat(92)]: new Code('checks.reads') }],
    ['a call whose last object is hugged', new Call(new Code('suite.check'), ['name', new Code('checks.sorts'), 'listBooks', { field: 'title' }])],
    ['a call too long to hug', new Call(new Code('suite.check'), ['n'.repeat(80), new Code('checks.sorts'), 'listBooks', { field: 'title' }])],
    ['a call whose last array is hugged', new Call(new Code('suite.check'), ['n'.repeat(40), new Code('checks.sorts'), 'listBooks', long('value', 6)])],
    ['a call with numbers last', new Call(new Code('suite.check'), ['n'.repeat(40), new Code('checks.sorts'), 'listBooks', Array.from({ length: 30 }, (_, index) => index)])],
    ['a call on one line', new Call(new Code('suite.check'), ['name', new Code('checks.reads'), 'getBook'])],
    ['a call that breaks', new Call(new Code('suite.check'), ['n'.repeat(70), new Code('checks.reads'), 'getBook'])],
    ['an object before an object', new Call(new Code('suite.check'), [{ a: 1 }, { b: 2 }])],
  ])('%s', async (_name, value) => {
    await expectPrettiersForm(value);
  });

  test('a short key keeps a long string on its line', async () => {
    await expectPrettiersForm('z'.repeat(99), 'path');
  });

  test('keys of every length up to the margin: in prettier’s form, or left to prettier', async () => {
    const values: JsValue[] = [[], {}, new Call(new Code('f'), []), new Call(new Code('handler'), ['x'.repeat(12)]), new Call(new Code('handler'), ['g', 'n']), 'x', ['aa', 'bb'], 12345, null];
    // A call of one object, which prettier hugs from the key's line (the client's bindings).
    values.push(new Call(new Code('transport.sparseList'), [{ method: 'GET', path: '/authors/{author_id}/books', paging: 'cursor' }]));
    let printed = 0;
    for (let length = 70; length <= 99; length++) {
      for (const value of values) {
        const key = 'k'.repeat(length);
        const { text, inForm } = placed(value, key);
        if (!inForm) continue;
        printed++;
        expect(text).toBe(await format(plain(value, key)));
        expect(await format(text)).toBe(text);
      }
    }
    expect(printed).toBeGreaterThan(200);
  });

  test('an empty block written on two lines, or a member chain past the margin, is left to prettier', () => {
    const empty = new JsMarks();
    expect(empty.place(`export interface Client {\n}\nexport const a = ${empty.add(1)};\n`).inForm).toBe(false);
    const chain = new JsMarks();
    expect(chain.place(`const a = {\n  table: ${chain.add({ k: new Code(`TABLES.${'v'.repeat(90)}.name`) })},\n};\n`).inForm).toBe(false);
  });

  test('a comment after a value, or a key followed by more than its comma, is left to prettier', () => {
    const marks = new JsMarks();
    expect(marks.place(`const a = {\n  fields: ${marks.add(['x'])}, // the fields\n};\n`).inForm).toBe(false);
    const members = new JsMarks();
    expect(members.place(`type T = {\n  cacheControl: ${members.add('x')};\n};\n`).inForm).toBe(false);
  });

  test('a double-quoted key is a key: its long value moves below it as prettier moves it', async () => {
    const marks = new JsMarks();
    const { text, inForm } = marks.place(`const a = {\n  "it's a key": ${marks.add('v'.repeat(90))},\n};\n`);
    expect(inForm).toBe(true);
    expect(await format(text)).toBe(text);
  });

  test('a value that is not JSON is the view’s mistake, said as such', () => {
    expect(() => new JsMarks().add({ a: undefined })).toThrow('{{js}} prints JSON values, not undefined');
    expect(() => new JsMarks().add([new Date(0)])).toThrow('not [object Date]');
  });

  test('text of uncertain width is left to prettier', () => {
    expect(placed(['書名'], 'parameters').inForm).toBe(false);
    expect(placed({ a: '🙂' }, 'parameters').inForm).toBe(false);
  });

  test('a key that may be a name beyond ASCII (prettier writes `café` bare) is left to prettier; one that cannot be is quoted', async () => {
    expect(placed({ café: 1 }, 'parameters').inForm).toBe(false);
    expect(placed({ ｃａｆé: 1 }, 'parameters').inForm).toBe(false);
    await expectPrettiersForm({ 'café-crème': 1 });
  });

  test('random values: as prettier prints them', async () => {
    const key = fc.oneof(
      fc.constantFrom('id', 'a', 'field', 'with-dash', '200', "it's", 'x"y', '$ref', 'back\\slash', 'a b', '__proto__', 'k'.repeat(60), 'café', 'née-à'),
      fc.string({ minLength: 1, maxLength: 20 }),
    );
    const text = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("it's", 'say "hi"', 'a'.repeat(70), 'b\\c', 'Café – “x”', ''));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        text,
        fc.integer({ min: -1e6, max: 1e6 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.constantFrom(new Code('checks.reads'), new Code('SERVICE.bodyLimit')),
        fc.array(tie('value'), { maxLength: 8 }),
        fc.array(fc.integer(), { maxLength: 40 }),
        fc.dictionary(key, tie('value'), { maxKeys: 5 }),
        fc.tuple(text, fc.array(tie('value'), { maxLength: 3 })).map(([name, args]) => new Call(new Code('suite.check'), [name, new Code('checks.sorts'), ...(args as JsValue[])])),
      ),
    }));
    await fc.assert(
      fc.asyncProperty(value, fc.constantFrom('parameters', 'path', 'requiredFields'), async (value, key) => {
        const { text, inForm } = placed(value as JsValue, key);
        // Text prettier measures with Unicode tables is its to lay out.
        if (!inForm) return;
        expect(text).toBe(await format(plain(value as JsValue, key)));
        expect(await format(text)).toBe(text);
      }),
      // A fixed seed: a failure reproduces, and CI runs the same cases every time.
      { numRuns: 400, seed: 27 },
    );
  });
});

describe('js-print: an arrow function’s body', () => {
  /** A handler scaffold's line: `  name: async (request) => body,` in an object. */
  function handlers(name: string, body: string, marks: JsMarks): string {
    return `export const books = {\n  ${name}: async (request) => ${marks.add(new ArrowBody(new Code(body)))},\n};\n`;
  }

  test.each([
    ['on the arrow’s line where it fits', 'listBooks', 'store.books.list(request)'],
    ['below the arrow where it does not', `list${'Books'.repeat(8)}`, `store.${'books'.repeat(9)}.list(request)`],
    ['below the arrow, exactly at the margin', `list${'B'.repeat(40)}`, `(await store.${'b'.repeat(63)}.list(request))?.id`],
    ['a comparison broken after its operator', `replace${'B'.repeat(40)}`, `(await store.${'b'.repeat(55)}.replace(request)) !== undefined`],
    ['a comparison whose left side ends at the margin', `replace${'B'.repeat(40)}`, `(await store.${'b'.repeat(61)}.replace(request)) !== undefined`],
  ])('%s: as prettier prints it', async (_, name, body) => {
    const marks = new JsMarks();
    const { text, inForm } = marks.place(handlers(name, body, marks));
    expect(inForm).toBe(true);
    expect(await format(text)).toBe(text);
    expect(text).toBe(await format(handlers(name, body, new JsMarks()).replace(/\u0000[^\u0000]*\u0000/, body)));
  });

  test('a body too long even below the arrow, or an arrow past the margin, is left to prettier', () => {
    for (const [name, body] of [
      ['listBooks', `store.${'b'.repeat(100)}.list(request)`],
      ['replaceBooks', `(await store.${'b'.repeat(62)}.replace(request)) !== undefined`],
      [`list${'B'.repeat(80)}`, 'store.books.list(request)'],
    ]) {
      const marks = new JsMarks();
      expect(marks.place(handlers(name!, body!, marks)).inForm).toBe(false);
    }
  });
});

describe('a call assigned to a const (the store’s collections)', () => {
  /** `const name = new Sql…<Item>(database, { ...OPTIONS.name, … });` as store.ts writes it, and plainly. */
  function construction(n: number, memory: boolean, parent: boolean, itemType?: string) {
    const variable = `v${'x'.repeat(n)}`;
    const item = itemType ?? `${'N'.repeat(1 + (n % 20))}Types.${'T'.repeat(n)}`;
    const options = { [SPREAD]: new Code(`COLLECTIONS.${variable}`), ...(memory ? {} : { table: new Code(`TABLES.${variable}`) }), ...(parent ? { parent: new Code('authors') } : {}) };
    const call = new Call(new Code(`new ${memory ? 'Memory' : 'Sql'}Collection<${item}>`), memory ? [options] : [new Code('database'), options]);
    const marks = new JsMarks();
    const text = `export function f() {\n  const ${variable} = ${marks.add(new AssignedCall(call))};\n}\n`;
    return { ...marks.place(text), plain: text.replace(/\u0000[^\u0000]*\u0000/, plainOf(call)) };
  }

  test('names of every length: in prettier’s form, or left to it', async () => {
    let printed = 0;
    for (let n = 1; n <= 90; n += 3) {
      for (const [memory, parent, itemType] of [[true, false], [true, true], [false, false], [false, true], [true, true, 'Record<string, unknown>']] as const) {
        const { text, inForm, plain } = construction(n, memory, parent, itemType);
        if (!inForm) continue;
        printed++;
        expect(text).toBe(await format(plain));
      }
    }
    expect(printed).toBeGreaterThan(120);
  });

  test('type arguments that could break, past the margin, are left to prettier', () => {
    expect(construction(80, true, false, 'Record<string, unknown>').inForm).toBe(false);
  });
});
