/** `export type Name = Type;` as prettier prints it (src/render/type-alias-print.ts), for every length of name and type. */
import * as prettier from 'prettier';
import { PRETTIER_OPTIONS } from '../../src/format/index.js';
import { JsMarks } from '../../src/render/js-place.js';
import { TypeAlias } from '../../src/render/type-alias-print.js';

const format = (text: string) => prettier.format(text, { ...PRETTIER_OPTIONS, parser: 'babel-ts' });

function placed(alias: TypeAlias): { text: string; inForm: boolean } {
  const marks = new JsMarks();
  return marks.place(`// aliases\n${marks.add(alias)}\n`);
}

const SHAPES = (id: string) => [
  `operations["${id}"]['parameters']['path']`,
  `NonNullable<operations["${id}"]['parameters']['query']>`,
  `NonNullable<operations["${id}"]['requestBody']>['content']["application/json"]`,
  `operations["${id}"]['responses'][200]['content']["application/vnd.api+json"]`,
  `Exclude<${id}Response['data'], undefined>`,
  `${id}Data[number]`,
  `Foo<${id}Data>`,
  'string',
];

describe('type aliases as prettier prints them', () => {
  const lengths = [1, 20, 40, 55, 62, 70, 80, 95];
  test.each(lengths)('names and types around the margin (%i)', async (length) => {
    const name = `N${'a'.repeat(length)}`;
    for (const type of SHAPES(`op${'b'.repeat(length)}`)) {
      const { text, inForm } = placed(new TypeAlias(name, type));
      if (!inForm) continue;
      expect(text).toBe(await format(`// aliases\n${new TypeAlias(name, type).plain()}\n`));
    }
  });

  test('most shapes are printed, not left to prettier', () => {
    const printed = lengths.flatMap((length) => SHAPES(`op${'b'.repeat(length)}`).map((type) => placed(new TypeAlias(`N${'a'.repeat(length)}`, type)).inForm));
    expect(printed.filter(Boolean).length).toBeGreaterThan(printed.length * 0.9);
  });

  test('what it does not lay out goes to prettier', () => {
    expect(placed(new TypeAlias('Form<FileType = Blob>', 'Omit<A, "file"> & { file: FileType }')).inForm).toBe(false);
    expect(placed(new TypeAlias('書籍', 'BooksData[number]')).inForm).toBe(false);
    expect(placed(new TypeAlias('Union', `A${'x'.repeat(100)} | B`)).inForm).toBe(false);
  });
});
