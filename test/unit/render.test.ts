import { render as renderFiles, type Target } from '../../src/render/index.js';
import { createRenderer, type TemplateSet } from '../../src/render/handlebars.js';
import { HELPERS, withoutOptions } from '../../src/render/helpers.js';
import { diagnosticsOf } from '../helpers.js';

/** A template set from `path → source`; each file named after its path. */
function templates(sources: Record<string, string>): TemplateSet {
  return new Map(Object.entries(sources).map(([path, source]) => [path, { source, file: `/templates/${path}` }]));
}

function render(source: string, view: object, extra: Record<string, string> = {}): string {
  return createRenderer(templates({ 't.hbs': source, ...extra })).render('t.hbs', view).text;
}


describe('helpers', () => {
  test('the registry has exactly these helpers', () => {
    expect(Object.keys(HELPERS).sort()).toEqual(['call', 'camelCase', 'code', 'eq', 'join', 'json', 'pascalCase']);
  });

  test.each([
    { given: { a: 1, b: [true, null] }, want: '{"a":1,"b":[true,null]}' },
    { given: 'it\'s "quoted"', want: '"it\'s \\"quoted\\""' },
    { given: 42, want: '42' },
    { given: null, want: 'null' },
    { given: undefined, want: 'null' },
    { given: [], want: '[]' },
  ])('json($given) = $want', ({ given, want }) => {
    expect(HELPERS.json(given)).toBe(want);
  });

  test.each([
    { a: 1, b: 1, want: true },
    { a: 'x', b: 'x', want: true },
    { a: 1, b: '1', want: false },
    { a: null, b: undefined, want: false },
    { a: {}, b: {}, want: false },
  ])('eq($a, $b) = $want', ({ a, b, want }) => {
    expect(HELPERS.eq(a, b)).toBe(want);
  });

  test.each([
    { list: ['a', 'b', 'c'], separator: ' | ', want: 'a | b | c' },
    { list: ['a', 'b'], separator: '', want: 'ab' },
    { list: ['a', 'b'], separator: undefined, want: 'a, b' },
    { list: ['a', 'b'], separator: 3, want: 'a, b' },
    { list: [], separator: ',', want: '' },
    { list: 'not a list', separator: ',', want: '' },
    { list: undefined, separator: ',', want: '' },
  ])('join($list, $separator) = $want', ({ list, separator, want }) => {
    expect(HELPERS.join(list, separator)).toBe(want);
  });

  test.each([
    { given: 'list-books', camel: 'listBooks', pascal: 'ListBooks' },
    { given: 'book_reviews', camel: 'bookReviews', pascal: 'BookReviews' },
    { given: 'HTTPServer', camel: 'httpServer', pascal: 'HttpServer' },
    { given: 'get /authors/{author_id}', camel: 'getAuthorsAuthorId', pascal: 'GetAuthorsAuthorId' },
    { given: 'listBooks', camel: 'listBooks', pascal: 'ListBooks' },
  ])('camelCase/pascalCase($given)', ({ given, camel, pascal }) => {
    expect(HELPERS.camelCase(given)).toBe(camel);
    expect(HELPERS.pascalCase(given)).toBe(pascal);
  });

  test.each([
    { given: '2fa-codes', camel: '_2faCodes' },
    { given: 7, camel: '_7' },
  ])('camelCase/pascalCase($given) are valid identifiers even with a leading digit', ({ given, camel }) => {
    expect(HELPERS.camelCase(given)).toBe(camel);
    // pascalCase names types (`{{pascalCase operationId}}Data`): it must not start with a digit either.
    expect(HELPERS.pascalCase(given)).toMatch(/^[A-Za-z_$][A-Za-z0-9_$]*$/);
  });

  test('withoutOptions drops the trailing options argument Handlebars passes', () => {
    const join = withoutOptions(HELPERS.join);
    expect(join(['a', 'b'], { hash: {} })).toBe('a, b');
    expect(join(['a', 'b'], '-', { hash: {} })).toBe('a-b');
  });

  test.each([
    { template: '{{json value}}', view: { value: { a: [1, 'x'] } }, want: '{"a":[1,"x"]}' },
    { template: '{{#if (eq kind "list")}}L{{else}}O{{/if}}', view: { kind: 'list' }, want: 'L' },
    { template: '{{#if (eq kind "list")}}L{{else}}O{{/if}}', view: { kind: 'read' }, want: 'O' },
    { template: '{{join names ", "}}', view: { names: ['a', 'b'] }, want: 'a, b' },
    { template: '{{join names}}', view: { names: ['a', 'b'] }, want: 'a, b' },
    { template: '{{camelCase name}}', view: { name: 'list-books' }, want: 'listBooks' },
    { template: '{{pascalCase name}}', view: { name: 'list-books' }, want: 'ListBooks' },
  ])('in a template: $template', ({ template, view, want }) => {
    expect(render(template, view)).toBe(want);
  });
});

