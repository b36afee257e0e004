/**
 * Stage 1 — load. Every defect in a fixture must come back as a diagnostic
 * with the exact code, the file to edit, the JSON pointer in that file and the
 * line (and column) the fixture's comment names.
 *
 * What does not reach swagger-parser (parse, crawl, kind and internal-$ref
 * checks of a single file) runs here, in-process, against src/. Bundling and
 * schema validation go through swagger-parser, which Jest's module loader
 * cannot load: those cases run the built load stage in a child Node process
 * (`loadInNode`, so `npm run build` first).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { resolveConfig } from '../../src/config.js';
import { SpecforgeError, type Diagnostic } from '../../src/diagnostics.js';
import { loadSpec } from '../../src/load/index.js';
import { MAX_DEPTH, MAX_SPEC_BYTES, shapeProblem, sizeProblem } from '../../src/load/limits.js';
import { decodeText, locateInText, parseText } from '../../src/load/parse.js';
import { isInside, mayReference, refKind, refRootsOf } from '../../src/load/ref-root.js';
import { SourceSet } from '../../src/load/sources.js';
import { validateOpenApi } from '../../src/load/validate.js';
import { nodeVersionProblem, requiredNodeRange } from '../../src/cli/node-version.js';
import { FIXTURES, loadInNode, ROOT } from '../helpers.js';

const invalid = (name: string) => join(FIXTURES, 'invalid', name);
const valid = (name: string) => join(FIXTURES, 'valid', name);
const text = (file: string) => readFileSync(file, 'utf8');

const NOTES_200_SCHEMA = '#/paths/~1notes/get/responses/200/content/application~1json/schema';

/** The diagnostics `loadSpec` (in-process) stops with; fails if it succeeds or throws anything else. */
async function loadProblems(file: string): Promise<Diagnostic[]> {
  try {
    await loadSpec(file);
  } catch (error) {
    if (error instanceof SpecforgeError) return error.diagnostics;
    throw error;
  }
  throw new Error(`expected loading ${file} to fail`);
}

/** The diagnostics of the built load stage (or merge) in a child process; fails if it succeeds. */
async function nodeProblems(file: string, stage: 'load' | 'merge' = 'load'): Promise<Diagnostic[]> {
  const result = await loadInNode(file, stage);
  if (!result.diagnostics) throw new Error(`expected ${stage} of ${file} to fail`);
  return result.diagnostics;
}

/** The problem of a failed parse; fails the test if the text parsed. */
function parseProblem(source: string, file: string): Diagnostic {
  const result = parseText(source, file);
  if (result.ok) throw new Error(`expected ${file} not to parse`);
  return result.problem;
}

/** Only the location-and-identity part of a diagnostic, for exact comparison. */
function where(d: Diagnostic) {
  return { code: d.code, file: d.file, pointer: d.pointer, line: d.line, column: d.column };
}

describe('parseText', () => {
  test('parses YAML to plain values', () => {
    expect(parseText('openapi: 3.0.3\npaths:\n  /a: {}\ntags: [x, y]\n', 'spec.yaml')).toEqual({
      ok: true,
      value: { openapi: '3.0.3', paths: { '/a': {} }, tags: ['x', 'y'] },
      syntax: 'yaml',
    });
  });

  test('parses JSON, by extension and by content', () => {
    expect(parseText('{"openapi": "3.1.0", "n": 1}', 'spec.json')).toEqual({ ok: true, value: { openapi: '3.1.0', n: 1 }, syntax: 'json' });
    expect(parseText('  {"openapi": "3.1.0"}', 'spec.yaml')).toEqual({ ok: true, value: { openapi: '3.1.0' }, syntax: 'json' });
  });

  test('yaml-syntax.yaml: SPEC_PARSE_ERROR in that file, line 7, no pointer', () => {
    const file = invalid('yaml-syntax.yaml');
    const problem = parseProblem(text(file), file);
    expect(problem).toMatchObject({ code: 'SPEC_PARSE_ERROR', severity: 'error', file, line: 7 });
    expect(problem.message).toMatch(/^Invalid YAML: /);
    expect(problem.pointer).toBeUndefined();
  });

  test('yaml-syntax.yaml: the column is that of the mis-indented key `contact` (column 2)', () => {
    const file = invalid('yaml-syntax.yaml');
    expect(where(parseProblem(text(file), file))).toEqual({ code: 'SPEC_PARSE_ERROR', file, pointer: undefined, line: 7, column: 2 });
  });

  test('a duplicate key is a parse error at the second occurrence', () => {
    const source = 'openapi: 3.0.3\ninfo:\n  title: A\n  version: 1.0.0\n  title: B\npaths: {}\n';
    expect(where(parseProblem(source, 'dup.yaml'))).toEqual({ code: 'SPEC_PARSE_ERROR', file: 'dup.yaml', pointer: undefined, line: 5, column: 3 });
  });

  test('json-syntax.json: SPEC_PARSE_ERROR at the brace after the trailing comma, line 7 column 3', () => {
    const file = invalid('json-syntax.json');
    const problem = parseProblem(text(file), file);
    expect(where(problem)).toEqual({ code: 'SPEC_PARSE_ERROR', file, pointer: undefined, line: 7, column: 3 });
    expect(problem.message).toMatch(/^Invalid JSON: /);
  });

  test('json-truncated.json: a JSON file cut off mid-document still reports a line (the end of the file)', () => {
    const file = invalid('json-truncated.json');
    const problem = parseProblem(text(file), file);
    expect(problem.code).toBe('SPEC_PARSE_ERROR');
    expect(problem.file).toBe(file);
    // The input ends on line 8; after its final newline, line 9 column 1 is the end as well.
    expect([8, 9]).toContain(problem.line);
    expect(problem.column).toEqual(expect.any(Number));
  });
});

