import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { createFormatter, formatFiles, PRETTIER_OPTIONS } from '../../src/format/index.js';
import { FormatMemo } from '../../src/format/memo.js';
import type { FileFormat, FilePart, RenderedFile } from '../../src/render/index.js';

/** A rendered file: given as contents, or (when `parts` are passed) as parts only. */
const output = (path: string, contents: string, format: FileFormat, parts?: FilePart[]): RenderedFile =>
  parts ? { path, parts, kind: 'generated', format } : { path, contents, kind: 'generated', format };

async function formatOne(contents: string, format: FileFormat = 'typescript'): Promise<string> {
  const [file] = await formatFiles([output('a.ts', contents, format)]);
  return file!.contents;
}

describe('formatFiles: pinned prettier options', () => {
  test.each([
    { name: 'single quotes, semicolons', given: 'const a = "x"\n', want: "const a = 'x';\n" },
    { name: 'bracket spacing', given: 'const a = {b: 1, c: [1,2,3]}\n', want: 'const a = { b: 1, c: [1, 2, 3] };\n' },
    { name: 'two-space indentation', given: 'function f(x) {\nreturn x\n}\n', want: 'function f(x) {\n  return x;\n}\n' },
    { name: 'arrow parens always', given: 'const f = x => x\n', want: 'const f = (x) => x;\n' },
    { name: 'quotes only where needed', given: 'const o = {"a": 1, "b-c": 2}\n', want: "const o = { a: 1, 'b-c': 2 };\n" },
    {
      name: 'trailing commas, 100 columns',
      given:
        'const value = {alpha: "aaaaaaaaaaaaaaaa", beta: "bbbbbbbbbbbbbbbbbb", gamma: "cccccccccccccccccc", delta: 1}\n',
      want:
        "const value = {\n  alpha: 'aaaaaaaaaaaaaaaa',\n  beta: 'bbbbbbbbbbbbbbbbbb',\n  gamma: 'cccccccccccccccccc',\n  delta: 1,\n};\n",
    },
    {
      name: 'trailing commas in parameters and type literals',
      given:
        'export function handler(firstArgumentWithALongName: string, secondArgumentWithALongName: number, third: boolean) {}\n' +
        'type T = {\na: string\nb?: number\n}\n',
      want:
        'export function handler(\n  firstArgumentWithALongName: string,\n  secondArgumentWithALongName: number,\n  third: boolean,\n) {}\n' +
        'type T = {\n  a: string;\n  b?: number;\n};\n',
    },
    { name: 'CRLF becomes LF', given: 'const a = 1\r\nconst b = 2\r\n', want: 'const a = 1;\nconst b = 2;\n' },
  ])('typescript: $name', async ({ given, want }) => {
    expect(await formatOne(given)).toBe(want);
  });

  test('the options are the documented ones', () => {
    expect(PRETTIER_OPTIONS).toMatchObject({
      printWidth: 100,
      tabWidth: 2,
      useTabs: false,
      semi: true,
      singleQuote: true,
      trailingComma: 'all',
      arrowParens: 'always',
      endOfLine: 'lf',
    });
  });

  test('json is formatted as JSON (double quotes kept)', async () => {
    expect(await formatOne('{"a":1,"b":[1,2],"c":{"d":"x"}}', 'json')).toBe('{ "a": 1, "b": [1, 2], "c": { "d": "x" } }\n');
  });

  test('as-is files are left byte for byte', async () => {
    const text = "openapi: 3.0.3\ninfo:   {title: \"x\"}\n\n\nconst a = \"not formatted\"  \n";
    expect(await formatOne(text, 'as-is')).toBe(text);
  });

  test('an as-is file with parts is left as its parts say', async () => {
    const parts: FilePart[] = [
      { text: 'a:   1\n', as: 'statements' },
      { text: 'b:   {x: 1}\n', as: 'nested', depth: 1 },
    ];
    const [file] = await formatFiles([output('x.yaml', parts.map((p) => p.text).join(''), 'as-is', parts)]);
    expect(file!.contents).toBe('a:   1\nb:   {x: 1}\n');
  });

  test('files keep their order and metadata; parts are dropped from the result', async () => {
    const files: RenderedFile[] = [
      output('b.ts', 'let b = "b"\n', 'typescript'),
      { ...output('a.json', '{"x":true}', 'json'), kind: 'scaffold' },
      output('c.yaml', 'c:  1\n', 'as-is'),
      output('d.ts', '', 'typescript', [
        { text: '// head\n', as: 'verbatim' },
        { text: 'let d = "d"\n', as: 'statements' },
      ]),
    ];
    expect(await formatFiles(files)).toEqual([
      { path: 'b.ts', contents: "let b = 'b';\n", kind: 'generated', format: 'typescript' },
      { path: 'a.json', contents: '{ "x": true }\n', kind: 'scaffold', format: 'json' },
      { path: 'c.yaml', contents: 'c:  1\n', kind: 'generated', format: 'as-is' },
      { path: 'd.ts', contents: "// head\nlet d = 'd';\n", kind: 'generated', format: 'typescript' },
    ]);
  });

  test('a syntax error is reported, not swallowed', async () => {
    await expect(formatOne('const = ;\n')).rejects.toThrow();
  });
});