describe('createRenderer', () => {
  test('renders without HTML escaping (it emits code)', () => {
    expect(render('const s = {{json s}}; // {{t}}', { s: '<a & "b">', t: "a < b && c > 'd'" })).toBe(
      'const s = "<a & \\"b\\">"; // a < b && c > \'d\'',
    );
  });

  test('built-in block helpers work', () => {
    expect(render('{{#each items}}{{@index}}:{{this}};{{/each}}{{#unless none}}!{{/unless}}', { items: ['a', 'b'], none: false })).toBe('0:a;1:b;!');
  });

  test('strict: a missing variable → SpecforgeError TEMPLATE_ERROR naming the template file', () => {
    const problems = diagnosticsOf(() => render('line one\n  {{title}}', {}));
    expect(problems).toEqual([expect.objectContaining({ code: 'TEMPLATE_ERROR', severity: 'error', file: '/templates/t.hbs' })]);
    expect(problems[0]!.message).toContain('title');
  });

  test('strict: a missing nested member is an error too', () => {
    expect(diagnosticsOf(() => render('{{model.name}}', { model: {} }))[0]!.code).toBe('TEMPLATE_ERROR');
  });

  test('strict: a present but empty value is fine', () => {
    expect(render('[{{a}}][{{b}}]', { a: '', b: 0 })).toBe('[][0]');
  });

  test('the diagnostic of a missing variable carries its line', () => {
    // Handlebars reports it as "… - 2:4" (and in error.lineNumber), not as "line 2".
    expect(diagnosticsOf(() => render('line one\n  {{title}}', {}))[0]).toMatchObject({ line: 2 });
  });

  test('a syntax error → TEMPLATE_ERROR with its line', () => {
    const [problem] = diagnosticsOf(() => render('ok\n{{#if a}}never closed', { a: true }));
    expect(problem).toMatchObject({ code: 'TEMPLATE_ERROR', file: '/templates/t.hbs', line: 2 });
    expect(problem!.message).not.toContain('\n');
  });

  test('an unknown helper is rejected (knownHelpersOnly)', () => {
    const [problem] = diagnosticsOf(() => render('{{shout name}}', { name: 'x' }));
    expect(problem!.code).toBe('TEMPLATE_ERROR');
    expect(problem!.message).toContain('shout');
  });

  test('a helper registered on the global Handlebars does not leak in', async () => {
    const { default: Handlebars } = await import('handlebars');
    Handlebars.registerHelper('leaked', () => 'LEAK');
    try {
      expect(diagnosticsOf(() => render('{{leaked x}}', { x: 1 }))[0]!.code).toBe('TEMPLATE_ERROR');
    } finally {
      Handlebars.unregisterHelper('leaked');
    }
  });

  test('a missing template → TEMPLATE_ERROR', () => {
    const renderer = createRenderer(templates({}));
    const [problem] = diagnosticsOf(() => renderer.render('nope.hbs', {}));
    expect(problem!.code).toBe('TEMPLATE_ERROR');
    expect(problem!.message).toContain('nope.hbs');
  });

  test('partials named _x.hbs are usable by their path without .hbs', () => {
    const output = render('{{> _header}}|{{> types/_field name="id"}}', { title: 'T' }, {
      '_header.hbs': '// {{title}}',
      'types/_field.hbs': '{{name}}: string',
    });
    expect(output).toBe('// T|id: string');
  });

  test('a template not named _x.hbs is not a partial', () => {
    expect(diagnosticsOf(() => render('{{> other}}', {}, { 'other.hbs': 'x' }))[0]!.code).toBe('TEMPLATE_ERROR');
  });

  test('the same renderer renders a template many times, each view on its own', () => {
    const renderer = createRenderer(templates({ 'a.hbs': '{{n}}' }));
    expect([1, 2, 3].map((n) => renderer.render('a.hbs', { n }).text)).toEqual(['1', '2', '3']);
  });

  const IN_FORM = "{{!-- In prettier's form: values by {{js}}. --}}\nconst route = {\n  operationId: {{js id}},\n  tags: {{js tags}},\n};\n";

  test('{{js}} prints a value where it stands; a built-in template that says so is in form', () => {
    const set: TemplateSet = new Map([['a.hbs', { source: IN_FORM, file: '/templates/a.hbs', builtIn: true }]]);
    const rendered = createRenderer(set).render('a.hbs', { id: "it's", tags: ['a'.repeat(50), 'b'.repeat(50)] });
    expect(rendered).toEqual({ text: `const route = {\n  operationId: "it's",\n  tags: [\n    '${'a'.repeat(50)}',\n    '${'b'.repeat(50)}',\n  ],\n};\n`, inForm: true });
  });

  test('a user’s template is formatted, whatever it says', () => {
    const set: TemplateSet = new Map([['a.hbs', { source: IN_FORM, file: '/mine/a.hbs', builtIn: false }]]);
    expect(createRenderer(set).render('a.hbs', { id: 'x', tags: [] }).inForm).toBe(false);
  });

  test('a value it cannot place (text of uncertain width) leaves the file to prettier, written plainly', () => {
    const set: TemplateSet = new Map([['a.hbs', { source: IN_FORM, file: '/templates/a.hbs', builtIn: true }]]);
    expect(createRenderer(set).render('a.hbs', { id: '書名', tags: [{ a: 1 }] })).toEqual({ text: 'const route = {\n  operationId: "書名",\n  tags: [{ "a": 1 }],\n};\n', inForm: false });
  });

  describe('a line the template wrote that prettier would change leaves the file to prettier', () => {
    const inFormOf = (source: string, view: object) => {
      const set: TemplateSet = new Map([['a.hbs', { source: `{{!-- In prettier's form. --}}\n${source}`, file: '/templates/a.hbs', builtIn: true }]]);
      return createRenderer(set).render('a.hbs', view).inForm;
    };
    const LINE = 'export const {{name}}: Handlers = {};\n';

    test.each([
      ['within the margin', { name: 'a'.repeat(70) }, true],
      ['past the margin', { name: 'a'.repeat(90) }, false],
      ['of text of uncertain width', { name: 'ｈａｎｄｌｅｒｓ' }, false],
    ])('a name %s', (_, view, inForm) => expect(inFormOf(LINE, view)).toBe(inForm));

    test('a double-quoted string, a tab or a space at the end', () => {
      expect(inFormOf('import { a } from "{{m}}";\n', { m: './a.js' })).toBe(false);
      expect(inFormOf('const a = {\n\tb: 1,\n};\n', {})).toBe(false);
      expect(inFormOf('const a = 1; \n', {})).toBe(false);
    });

    test('but not a comment, which prettier keeps as it is', () => {
      expect(inFormOf(`// "{{text}}"\n/**\n * {{text}}\n */\nconst a = 1;\n`, { text: 'ｗｉｄｅ '.repeat(30) })).toBe(true);
    });

    test('nor a value past the margin, which prettier breaks where it can; code that cannot break there is left to prettier', () => {
      expect(inFormOf('const aName = {{js value}};\n', { value: ['x'.repeat(60), 'y'.repeat(60)] })).toBe(true);
      expect(inFormOf("describe({{js value}}, () => {});\n", { value: 'x'.repeat(90) })).toBe(true);
      expect(inFormOf('  name: async (request) => {{js (code value)}},\n', { value: `store.${'x'.repeat(60)}.list(request)` })).toBe(false);
      expect(inFormOf('  name: async (request) => {{js (code value)}},\n', { value: `store.${'x'.repeat(30)}.list(request)` })).toBe(true);
    });
  });
});

describe('render: output paths', () => {
  const fileTarget = (paths: string[]): Target => ({
    name: 'files',
    async render() {
      return paths.map((path) => ({ path, contents: 'x', kind: 'generated' as const, format: 'as-is' as const }));
    },
  });
  const renderPaths = (paths: string[]) =>
    renderFiles({ document: {} as never, model: {} as never, templates: new Map(), runtime: new Map(), targets: [fileTarget(paths)], specName: 'api.yaml' });

  test('two files on paths that differ only in case stop the run, naming both', async () => {
    await expect(renderPaths(['src/a.ts', 'src/Books.ts', 'src/books.ts'])).rejects.toMatchObject({
      diagnostics: [expect.objectContaining({ code: 'OUTPUT_PATH_COLLISION', message: 'src/Books.ts and src/books.ts would be one file' })],
    });
  });

  test('distinct paths render, sorted', async () => {
    expect((await renderPaths(['src/b.ts', 'src/a.ts'])).map((file) => file.path)).toEqual(['src/a.ts', 'src/b.ts']);
  });
});