describe('locateInText', () => {
  test('finds the key of a path in YAML (line and column of the key)', () => {
    const source = text(invalid('broken-ref.yaml'));
    expect(locateInText(source, ['paths', '/notes', 'get', 'responses', '200', 'content', 'application/json', 'schema', '$ref'])).toEqual({
      line: 18,
      column: 17,
    });
    expect(locateInText(source, ['components', 'schemas', 'Note'])).toEqual({ line: 21, column: 5 });
  });

  test('walks into sequences by index', () => {
    const source = text(valid('minimal.yaml'));
    expect(locateInText(source, ['paths', '/notes/{note_id}', 'parameters', '0', 'in'])).toEqual({ line: 22, column: 9 });
  });

  test('a missing property is reported at the object that lacks it', () => {
    const source = text(invalid('schema-invalid.yaml'));
    expect(locateInText(source, ['paths', '/notes', 'get', 'parameters', '0', 'in'])).toEqual({ line: 13, column: 11 });
    expect(locateInText(source, ['paths', '/notes', 'get', 'responses', '200', 'description'])).toEqual({ line: 17, column: 9 });
  });

  test('works on JSON text', () => {
    const source = text(valid('openapi-3.1.json'));
    expect(locateInText(source, ['paths', '/notes/{note_id}', 'get', 'operationId'])).toEqual({ line: 18, column: 9 });
  });
});

describe('SourceSet', () => {
  const multi = valid('multi-file');

  test('crawl reads the root and every file its $refs reach, sorted, with sha256 of the bytes', () => {
    const sources = new SourceSet(join(multi, 'openapi.yaml'));
    expect(sources.crawl()).toEqual([]);
    const files = [join(multi, 'components/note.yaml'), join(multi, 'components/tag.yaml'), join(multi, 'openapi.yaml')];
    expect(sources.all.map((f) => f.path)).toEqual(files);
    for (const file of sources.all) {
      expect(file.hash).toBe(createHash('sha256').update(readFileSync(file.path)).digest('hex'));
      expect(file.value).toEqual(parseYaml(text(file.path)));
    }
    expect(sources.root).toBe(join(multi, 'openapi.yaml'));
  });

  test('read: a missing root is SPEC_NOT_FOUND, a missing $ref target is SPEC_REF_FILE_NOT_FOUND at the $ref', () => {
    const sources = new SourceSet(join(multi, 'openapi.yaml'));
    const missing = join(multi, 'nope.yaml');
    expect(sources.read(missing)).toMatchObject({ code: 'SPEC_NOT_FOUND', file: missing });
    const at = { file: join(multi, 'openapi.yaml'), pointer: '#/x/$ref', line: 4, column: 2 };
    expect(sources.read(missing, () => at)).toMatchObject({ code: 'SPEC_REF_FILE_NOT_FOUND', ...at });
  });

  test('locateBundled follows external $refs into the file where the bundled pointer really is', () => {
    const sources = new SourceSet(join(multi, 'openapi.yaml'));
    sources.crawl();
    expect(sources.locateBundled('#/paths/~1notes/get/responses/200/description')).toEqual({
      file: join(multi, 'openapi.yaml'),
      pointer: '#/paths/~1notes/get/responses/200/description',
      line: 11,
      column: 11,
    });
    expect(sources.locateBundled(`${NOTES_200_SCHEMA}/items/properties/text`)).toEqual({
      file: join(multi, 'components/note.yaml'),
      pointer: '#/properties/text',
      line: 7,
      column: 3,
    });
    // Two hops: openapi.yaml → note.yaml → tag.yaml.
    expect(sources.locateBundled(`${NOTES_200_SCHEMA}/items/properties/tags/items/properties/name`)).toEqual({
      file: join(multi, 'components/tag.yaml'),
      pointer: '#/properties/name',
      line: 4,
      column: 3,
    });
  });

  test('a nested file with a YAML error referenced twice is reported once', () => {
    const root = invalid('multi-file-yaml-error/openapi.yaml');
    const problems = new SourceSet(root).crawl();
    expect(problems.map((p) => ({ code: p.code, file: p.file, line: p.line }))).toEqual([
      { code: 'SPEC_PARSE_ERROR', file: invalid('multi-file-yaml-error/components/note.yaml'), line: 8 },
    ]);
  });
});