describe('formatFiles never reads prettier configuration', () => {
  let directory = '';
  let previous = '';
  beforeAll(() => {
    previous = process.cwd();
    directory = mkdtempSync(join(tmpdir(), 'specforge-format-'));
    writeFileSync(join(directory, '.prettierrc'), JSON.stringify({ semi: false, singleQuote: false, tabWidth: 8, trailingComma: 'none' }));
    writeFileSync(join(directory, '.editorconfig'), 'root = true\n[*]\nindent_style = tab\nindent_size = 8\n');
    writeFileSync(join(directory, 'package.json'), JSON.stringify({ name: 'x', prettier: { semi: false } }));
  });
  afterAll(() => {
    process.chdir(previous);
    rmSync(directory, { recursive: true, force: true });
  });

  test('the output is the same with a .prettierrc (semi: false) in the cwd', async () => {
    const source = 'export const value = {alpha: "aaaaaaaaaaaaaaaaaaaaaa", beta: "bbbbbbbbbbbbbbbbbbbbbbbbb", gamma: [1, 2, 3]}\nfunction f() {\nreturn 1\n}\n';
    const expected = await formatOne(source);
    process.chdir(directory);
    try {
      const inConfiguredDirectory = await formatOne(source);
      expect(inConfiguredDirectory).toBe(expected);
      expect(inConfiguredDirectory).toContain("alpha: 'aaaaaaaaaaaaaaaaaaaaaa',\n");
      expect(inConfiguredDirectory).toContain('  return 1;\n');
      // prettier itself would have used it: the fixture is real
      const resolved = await prettier.resolveConfig(join(directory, 'a.ts'), { editorconfig: true });
      expect(resolved).toMatchObject({ semi: false });
    } finally {
      process.chdir(previous);
    }
  });
});

describe('formatFiles: a file given in parts', () => {
  // Written as openapi-typescript's printer writes it: 4-space indentation, double quotes.
  const banner = '// Generated by specforge. Do not edit.\n// Source: api.yaml\n\n';
  const head = 'import type { Tagged } from "./tagged.js";\ntype Id = string\n';
  const pathMembers =
    '    "/books": {\n        parameters: {\n            query?: never;\n        };\n        get: operations["listBooks"];\n    };\n' +
    '    "/books/{book_id}": {\n        get: operations["getBook"];\n        delete: operations["deleteBook"];\n    };\n';
  const schemaMembersA =
    '        /** @description A book, as the shop sells it. */\n        Book: {\n            id: Id;\n            /** @example Dune */\n            title: string;\n            tags?: string[];\n        };\n';
  const schemaMembersB =
    '        "book-review": {\n            stars: 1 | 2 | 3 | 4 | 5;\n            text?: string | null;\n            book: components["schemas"]["Book"];\n        };\n        Tag: Tagged<{ label: string }>;\n';
  const componentMembers = '    responses: never;\n    parameters: {\n        Cursor: string;\n    };\n';
  const tail = 'export type $defs = Record<string, never>\nexport type operations = Record<string, unknown>\n';

  const whole =
    banner +
    head +
    'export interface paths {\n' +
    pathMembers +
    '}\n' +
    'export interface components {\n' +
    '    schemas: {\n' +
    schemaMembersA +
    schemaMembersB +
    '    };\n' +
    componentMembers +
    '}\n' +
    tail;

  const wrap1 = (name: string, members: string) => `export interface ${name} {\n${members}}\n`;
  const wrap2 = (name: string, member: string, members: string) => `export interface ${name} {\n    ${member}: {\n${members}    };\n}\n`;

  const parts: FilePart[] = [
    { text: banner, as: 'verbatim' },
    { text: head, as: 'statements' },
    { text: 'export interface paths {\n', as: 'verbatim' },
    { text: wrap1('paths', pathMembers), as: 'nested', depth: 1 },
    { text: '}\n', as: 'verbatim' },
    { text: 'export interface components {\n', as: 'verbatim' },
    { text: '  schemas: {\n', as: 'verbatim' },
    { text: wrap2('components', 'schemas', schemaMembersA), as: 'nested', depth: 2 },
    { text: wrap2('components', 'schemas', schemaMembersB), as: 'nested', depth: 2 },
    { text: '  };\n', as: 'verbatim' },
    { text: wrap1('components', componentMembers), as: 'nested', depth: 1 },
    { text: '}\n', as: 'verbatim' },
    { text: tail, as: 'statements' },
  ];

  test.each(['typescript', 'babel-ts'])('formats to exactly what prettier (%s) gives the whole file', async (parser) => {
    const expected = await prettier.format(whole, { ...PRETTIER_OPTIONS, parser });
    const [file] = await formatFiles([output('src/generated/types.ts', parts.map((p) => p.text).join(''), 'typescript', parts)]);
    expect(file!.contents).toBe(expected);
  });

  test('the expected output really is formatted (sanity of the fixture)', async () => {
    const expected = await prettier.format(whole, { ...PRETTIER_OPTIONS, parser: 'typescript' });
    expect(expected).toContain("  '/books': {\n    parameters: {\n      query?: never;\n    };\n");
    expect(expected).toContain("    'book-review': {\n      stars: 1 | 2 | 3 | 4 | 5;\n");
    expect(expected).toContain("import type { Tagged } from './tagged.js';\ntype Id = string;\n");
  });

  test('statements parts alone: each formatted, joined', async () => {
    const [file] = await formatFiles([
      output('x.ts', '', 'typescript', [
        { text: 'const a = "a"\n', as: 'statements' },
        { text: 'const b = {x:1}\n', as: 'statements' },
      ]),
    ]);
    expect(file!.contents).toBe("const a = 'a';\nconst b = { x: 1 };\n");
  });

  test('a nested part keeps only the members, indented as in place', async () => {
    const [depth1] = await formatFiles([
      output('x.ts', '', 'typescript', [{ text: 'interface X {\n    a: string\n    b?: "x" | "y"\n}\n', as: 'nested', depth: 1 }]),
    ]);
    expect(depth1!.contents).toBe("  a: string;\n  b?: 'x' | 'y';\n");
    const [depth2] = await formatFiles([
      output('x.ts', '', 'typescript', [{ text: 'interface X {\n    inner: {\n        a: string\n    }\n}\n', as: 'nested', depth: 2 }]),
    ]);
    expect(depth2!.contents).toBe('    a: string;\n');
  });

  test('verbatim parts are never formatted', async () => {
    const [file] = await formatFiles([output('x.ts', '', 'typescript', [{ text: 'const   x = "untouched"\n', as: 'verbatim' }])]);
    expect(file!.contents).toBe('const   x = "untouched"\n');
  });
});

