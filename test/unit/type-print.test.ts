/** Handler methods and client properties as prettier prints them (src/render/type-print.ts), for names of every length. */
import * as prettier from 'prettier';
import { PRETTIER_OPTIONS } from '../../src/format/index.js';
import { NamedImports } from '../../src/render/import-print.js';
import { JsMarks } from '../../src/render/js-place.js';
import type { SelfPrinting } from '../../src/render/js-print.js';
import { MethodSignature, PropertySignature } from '../../src/render/type-print.js';

const format = (text: string) => prettier.format(text, { ...PRETTIER_OPTIONS, parser: 'babel-ts' });

/** The value placed in an interface, and the same written plainly for prettier. */
function inInterface(value: SelfPrinting): { text: string; inForm: boolean; plain: string } {
  const marks = new JsMarks();
  return { ...marks.place(`export interface I {\n  ${marks.add(value)}\n}\n`), plain: `export interface I {\n  ${value.plain()}\n}\n` };
}

/** The client's property types and the handlers' signatures, with names `n` characters long. */
function clientTypes(n: number): string[] {
  const ns = `N${'s'.repeat(n % 30)}Types`;
  const op = `Op${'x'.repeat(n)}`;
  const fields = ['name', 'country', 'created_at', 'updated_at', 'author_id', 'title', 'author_association', 'node_id'];
  const fieldset = `{ required: ${fields.slice(0, 1 + (n % 8)).map((field) => `"${field}${'_'.repeat(n % 5)}"`).join(' | ')}; shape: "typed" }`;
  return [
    `Operation<${ns}.${op}Path & NoBody & CallOptions, void>`,
    `Operation<{ body: ${ns}.${op}Body } & CallOptions, ${ns}.${op}Data>`,
    `Operation<${ns}.${op}Path & { body?: ${ns}.${op}Form | FormData } & CallOptions, ${ns}.${op}Data>`,
    `SparseListOperation<{ query?: ${ns}.${op}Query } & NoBody & CallOptions, ${ns}.${op}Data[number], ${fieldset}>`,
    `SparseOperation<${ns}.${op}Path & { query?: ${ns}.${op}Query } & NoBody & CallOptions, ${ns}.${op}Data, ${fieldset}>`,
    `Operation<${ns}.${op}Path & { query: ${ns}.${op}Query } & { body: ${ns}.${op}Body } & CallOptions, ${ns}.${op}Data>`,
    `FileOperation<${ns}.${op}Path & NoBody & CallOptions>`,
  ];
}

function handlerSignatures(n: number): MethodSignature[] {
  const ns = `N${'s'.repeat(n % 30)}Types`;
  const op = `Op${'x'.repeat(n)}`;
  const name = `op${'x'.repeat(n % 40)}`;
  const request = (type: string) => ({ name: 'request', type });
  return [
    new MethodSignature(name, request(`ListRequest<NoParameters, ${ns}.${op}Query>`), `Awaitable<CursorPage<${ns}.${op}Data[number]> | undefined>`),
    new MethodSignature(name, request(`OperationRequest<${ns}.${op}Path, NoParameters, ${ns}.${op}Body>`), `Awaitable<${ns}.${op}Data | undefined>`),
    new MethodSignature(name, request(`OperationRequest<${ns}.${op}Path, NoParameters, undefined>`), 'Awaitable<boolean>'),
    new MethodSignature(name, request(`EventStreamRequest<${ns}.${op}Path, ${ns}.${op}Query, undefined>`), `Awaitable<AsyncIterable<ServerSentEvent<${ns}.${op}Event>, unknown, undefined>>`),
  ];
}

const LENGTHS = Array.from({ length: 80 }, (_, index) => index * 2);

describe('types in prettier’s form', () => {
  test('client properties: in prettier’s form, or left to it', async () => {
    let printed = 0;
    for (const n of LENGTHS) {
      for (const type of clientTypes(n)) {
        const { text, inForm, plain } = inInterface(new PropertySignature(`op${'x'.repeat(n % 50)}`, type));
        if (!inForm) continue;
        printed++;
        expect(text).toBe(await format(plain));
      }
    }
    expect(printed).toBeGreaterThan(LENGTHS.length * 7 * 0.7);
  });

  test('handler methods: in prettier’s form, or left to it', async () => {
    let printed = 0;
    for (const n of LENGTHS) {
      for (const signature of handlerSignatures(n)) {
        const { text, inForm, plain } = inInterface(signature);
        if (!inForm) continue;
        printed++;
        expect(text).toBe(await format(plain));
      }
    }
    expect(printed).toBeGreaterThan(LENGTHS.length * 4 * 0.7);
  });

  test('what it does not lay out goes to prettier', () => {
    expect(inInterface(new PropertySignature('x', '(A | B)[]')).inForm).toBe(false);
    expect(inInterface(new PropertySignature('x', 'Operation<{ "quoted-key": A }, B>')).inForm).toBe(false);
    expect(inInterface(new PropertySignature('x', `Operation<${'Δ'.repeat(5)}, B>`)).inForm).toBe(false);
    expect(inInterface(new MethodSignature('m', { name: 'request', type: '{ a: string }' }, 'void')).inForm).toBe(false);
    // Names prettier measures with Unicode tables, a union right after a method's `:`, an intersection in a union,
    // a lone literal argument, a single-quoted string.
    expect(inInterface(new MethodSignature('清除缓存', { name: 'request', type: 'A' }, 'B')).inForm).toBe(false);
    expect(inInterface(new PropertySignature('清除缓存', 'A')).inForm).toBe(false);
    expect(inInterface(new MethodSignature('m', { name: 'request', type: 'A' }, 'B | C')).inForm).toBe(false);
    expect(inInterface(new PropertySignature('x', 'Op<A & B | C>')).inForm).toBe(false);
    expect(inInterface(new PropertySignature('x', `Op<"${'l'.repeat(100)}">`)).inForm).toBe(false);
    expect(inInterface(new PropertySignature('x', "Op<'it\\'s'>")).inForm).toBe(false);
    // A union with an object type, which prettier may hug.
    expect(inInterface(new PropertySignature('x', `Operation<{ body?: { a: ${'A'.repeat(100)} } | null }, B>`)).inForm).toBe(false);
  });
});

describe('named imports in prettier’s form', () => {
  test.each([1, 2, 4, 8])('%i names around the margin', async (count) => {
    for (let length = 1; length < 60; length += 3) {
      const names = Array.from({ length: count }, (_, index) => `${index % 2 ? 'type ' : ''}N${index}${'x'.repeat(length)}`);
      const marks = new JsMarks();
      const value = new NamedImports('import', names, `./m${'o'.repeat(length)}.js`);
      const { text, inForm } = marks.place(`${marks.add(value)}\n`);
      expect(inForm).toBe(true);
      expect(text).toBe(await format(`${value.plain()}\n`));
    }
  });
});