describe('loadSpec: invalid fixtures', () => {
  test('a path that does not exist: SPEC_NOT_FOUND naming the absolute path', async () => {
    const file = invalid('does-not-exist.yaml');
    const problems = await loadProblems(file);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'SPEC_NOT_FOUND', file });
    expect(problems[0]!.message).toContain(file);
  });

  test('a relative path is resolved against the current directory', async () => {
    const problems = await loadProblems('no-such-dir/spec.yaml');
    expect(problems[0]).toMatchObject({ code: 'SPEC_NOT_FOUND', file: join(process.cwd(), 'no-such-dir/spec.yaml') });
  });

  test('yaml-syntax.yaml: SPEC_PARSE_ERROR, line 7', async () => {
    const problems = await loadProblems(invalid('yaml-syntax.yaml'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'SPEC_PARSE_ERROR', file: invalid('yaml-syntax.yaml'), line: 7 });
  });

  test('json-syntax.json: SPEC_PARSE_ERROR, line 7 column 3', async () => {
    const problems = await loadProblems(invalid('json-syntax.json'));
    expect(problems.map(where)).toEqual([
      { code: 'SPEC_PARSE_ERROR', file: invalid('json-syntax.json'), pointer: undefined, line: 7, column: 3 },
    ]);
  });

  test('not-an-object.yaml: SPEC_NOT_OBJECT in that file', async () => {
    const problems = await loadProblems(invalid('not-an-object.yaml'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'SPEC_NOT_OBJECT', file: invalid('not-an-object.yaml') });
  });

  test('not-an-object.yaml: located at the root (pointer "#") on line 3', async () => {
    const [problem] = await loadProblems(invalid('not-an-object.yaml'));
    expect(where(problem!)).toEqual({ code: 'SPEC_NOT_OBJECT', file: invalid('not-an-object.yaml'), pointer: '#', line: 3, column: 1 });
  });

  test('swagger-2.yaml: SPEC_SWAGGER_2 at #/swagger', async () => {
    const problems = await loadProblems(invalid('swagger-2.yaml'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'SPEC_SWAGGER_2', file: invalid('swagger-2.yaml'), pointer: '#/swagger' });
    expect(problems[0]!.message).toContain('2.0');
    expect(problems[0]!.hint).toContain('swagger2openapi');
  });

  test('swagger-2.yaml: #/swagger is on line 3, column 1', async () => {
    const [problem] = await loadProblems(invalid('swagger-2.yaml'));
    expect(where(problem!)).toEqual({ code: 'SPEC_SWAGGER_2', file: invalid('swagger-2.yaml'), pointer: '#/swagger', line: 3, column: 1 });
  });

  test('openapi-4.yaml: SPEC_UNSUPPORTED_VERSION at #/openapi, naming the version found', async () => {
    const problems = await loadProblems(invalid('openapi-4.yaml'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'SPEC_UNSUPPORTED_VERSION', file: invalid('openapi-4.yaml'), pointer: '#/openapi' });
    expect(problems[0]!.message).toContain('"4.0.0"');
  });

  test('openapi-4.yaml: #/openapi is on line 3, column 1', async () => {
    const [problem] = await loadProblems(invalid('openapi-4.yaml'));
    expect(where(problem!)).toEqual({
      code: 'SPEC_UNSUPPORTED_VERSION',
      file: invalid('openapi-4.yaml'),
      pointer: '#/openapi',
      line: 3,
      column: 1,
    });
  });

  test('no-openapi-field.yaml: SPEC_UNSUPPORTED_VERSION at #/openapi, saying the field is missing', async () => {
    const problems = await loadProblems(invalid('no-openapi-field.yaml'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'SPEC_UNSUPPORTED_VERSION', file: invalid('no-openapi-field.yaml'), pointer: '#/openapi' });
    expect(problems[0]!.message).toContain('no `openapi` field');
  });

  test('broken-ref.yaml: SPEC_REF_NOT_FOUND at the $ref, line 18 column 17', async () => {
    const problems = await loadProblems(invalid('broken-ref.yaml'));
    expect(problems.map(where)).toEqual([
      { code: 'SPEC_REF_NOT_FOUND', file: invalid('broken-ref.yaml'), pointer: `${NOTES_200_SCHEMA}/$ref`, line: 18, column: 17 },
    ]);
    expect(problems[0]!.message).toContain('#/components/schemas/Missing');
  });

  test('missing-file-ref.yaml: SPEC_REF_FILE_NOT_FOUND in the referencing file, at the $ref, line 18', async () => {
    const problems = await loadProblems(invalid('missing-file-ref.yaml'));
    expect(problems.map(where)).toEqual([
      { code: 'SPEC_REF_FILE_NOT_FOUND', file: invalid('missing-file-ref.yaml'), pointer: `${NOTES_200_SCHEMA}/$ref`, line: 18, column: 17 },
    ]);
    expect(problems[0]!.message).toContain(invalid('does-not-exist.yaml'));
  });

  test('percent-in-key.yaml: a "%" in a key does not break locating the pointer (SPEC_REF_NOT_FOUND, line 23)', async () => {
    const problems = await loadProblems(invalid('percent-in-key.yaml'));
    expect(problems.map(where)).toEqual([
      {
        code: 'SPEC_REF_NOT_FOUND',
        file: invalid('percent-in-key.yaml'),
        pointer: `${NOTES_200_SCHEMA}/properties/share%/$ref`,
        line: 23,
        column: 21,
      },
    ]);
  });

  test('multi-file-missing-file: SPEC_REF_FILE_NOT_FOUND in the nested file that holds the $ref', async () => {
    const problems = await loadProblems(invalid('multi-file-missing-file/openapi.yaml'));
    expect(problems.map(where)).toEqual([
      {
        code: 'SPEC_REF_FILE_NOT_FOUND',
        file: invalid('multi-file-missing-file/components/note.yaml'),
        pointer: '#/properties/tags/items/$ref',
        line: 11,
        column: 7,
      },
    ]);
    expect(problems[0]!.message).toContain(invalid('multi-file-missing-file/components/tag.yaml'));
  });

  test('multi-file-yaml-error: SPEC_PARSE_ERROR in the nested file, line 8', async () => {
    const problems = await loadProblems(invalid('multi-file-yaml-error/openapi.yaml'));
    expect(problems[0]).toMatchObject({
      code: 'SPEC_PARSE_ERROR',
      file: invalid('multi-file-yaml-error/components/note.yaml'),
      line: 8,
    });
    expect(problems.every((p) => p.file === invalid('multi-file-yaml-error/components/note.yaml'))).toBe(true);
  });

  test('multi-file-broken-ref: SPEC_REF_NOT_FOUND at the $ref in the nested file, line 11', async () => {
    const problems = await nodeProblems(invalid('multi-file-broken-ref/openapi.yaml'));
    expect(problems.map(where)).toEqual([
      {
        code: 'SPEC_REF_NOT_FOUND',
        file: invalid('multi-file-broken-ref/components/note.yaml'),
        pointer: '#/properties/tags/items/$ref',
        line: 11,
        column: 7,
      },
    ]);
    expect(problems[0]!.message).toContain('#/definitions/Tag');
  });

  describe('schema-invalid.yaml (SPEC_INVALID)', () => {
    let problems: Diagnostic[];
    beforeAll(async () => {
      problems = await nodeProblems(invalid('schema-invalid.yaml'));
    });

    test('every diagnostic is SPEC_INVALID in that file', () => {
      expect(problems.length).toBeGreaterThan(0);
      for (const problem of problems) expect(problem).toMatchObject({ code: 'SPEC_INVALID', file: invalid('schema-invalid.yaml') });
    });

    test('names the parameter without `in` (line 13) and the response without `description` (line 17)', () => {
      expect(problems).toContainEqual(
        expect.objectContaining({
          pointer: '#/paths/~1notes/get/parameters/0',
          line: 13,
          column: 11,
          message: 'missing required property "in"',
        }),
      );
      expect(problems).toContainEqual(
        expect.objectContaining({
          pointer: '#/paths/~1notes/get/responses/200',
          line: 17,
          column: 9,
          message: 'missing required property "description"',
        }),
      );
    });

    test('no flood of oneOf noise: at most 4 diagnostics', () => {
      expect(problems.length).toBeLessThanOrEqual(4);
    });

    test('exactly the two defects: nothing from oneOf branches that do not apply (e.g. "required" of a path parameter)', () => {
      expect(problems.map((p) => [p.pointer, p.message])).toEqual([
        ['#/paths/~1notes/get/parameters/0', 'missing required property "in"'],
        ['#/paths/~1notes/get/responses/200', 'missing required property "description"'],
      ]);
    });
  });

  test('multi-file-schema-invalid: SPEC_INVALID placed in the nested file at the bad `type`, line 9', async () => {
    const problems = await nodeProblems(invalid('multi-file-schema-invalid/openapi.yaml'));
    expect(problems.map(where)).toEqual([
      {
        code: 'SPEC_INVALID',
        file: invalid('multi-file-schema-invalid/components/note.yaml'),
        pointer: '#/properties/text/type',
        line: 9,
        column: 5,
      },
    ]);
  });
});