describe('createFormatter with a memo (--watch)', () => {
  const job = (text: string) => ({ text, as: 'statements' as const, format: 'typescript' as const });

  /** One run of the format stage, as the pipeline makes it. */
  async function formatRun(memo: FormatMemo, files: RenderedFile[], completed = true): Promise<string[]> {
    const formatter = createFormatter({ threads: 1, memo });
    const formatted = await Promise.all(files.map((file) => formatter.format(file)));
    await formatter.close({ completed });
    return formatted.map((file) => file.contents);
  }

  test('a text the memo holds is taken from it, not formatted again', async () => {
    const memo = new FormatMemo();
    // A marker prettier would never print: seeing it back proves prettier was not asked.
    memo.keep(job('const a = "a"\n'), 'FROM MEMO\n');
    const [remembered, fresh] = await formatRun(memo, [output('a.ts', 'const a = "a"\n', 'typescript'), output('b.ts', 'const b = {x:1}\n', 'typescript')]);
    expect(remembered).toBe('FROM MEMO\n');
    expect(fresh).toBe('const b = { x: 1 };\n');
    expect(memo.lookup(job('const b = {x:1}\n'))).toBe('const b = { x: 1 };\n');
  });

  test('the same text formatted another way is another entry', async () => {
    const memo = new FormatMemo();
    memo.keep(job('{"a":1}\n'), 'FROM MEMO\n');
    const [json] = await formatRun(memo, [output('a.json', '{"a":1}\n', 'json')]);
    expect(json).toBe('{ "a": 1 }\n');
  });

  test('a run keeps only what it used: an entry the next run does not ask for is gone after it', async () => {
    const memo = new FormatMemo();
    await formatRun(memo, [output('a.ts', 'const a = 1\n', 'typescript'), output('b.ts', 'const b = 2\n', 'typescript')]);
    await formatRun(memo, [output('a.ts', 'const a = 1\n', 'typescript')]);
    expect(memo.lookup(job('const b = 2\n'))).toBeUndefined();
    expect(memo.lookup(job('const a = 1\n'))).toBe('const a = 1;\n');
  });

  test('a run that failed forgets nothing: what the run before it formatted is still there', async () => {
    const memo = new FormatMemo();
    await formatRun(memo, [output('a.ts', 'const a = 1\n', 'typescript'), output('b.ts', 'const b = 2\n', 'typescript')]);
    // A spec with an error stops the run after the first file or two.
    await formatRun(memo, [output('c.ts', 'const c = 3\n', 'typescript')], false);
    expect(memo.lookup(job('const a = 1\n'))).toBe('const a = 1;\n');
    expect(memo.lookup(job('const b = 2\n'))).toBe('const b = 2;\n');
    expect(memo.lookup(job('const c = 3\n'))).toBe('const c = 3;\n');
  });
});