describe('security schemes as real specs write them', () => {
  const withScheme = (scheme: object) => ({
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    paths: {},
    components: { securitySchemes: { token: scheme } },
  });

  // Before: `scheme: Bearer` was eight errors, one from each oneOf branch, none of them right.
  test.each(['Bearer', 'BEARER', 'bearer'])('http scheme %s with bearerFormat is valid: scheme names are case-insensitive', async (scheme) => {
    expect(await validateOpenApi(withScheme({ type: 'http', scheme, bearerFormat: 'JWT' }))).toEqual([]);
  });

  test.each([
    { given: { type: 'http', scheme: 'bearer', extra: 1 }, want: 'unexpected property "extra"' },
    { given: { type: 'http' }, want: 'missing required property "scheme"' },
    { given: { type: 'apiKey', name: 'X-Key' }, want: 'missing required property "in"' },
  ])('a broken $given.type scheme gets only the complaint of its own type', async ({ given, want }) => {
    const problems = await validateOpenApi(withScheme(given));
    expect(problems.map((problem) => [problem.pointer, problem.message])).toEqual([['#/components/securitySchemes/token', want]]);
  });
});

describe('configuration problems', () => {
  test('resolveConfig on unknown-config-key.yaml: CONFIG_UNKNOWN_KEY at #/x-specforge/pagng, suggesting paging', () => {
    const file = invalid('unknown-config-key.yaml');
    const parsed = parseText(text(file), file);
    if (!parsed.ok) throw new Error('fixture must parse');
    let problems: Diagnostic[] = [];
    try {
      resolveConfig(parsed.value as Record<string, unknown>, file);
    } catch (error) {
      expect(error).toBeInstanceOf(SpecforgeError);
      problems = (error as SpecforgeError).diagnostics;
    }
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'CONFIG_UNKNOWN_KEY', file, pointer: '#/x-specforge/pagng' });
    expect(problems[0]!.message).toContain('did you mean "paging"?');
    expect(problems[0]!.hint).toContain('paging');
  });

  test('mergeSpec on unknown-config-key.yaml places the key in the file: line 8, column 3', async () => {
    const problems = await nodeProblems(invalid('unknown-config-key.yaml'), 'merge');
    expect(problems.map(where)).toEqual([
      { code: 'CONFIG_UNKNOWN_KEY', file: invalid('unknown-config-key.yaml'), pointer: '#/x-specforge/pagng', line: 8, column: 3 },
    ]);
    expect(problems[0]!.message).toContain('did you mean "paging"?');
  });

  test('mergeSpec on unknown-config-value.yaml: CONFIG_INVALID_VALUE at #/x-specforge/paging/style, line 10', async () => {
    const problems = await nodeProblems(invalid('unknown-config-value.yaml'), 'merge');
    expect(problems.map(where)).toEqual([
      {
        code: 'CONFIG_INVALID_VALUE',
        file: invalid('unknown-config-value.yaml'),
        pointer: '#/x-specforge/paging/style',
        line: 10,
        column: 5,
      },
    ]);
    expect(problems[0]!.message).toContain('"cursor", "offset"');
    expect(problems[0]!.message).toContain('"pages"');
  });
});

describe('loadSpec: valid fixtures', () => {
  test.each(['minimal.yaml', 'enveloped.yaml', 'openapi-3.1.json'])('%s loads unchanged, as its only source', async (name) => {
    const file = valid(name);
    const result = await loadInNode(file);
    expect(result.diagnostics).toBeUndefined();
    expect(result.files).toEqual([file]);
    const parsed = parseText(text(file), file);
    expect(parsed.ok).toBe(true);
    expect(result.document).toEqual((parsed as { value: unknown }).value);
  });

  describe('multi-file', () => {
    const dir = valid('multi-file');
    let result: Awaited<ReturnType<typeof loadInNode>>;
    beforeAll(async () => {
      result = await loadInNode(join(dir, 'openapi.yaml'));
    });

    test('loads without problems; every file is an input', () => {
      expect(result.diagnostics).toBeUndefined();
      expect(result.files).toEqual([join(dir, 'components/note.yaml'), join(dir, 'components/tag.yaml'), join(dir, 'openapi.yaml')]);
    });

    test('bundles into one document: no $ref points at another file', () => {
      const refs = JSON.stringify(result.document).match(/"\$ref":"[^"]*"/g) ?? [];
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of refs) expect(ref).toMatch(/^"\$ref":"#\//);
    });

    test('the external schema is components.schemas.Note, named after its file, and both paths use it', () => {
      const document = result.document as any;
      const note = document.components.schemas.Note;
      expect(note).toBeDefined();
      const expected = parseYaml(text(join(dir, 'components/note.yaml')));
      const tag = parseYaml(text(join(dir, 'components/tag.yaml')));
      // tag.yaml is either inlined into Note or hoisted as its own component; either way it is tag.yaml's schema.
      const tagsItems = note.properties.tags.items;
      const resolvedTag = tagsItems.$ref ? document.components.schemas[tagsItems.$ref.replace('#/components/schemas/', '')] : tagsItems;
      expect(resolvedTag).toEqual(tag);
      expect({ ...note, properties: { ...note.properties, tags: { ...note.properties.tags, items: tag } } }).toEqual({
        ...expected,
        properties: { ...expected.properties, tags: { ...expected.properties.tags, items: tag } },
      });
      expect(document.paths['/notes'].get.responses['200'].content['application/json'].schema).toEqual({
        type: 'array',
        items: { $ref: '#/components/schemas/Note' },
      });
      expect(document.paths['/notes/{note_id}'].get.responses['200'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/Note',
      });
    });
  });
});

describe('ref roots: where a $ref may lead', () => {
  const scratch = () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'specforge-refroot-')));
    return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  };

  test('refKind tells a place in the file, a relative file, an absolute path or file: URL, and a remote URL apart', () => {
    expect(['#/components/schemas/A', 'note.yaml#/A', '../x.yaml', '%2Fetc%2Fpasswd'].map(refKind)).toEqual(['local', 'relative', 'relative', 'relative']);
    expect(['/etc/passwd', 'file:///etc/passwd', 'FILE:/etc/passwd', 'C:\\x.yaml', 'c:/x.yaml', '\\\\host\\share'].map(refKind)).toEqual(Array(6).fill('absolute'));
    expect(['https://example.com/a.yaml', 'http://x', 'urn:x'].map(refKind)).toEqual(['remote', 'remote', 'remote']);
  });

  test('isInside: the folder itself and below it, never a sibling sharing a prefix or a parent', () => {
    expect(isInside('/a/spec', '/a/spec')).toBe(true);
    expect(isInside('/a/spec', '/a/spec/..note.yaml')).toBe(true);
    expect(isInside('/a/spec', '/a/spec/sub/x.yaml')).toBe(true);
    expect(isInside('/a/spec', '/a/spec-other/x.yaml')).toBe(false);
    expect(isInside('/a/spec', '/a/x.yaml')).toBe(false);
    expect(isInside('/a/spec', '/etc/passwd')).toBe(false);
  });

  test("the default root is the spec's folder, or the git repository it is in; --ref-root adds a folder", () => {
    const { dir, cleanup } = scratch();
    try {
      mkdirSync(join(dir, 'plain/api'), { recursive: true });
      mkdirSync(join(dir, 'repo/.git'), { recursive: true });
      mkdirSync(join(dir, 'repo/specs/api'), { recursive: true });
      expect(refRootsOf(join(dir, 'plain/api/openapi.yaml'))).toEqual([join(dir, 'plain/api')]);
      expect(refRootsOf(join(dir, 'repo/specs/api/openapi.yaml'))).toEqual([join(dir, 'repo')]);
      expect(refRootsOf(join(dir, 'plain/api/openapi.yaml'), join(dir, 'plain'))).toEqual([join(dir, 'plain/api'), join(dir, 'plain')]);
    } finally {
      cleanup();
    }
  });

  test('mayReference follows symlinks (a link inside the root to a folder outside it is outside), and places missing files by their folder', () => {
    const { dir, cleanup } = scratch();
    try {
      mkdirSync(join(dir, 'spec/real'), { recursive: true });
      mkdirSync(join(dir, 'neighbour'));
      writeFileSync(join(dir, 'neighbour/secret.txt'), 'x');
      writeFileSync(join(dir, 'spec/real/note.yaml'), 'x');
      symlinkSync(join(dir, 'neighbour'), join(dir, 'spec/out-link'));
      symlinkSync(join(dir, 'spec/real'), join(dir, 'spec/in-link'));
      const roots = [join(dir, 'spec')];
      expect(mayReference(roots, join(dir, 'spec/real/note.yaml'))).toBe(true);
      expect(mayReference(roots, join(dir, 'spec/in-link/note.yaml'))).toBe(true);
      expect(mayReference(roots, join(dir, 'spec/missing/note.yaml'))).toBe(true);
      expect(mayReference(roots, join(dir, 'spec/out-link/secret.txt'))).toBe(false);
      expect(mayReference(roots, join(dir, 'spec/out-link/missing.yaml'))).toBe(false);
      expect(mayReference(roots, join(dir, 'spec/../neighbour/secret.txt'))).toBe(false);
    } finally {
      cleanup();
    }
  });

  test('the crawl reports a $ref outside the root at the $ref and reads nothing there', () => {
    const { dir, cleanup } = scratch();
    try {
      mkdirSync(join(dir, 'spec'));
      mkdirSync(join(dir, 'shared'));
      writeFileSync(join(dir, 'shared/note.yaml'), 'type: object\n');
      writeFileSync(join(dir, 'spec/openapi.yaml'), 'openapi: 3.0.3\nx:\n  $ref: ../shared/note.yaml\n');
      const sources = new SourceSet(join(dir, 'spec/openapi.yaml'));
      expect(sources.crawl().map(where)).toEqual([
        { code: 'SPEC_REF_OUTSIDE_ROOT', file: join(dir, 'spec/openapi.yaml'), pointer: '#/x/$ref', line: 3, column: 3 },
      ]);
      expect(sources.get(join(dir, 'shared/note.yaml'))).toBeUndefined();
      const widened = new SourceSet(join(dir, 'spec/openapi.yaml'), { refRoot: dir });
      expect(widened.crawl()).toEqual([]);
      expect(widened.all.map((file) => file.path)).toEqual([join(dir, 'shared/note.yaml'), join(dir, 'spec/openapi.yaml')]);
    } finally {
      cleanup();
    }
  });
});

describe('shape limits, checked right after parsing', () => {
  const nested = (levels: number) => {
    let value: unknown = {};
    for (let i = 0; i < levels; i++) value = { a: value };
    return value;
  };

  test(`MAX_DEPTH (${MAX_DEPTH}) is far above the deepest real spec (GitHub's, 21 levels)`, () => {
    expect(MAX_DEPTH).toBeGreaterThanOrEqual(10 * 21);
  });

  test('a document exactly MAX_DEPTH deep passes; one level more is SPEC_TOO_DEEP at the level past the limit', () => {
    expect(shapeProblem(nested(MAX_DEPTH - 1), 'spec.json', 10_000)).toBeUndefined();
    const problem = shapeProblem(nested(MAX_DEPTH + 1), 'spec.json', 10_000);
    expect(problem).toMatchObject({ code: 'SPEC_TOO_DEEP', file: 'spec.json', pointer: '#' + '/a'.repeat(MAX_DEPTH) });
  });

  test('100,000 levels: no stack overflow, in JSON and in YAML text', () => {
    const levels = 100_000;
    expect(parseText(`{"x": ${'['.repeat(levels)}${']'.repeat(levels)}}`, 'deep.json')).toMatchObject({ ok: false, problem: { code: 'SPEC_TOO_DEEP' } });
    expect(parseText(`x: ${'['.repeat(levels)}${']'.repeat(levels)}\n`, 'deep.yaml')).toMatchObject({ ok: false, problem: { code: 'SPEC_TOO_DEEP' } });
  });

  test('a key with a NUL is SPEC_NUL_CHARACTER at the object holding it, with its line', () => {
    expect(parseText('{\n  "paths": {\n    "/a\\u0000": {}\n  }\n}', 'nul.json')).toMatchObject({
      ok: false,
      problem: { code: 'SPEC_NUL_CHARACTER', pointer: '#/paths', line: 2 },
    });
  });

  test('YAML aliases: honest sharing passes, an expansion far beyond the text is SPEC_ALIAS_EXPANSION', () => {
    const shared = 'a: &e {type: object, properties: {code: {type: string}}}\nb: *e\nc: *e\n';
    expect(parseText(shared, 'ok.yaml')).toMatchObject({ ok: true });
    let bomb = 'a: &a [x, x, x, x, x, x, x, x, x, x]\n';
    for (const [name, previous] of [['b', 'a'], ['c', 'b'], ['d', 'c'], ['e', 'd'], ['f', 'e']]) bomb += `${name}: &${name} [${Array(10).fill('*' + previous).join(', ')}]\n`;
    expect(parseText(bomb, 'bomb.yaml')).toMatchObject({ ok: false, problem: { code: 'SPEC_ALIAS_EXPANSION', file: 'bomb.yaml' } });
  });

  test('decodeText: NUL in the text and bytes that are not UTF-8 are placed at their line', () => {
    expect(decodeText(Buffer.from('a: 1\nb: "x\u0000"\n'), 'f.yaml')).toMatchObject({ ok: false, problem: { code: 'SPEC_NUL_CHARACTER', line: 2, column: 6 } });
    expect(decodeText(Buffer.from([0x61, 0x3a, 0x0a, 0x62, 0x3a, 0x20, 0xe9, 0x0a]), 'f.yaml')).toMatchObject({ ok: false, problem: { code: 'SPEC_NOT_UTF8', line: 2 } });
  });

  // Before: a JSON file saved with a BOM (Dialogporten's swagger.verified.json) was SPEC_PARSE_ERROR with no position.
  test('decodeText: a leading byte-order mark is dropped, in JSON and YAML alike; one later in the text is kept', () => {
    expect(decodeText(Buffer.from('\ufeff{"a": 1}'), 'f.json')).toEqual({ ok: true, text: '{"a": 1}' });
    expect(decodeText(Buffer.from('\ufeffa: 1\n'), 'f.yaml')).toEqual({ ok: true, text: 'a: 1\n' });
    expect(decodeText(Buffer.from('a: "\ufeff"\n'), 'f.yaml')).toEqual({ ok: true, text: 'a: "\ufeff"\n' });
  });

  test('sizeProblem: the file and the files read before it count together', () => {
    expect(sizeProblem('a.json', MAX_SPEC_BYTES, 0)).toBeUndefined();
    expect(sizeProblem('a.json', MAX_SPEC_BYTES, 1)).toMatchObject({ code: 'SPEC_TOO_LARGE', file: 'a.json' });
  });
});

describe('nodeVersionProblem', () => {
  test('older than the range: one line naming both; as new or newer: nothing', () => {
    expect(nodeVersionProblem('18.19.0', '>=20.11')).toBe(
      'specforge needs Node.js >=20.11; this is 18.19.0. Install a newer Node.js (e.g. the current LTS) and run it again.',
    );
    expect(nodeVersionProblem('20.10.9', '>=20.11')).toMatch(/^specforge needs Node\.js >=20\.11; this is 20\.10\.9\./);
    expect(['20.11.0', '20.11.1', '20.19.0', '22.0.0', '24.3.1'].map((v) => nodeVersionProblem(v, '>=20.11'))).toEqual(Array(5).fill(undefined));
  });

  test("the range is package.json's engines.node", () => {
    expect(requiredNodeRange()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.node);
  });
});
