/**
 * `specforge lint` as a user runs it: one fixture pair per rule (the rule
 * fires on `fires.yaml`, and `quiet.yaml`, the same API corrected, is clean
 * of every rule), the JSON and text reports, exit codes, `--strict`, the
 * `x-specforge.lint` configuration, lint inside `generate`, and a run over
 * GitHub's 13 MB spec. Runs the compiled CLI (`npm run build` first).
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIAGNOSTIC_CATALOG, type DiagnosticCode } from '../../src/diagnostics.js';
import { ROOT, runCli, scratchDir, type CliResult } from '../helpers.js';

interface JsonDiagnostic {
  code: string;
  severity: string;
  message: string;
  hint: string;
  file: string;
  pointer: string;
  line: number;
  column: number;
}

interface JsonReport {
  diagnostics: JsonDiagnostic[];
  summary: { errors: number; warnings: number };
}

const LINT = 'test/fixtures/lint';
const fixture = (name: string) => `${LINT}/${name}`;
const STACK_LINE = /^\s+at .+/m;

async function lintJson(spec: string, extra: string[] = []): Promise<{ result: CliResult; report: JsonReport }> {
  const result = await runCli(['lint', spec, '--format', 'json', ...extra]);
  let report: JsonReport;
  try {
    report = JSON.parse(result.stdout) as JsonReport;
  } catch {
    throw new Error(`lint ${spec} printed no JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
  return { result, report };
}

/** What a finding is expected to say and where. */
interface Expected {
  pointer: string;
  line: number;
  column: number;
  /** Part of the message. */
  says: string;
}

interface RuleCase {
  code: DiagnosticCode;
  severity: 'error' | 'warning';
  /** Every finding fires.yaml must give, in report order (file, then line). */
  findings: Expected[];
}

const RULE_CASES: RuleCase[] = [
  {
    code: 'LINT_PATH_VERB',
    severity: 'warning',
    findings: [{ pointer: '#/paths/~1create-book', line: 18, column: 3, says: '"create-book" is an action' }],
  },
  {
    code: 'LINT_COLLECTION_SINGULAR',
    severity: 'warning',
    findings: [
      { pointer: '#/paths/~1book', line: 6, column: 3, says: 'collection "book" is not a plural noun' },
      { pointer: '#/paths/~1book~1{book_id}', line: 18, column: 3, says: 'collection "book" is not a plural noun' },
    ],
  },
  {
    code: 'LINT_PATH_CASING',
    severity: 'warning',
    findings: [{ pointer: '#/paths/~1readingLists', line: 34, column: 3, says: `"readingLists" is camelCase; this spec's paths are kebab-case` }],
  },
  {
    code: 'LINT_PATH_SHAPE',
    severity: 'warning',
    findings: [
      { pointer: '#/paths/~1books~1', line: 6, column: 3, says: 'ends with a slash' },
      { pointer: '#/paths/~1authors~1~1books', line: 18, column: 3, says: 'empty segment' },
    ],
  },
  {
    code: 'LINT_VERSION_SEGMENT',
    severity: 'error',
    findings: [
      { pointer: '#/paths/~1v2~1books~1{book_id}', line: 18, column: 3, says: 'v2 here, v1 in most paths' },
      { pointer: '#/paths/~1api~1v0~1authors', line: 34, column: 3, says: '"v0" is not a version segment of the form v<N>' },
    ],
  },
  {
    code: 'LINT_OPERATION_ID',
    severity: 'warning',
    findings: [
      { pointer: '#/paths/~1books/get', line: 7, column: 5, says: 'has no operationId' },
      { pointer: '#/paths/~1books~1{book_id}/get/operationId', line: 26, column: 7, says: 'operationId "get book" is not URL-safe' },
    ],
  },
  {
    code: 'LINT_OPERATION_ID_DUPLICATE',
    severity: 'error',
    findings: [{ pointer: '#/paths/~1books~1{book_id}/get/operationId', line: 26, column: 7, says: 'operationId "books" is also used by GET /books' }],
  },
  {
    // Both variants pass swagger-parser's validation: a parameter declared on a path without it, and a template parameter never declared.
    code: 'LINT_PATH_PARAMETER',
    severity: 'error',
    findings: [
      { pointer: '#/paths/~1books/get', line: 7, column: 5, says: 'path parameter "book_id" is declared but not in the path' },
      { pointer: '#/paths/~1books~1{book_id}/get', line: 25, column: 5, says: 'path parameter {book_id} is not declared' },
    ],
  },
  {
    code: 'LINT_LIST_NOT_ARRAY',
    severity: 'warning',
    findings: [{ pointer: '#/paths/~1books/get/responses/200', line: 10, column: 9, says: 'its body is an array of items' }],
  },
  {
    code: 'LINT_MEDIA_NOT_SERVED',
    severity: 'warning',
    findings: [{ pointer: '#/paths/~1documents/post', line: 7, column: 5, says: 'takes a form or a file' }],
  },
  {
    code: 'LINT_MEDIA_UNSUPPORTED',
    severity: 'warning',
    findings: [{ pointer: '#/paths/~1documents/post/requestBody', line: 9, column: 7, says: 'takes application/xml, which the service does not parse' }],
  },
  {
    code: 'LINT_FIELD_CASING',
    severity: 'warning',
    findings: [
      { pointer: '#/paths/~1books/get/parameters/0', line: 10, column: 11, says: 'query parameter "authorName" is not snake_case' },
      // Response bodies are bodies too: the conventions' own snake_case examples (has_more, request_id) are response fields.
      { pointer: '#/components/schemas/Book/properties/publishedAt', line: 45, column: 9, says: 'body field "publishedAt" is not snake_case' },
      { pointer: '#/components/schemas/BookInput/properties/publishedAt', line: 55, column: 9, says: 'body field "publishedAt" is not snake_case' },
    ],
  },
  {
    code: 'LINT_CLOSED_ALLOF',
    severity: 'warning',
    findings: [{ pointer: '#/components/schemas/Dog/allOf/0', line: 22, column: 11, says: 'allOf branch "Pet" has additionalProperties: false and refuses "bark"' }],
  },
  {
    code: 'LINT_UNBOUNDED_INPUT',
    severity: 'warning',
    findings: [
      {
        pointer: '#/paths/~1books~1{book_id}~1reviews/post/requestBody/content/application~1json/schema/properties/rating',
        line: 38,
        column: 17,
        says: 'a number without maximum',
      },
      { pointer: '#/components/schemas/BookInput/properties/title', line: 53, column: 9, says: 'a string without maxLength' },
      { pointer: '#/components/schemas/BookInput/properties/tags', line: 61, column: 9, says: 'an array without maxItems' },
      { pointer: '#/components/schemas/BookInput/properties/pages', line: 66, column: 9, says: 'an integer without maximum' },
    ],
  },
  {
    code: 'LINT_SECURITY_SCHEME',
    severity: 'warning',
    findings: [{ pointer: '#/components/securitySchemes/basic_auth', line: 22, column: 5, says: 'scheme "basic_auth" is neither Bearer' }],
  },
  {
    code: 'LINT_QUERY_KEY_SCHEME',
    severity: 'error',
    findings: [{ pointer: '#/components/securitySchemes/api_key', line: 22, column: 5, says: 'scheme "api_key" takes its key from the query string' }],
  },
  {
    code: 'LINT_CREDENTIAL_IN_QUERY',
    severity: 'warning',
    findings: [{ pointer: '#/paths/~1books/get/parameters/0', line: 10, column: 11, says: 'query parameter "access_token" looks like a credential' }],
  },
  {
    code: 'LINT_CONVENTION_PARAMETER',
    severity: 'warning',
    findings: [
      { pointer: '#/paths/~1books/get/parameters/1', line: 14, column: 11, says: '"limit" belongs to the conventions (it has no maximum)' },
      { pointer: '#/paths/~1books~1{book_id}/get/parameters/0', line: 38, column: 11, says: '"fields" belongs to the conventions' },
    ],
  },
  {
    code: 'LINT_CONVENTION_ERROR_BODY',
    severity: 'warning',
    findings: [{ pointer: '#/paths/~1books~1{book_id}/get/responses/404', line: 22, column: 9, says: 'the 404 body is not the error envelope' }],
  },
];

const ERROR_RULES = RULE_CASES.filter((c) => c.severity === 'error').map((c) => c.code);

describe('one fixture pair per rule', () => {
  test('the table covers every LINT_ code of the catalog, each with a fixture pair', () => {
    const catalogued = Object.keys(DIAGNOSTIC_CATALOG).filter((code) => code.startsWith('LINT_')).sort();
    expect(RULE_CASES.map((c) => c.code).sort()).toEqual(catalogued);
    expect(catalogued).toHaveLength(19);
    for (const { code } of RULE_CASES) {
      expect(existsSync(join(ROOT, fixture(`${code}/fires.yaml`)))).toBe(true);
      expect(existsSync(join(ROOT, fixture(`${code}/quiet.yaml`)))).toBe(true);
    }
  });

  const reports = new Map<string, Awaited<ReturnType<typeof lintJson>>>();
  beforeAll(async () => {
    await Promise.all(
      RULE_CASES.flatMap(({ code }) =>
        ['fires', 'quiet'].map(async (variant) => reports.set(`${code}/${variant}`, await lintJson(fixture(`${code}/${variant}.yaml`)))),
      ),
    );
  });

  describe.each(RULE_CASES)('$code ($severity)', ({ code, severity, findings }) => {
    test('fires.yaml: the rule fires, at each expected pointer, line and column, and no other rule does', () => {
      const { report } = reports.get(`${code}/fires`)!;
      expect(report.diagnostics.map((d) => ({ code: d.code, pointer: d.pointer, line: d.line, column: d.column }))).toEqual(
        findings.map(({ pointer, line, column }) => ({ code, pointer, line, column })),
      );
      report.diagnostics.forEach((d, i) => {
        expect(d.message).toContain(findings[i]!.says);
        expect(d.severity).toBe(severity);
        expect(d.hint).toBe(DIAGNOSTIC_CATALOG[code]);
        expect(d.file).toBe(join(ROOT, fixture(`${code}/fires.yaml`)));
      });
    });

    test(`fires.yaml: summary counts and exit ${severity === 'error' ? 1 : 0}`, () => {
      const { result, report } = reports.get(`${code}/fires`)!;
      const n = findings.length;
      expect(report.summary).toEqual(severity === 'error' ? { errors: n, warnings: 0 } : { errors: 0, warnings: n });
      expect(result.code).toBe(severity === 'error' ? 1 : 0);
      expect(result.stderr).toBe('');
    });

    test('quiet.yaml (the same API, corrected): no diagnostics from any rule, exit 0', () => {
      const { result, report } = reports.get(`${code}/quiet`)!;
      expect(report).toEqual({ diagnostics: [], summary: { errors: 0, warnings: 0 } });
      expect(result.code).toBe(0);
    });
  });
});

describe('--format json', () => {
  test('the shape: { diagnostics: [{ code, severity, message, hint, file, pointer, line, column }], summary: { errors, warnings } }', async () => {
    const { result, report } = await lintJson(fixture('LINT_PATH_VERB/fires.yaml'));
    expect(Object.keys(report).sort()).toEqual(['diagnostics', 'summary']);
    expect(Object.keys(report.summary).sort()).toEqual(['errors', 'warnings']);
    expect(report.diagnostics).toEqual([
      {
        code: 'LINT_PATH_VERB',
        severity: 'warning',
        message: '"create-book" is an action: paths name resources (nouns), the method says what to do',
        hint: DIAGNOSTIC_CATALOG.LINT_PATH_VERB,
        file: join(ROOT, fixture('LINT_PATH_VERB/fires.yaml')),
        pointer: '#/paths/~1create-book',
        line: 18,
        column: 3,
      },
    ]);
    // Nothing but the JSON document on stdout (no progress), nothing on stderr.
    expect(result.stdout.trim().startsWith('{')).toBe(true);
    expect(result.stdout.endsWith('}\n')).toBe(true);
    expect(result.stderr).toBe('');
  });

  test('diagnostics are sorted by location (file, then line)', async () => {
    const { report } = await lintJson(fixture('LINT_UNBOUNDED_INPUT/fires.yaml'));
    const lines = report.diagnostics.map((d) => d.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(lines).toEqual([38, 53, 61, 66]);
  });

  test('a spec that does not load: the load diagnostic in the same JSON shape, exit 1', async () => {
    const { result, report } = await lintJson('test/fixtures/invalid/broken-ref.yaml');
    expect(result.code).toBe(1);
    expect(report.summary).toEqual({ errors: 1, warnings: 0 });
    expect(report.diagnostics).toEqual([
      expect.objectContaining({ code: 'SPEC_REF_NOT_FOUND', severity: 'error', line: 18, column: 17 }),
    ]);
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  test('a missing spec file: SPEC_NOT_FOUND, exit 1', async () => {
    const { result, report } = await lintJson(fixture('does-not-exist.yaml'));
    expect(result.code).toBe(1);
    expect(report.diagnostics.map((d) => d.code)).toEqual(['SPEC_NOT_FOUND']);
  });
});

describe('text output', () => {
  test('grouped under the file, each finding with line:col, severity, code, message, then pointer and fix; summary line', async () => {
    const result = await runCli(['lint', fixture('LINT_PATH_VERB/fires.yaml')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'test/fixtures/lint/LINT_PATH_VERB/fires.yaml',
        '  18:3     warning  LINT_PATH_VERB  "create-book" is an action: paths name resources (nouns), the method says what to do',
        `           #/paths/~1create-book  fix: ${DIAGNOSTIC_CATALOG.LINT_PATH_VERB}`,
        '',
        '0 errors, 1 warning',
        '',
      ].join('\n'),
    );
  });

  test('errors: sorted by line, "2 errors, 0 warnings", exit 1', async () => {
    const result = await runCli(['lint', fixture('LINT_VERSION_SEGMENT/fires.yaml')]);
    expect(result.code).toBe(1);
    const findings = result.stdout.split('\n').filter((line) => /^ {2}\d+:\d+ /.test(line));
    expect(findings.map((line) => line.trim().split(/\s+/).slice(0, 3))).toEqual([
      ['18:3', 'error', 'LINT_VERSION_SEGMENT'],
      ['34:3', 'error', 'LINT_VERSION_SEGMENT'],
    ]);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('2 errors, 0 warnings');
  });

  test('a clean spec: "No problems found.", exit 0', async () => {
    const result = await runCli(['lint', fixture('LINT_PATH_VERB/quiet.yaml')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('No problems found.\n');
  });

  test('findings in several files: one group per file (relative to cwd), each sorted by line', async () => {
    const result = await runCli(['lint', fixture('multi-file/openapi.yaml')]);
    expect(result.code).toBe(0);
    const groups = result.stdout.split('\n\n').map((group) => group.split('\n').filter(Boolean));
    expect(groups.map((group) => group[0])).toEqual([
      'test/fixtures/lint/multi-file/openapi.yaml',
      'test/fixtures/lint/multi-file/schemas/book-input.yaml',
      '0 errors, 2 warnings',
    ]);
    expect(groups[0]![1]).toMatch(/^ {2}21:3 +warning {2}LINT_PATH_VERB {2}"create-book" is an action/);
    expect(groups[1]![1]).toMatch(/^ {2}4:3 +warning {2}LINT_UNBOUNDED_INPUT {2}a string without maxLength$/);
    expect(groups[1]![2]).toMatch(/^ +#\/properties\/title {2}fix: /);
  });

  test('a schema in another file that the bundler hoisted (used twice) is still reported in that file, at its own line', async () => {
    // book-input.yaml is referenced twice, so the loader moves it to #/components/schemas/BookInput;
    // the finding belongs to schemas/book-input.yaml:4 (`title:`), not to openapi.yaml:1:1.
    const { report } = await lintJson(fixture('multi-file-shared/openapi.yaml'));
    const unbounded = report.diagnostics.filter((d) => d.code === 'LINT_UNBOUNDED_INPUT');
    expect(unbounded.map(({ file, pointer, line, column }) => ({ file, pointer, line, column }))).toEqual([
      { file: join(ROOT, fixture('multi-file-shared/schemas/book-input.yaml')), pointer: '#/properties/title', line: 4, column: 3 },
    ]);
  });
});

describe('exit codes and --strict', () => {
  test.each(ERROR_RULES)('%s (an error): exit 1 with or without --strict', async (code) => {
    expect((await runCli(['lint', fixture(`${code}/fires.yaml`)])).code).toBe(1);
    expect((await runCli(['lint', fixture(`${code}/fires.yaml`), '--strict'])).code).toBe(1);
  });

  test('warnings only: exit 0; with --strict: exit 1, every finding an error', async () => {
    const plain = await lintJson(fixture('LINT_UNBOUNDED_INPUT/fires.yaml'));
    expect(plain.result.code).toBe(0);
    expect(plain.report.summary).toEqual({ errors: 0, warnings: 4 });

    const strict = await lintJson(fixture('LINT_UNBOUNDED_INPUT/fires.yaml'), ['--strict']);
    expect(strict.result.code).toBe(1);
    expect(strict.report.summary).toEqual({ errors: 4, warnings: 0 });
    expect(strict.report.diagnostics.map((d) => d.severity)).toEqual(['error', 'error', 'error', 'error']);
    expect(strict.report.diagnostics.map((d) => d.pointer)).toEqual(plain.report.diagnostics.map((d) => d.pointer));
  });

  test('--strict in text: the warnings print as errors, "1 error, 0 warnings", exit 1', async () => {
    const result = await runCli(['lint', fixture('LINT_PATH_VERB/fires.yaml'), '--strict']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^ {2}18:3 +error {4}LINT_PATH_VERB /m);
    expect(result.stdout).toContain('\n1 error, 0 warnings\n');
  });

  test('--strict on a clean spec: exit 0', async () => {
    const result = await runCli(['lint', fixture('LINT_PATH_VERB/quiet.yaml'), '--strict']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('No problems found.\n');
  });

  test('--format yaml is refused: exit 1, names the choices', async () => {
    const result = await runCli(['lint', fixture('LINT_PATH_VERB/quiet.yaml'), '--format', 'yaml']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('yaml');
    expect(result.stderr).toMatch(/"text", "json"/);
    expect(result.stdout).toBe('');
  });
});

describe('configuration: x-specforge.lint', () => {
  test('rules.<CODE>: off silences the rule for the whole API', async () => {
    const { result, report } = await lintJson(fixture('config/rule-off.yaml'));
    expect(report).toEqual({ diagnostics: [], summary: { errors: 0, warnings: 0 } });
    expect(result.code).toBe(0);
  });

  test('rules.<CODE>: error raises a warning rule to an error: exit 1', async () => {
    const { result, report } = await lintJson(fixture('config/rule-error.yaml'));
    expect(report.diagnostics.map((d) => [d.code, d.severity, d.pointer])).toEqual([['LINT_PATH_VERB', 'error', '#/paths/~1create-book']]);
    expect(report.summary).toEqual({ errors: 1, warnings: 0 });
    expect(result.code).toBe(1);
  });

  test('rules.<CODE>: warning lowers an error rule to a warning: exit 0', async () => {
    const { result, report } = await lintJson(fixture('config/rule-warning.yaml'));
    expect(report.diagnostics.map((d) => [d.code, d.severity])).toEqual([['LINT_QUERY_KEY_SCHEME', 'warning']]);
    expect(result.code).toBe(0);
  });

  test('per operation and per path item: off silences that operation only, error raises it there only', async () => {
    // GET /books: no setting (warning). POST /books: off on the operation. GET /books/{book_id}: off on the
    // path item. DELETE /books/{book_id}: error on the operation, over the path item's off.
    const { result, report } = await lintJson(fixture('config/operation-off.yaml'));
    expect(report.diagnostics.map((d) => [d.code, d.severity, d.pointer])).toEqual([
      ['LINT_OPERATION_ID', 'warning', '#/paths/~1books/get'],
      ['LINT_OPERATION_ID', 'error', '#/paths/~1books~1{book_id}/delete'],
    ]);
    expect(result.code).toBe(1);
  });

  test('a path rule turned off on a path item is silenced for that path only', async () => {
    const { report } = await lintJson(fixture('config/path-item-off-path-rule.yaml'));
    expect(report.diagnostics.map((d) => [d.code, d.pointer])).toEqual([['LINT_PATH_VERB', '#/paths/~1delete-book']]);
  });

  test('off on one operation does not hide a shared schema from another operation that uses it', async () => {
    // POST /books turns LINT_UNBOUNDED_INPUT off; PUT /books/{book_id} uses the same BookInput and does not.
    const { report } = await lintJson(fixture('config/shared-schema-operation-off.yaml'));
    expect(report.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ['LINT_UNBOUNDED_INPUT', '#/components/schemas/BookInput/properties/title'],
    ]);
  });

  test('plurals: [...] extends the plural dictionary (case-insensitively)', async () => {
    const without = await lintJson(fixture('config/no-plurals.yaml'));
    expect(without.report.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ['LINT_COLLECTION_SINGULAR', '#/paths/~1cacti'],
      ['LINT_COLLECTION_SINGULAR', '#/paths/~1cacti~1{cactus_id}'],
    ]);
    const withPlurals = await lintJson(fixture('config/plurals.yaml'));
    expect(withPlurals.report).toEqual({ diagnostics: [], summary: { errors: 0, warnings: 0 } });
    expect(withPlurals.result.code).toBe(0);
  });

  test.each([
    ['an unknown rule code', 'config/unknown-rule.yaml', 'LINT_NO_SUCH_RULE'],
    ['a setting other than off, warning or error', 'config/invalid-setting.yaml', '"of"'],
  ])('%s: CONFIG_INVALID_VALUE at #/x-specforge/lint/rules, exit 1', async (_name, spec, says) => {
    const { result, report } = await lintJson(fixture(spec));
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'CONFIG_INVALID_VALUE', severity: 'error', pointer: expect.stringMatching(/^#\/x-specforge\/lint\/rules/) }),
    );
    expect(report.diagnostics.find((d) => d.code === 'CONFIG_INVALID_VALUE')!.message).toContain(says);
    // No diagnostic carries a severity other than the two there are.
    for (const d of report.diagnostics) expect(['error', 'warning']).toContain(d.severity);
    expect(result.code).toBe(1);
  });
});

describe('lint inside generate', () => {
  let scratch: { dir: string; cleanup: () => void };
  beforeEach(() => {
    scratch = scratchDir();
  });
  afterEach(() => scratch.cleanup());

  test('an error-severity finding stops generate: exit 1, the diagnostic on stderr, --out not created', async () => {
    const out = join(scratch.dir, 'out');
    const result = await runCli(['generate', fixture('LINT_QUERY_KEY_SCHEME/fires.yaml'), '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('✘ LINT_QUERY_KEY_SCHEME  test/fixtures/lint/LINT_QUERY_KEY_SCHEME/fires.yaml:22:5  #/components/securitySchemes/api_key\n');
    expect(result.stderr).toMatch(/^1 error, 0 warnings$/m);
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(result.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  });

  test.each(ERROR_RULES)('%s fires.yaml: generate exits 1 and writes nothing', async (code) => {
    const out = join(scratch.dir, 'out');
    const result = await runCli(['generate', fixture(`${code}/fires.yaml`), '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`✘ ${code}  `);
    expect(existsSync(out)).toBe(false);
  });

  test('--no-lint: the same spec generates, exit 0, no lint diagnostics', async () => {
    const out = join(scratch.dir, 'out');
    const result = await runCli(['generate', fixture('LINT_QUERY_KEY_SCHEME/fires.yaml'), '--out', out, '--no-lint']);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('LINT_');
    expect(result.stderr).not.toMatch(/^ {2}lint /m);
    expect(existsSync(join(out, 'src/generated/types.ts'))).toBe(true);
  });

  test('warnings only: generate succeeds, prints each warning and "1 lint warning" on stderr', async () => {
    const out = join(scratch.dir, 'out');
    const result = await runCli(['generate', fixture('LINT_PATH_VERB/fires.yaml'), '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('⚠ LINT_PATH_VERB  test/fixtures/lint/LINT_PATH_VERB/fires.yaml:18:3  #/paths/~1create-book\n');
    expect(result.stderr).toContain('1 lint warning: `specforge lint test/fixtures/lint/LINT_PATH_VERB/fires.yaml` lists them all.');
    expect(readdirSync(out).length).toBeGreaterThan(0);
  });

  test('a clean spec: no lint warning line', async () => {
    const out = join(scratch.dir, 'out');
    const result = await runCli(['generate', fixture('LINT_PATH_VERB/quiet.yaml'), '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('lint warning');
  });

  test('the configuration applies in generate too: a warning raised to error stops it, an error lowered to warning does not', async () => {
    const raised = await runCli(['generate', fixture('config/rule-error.yaml'), '--out', join(scratch.dir, 'raised')]);
    expect(raised.code).toBe(1);
    expect(raised.stderr).toContain('✘ LINT_PATH_VERB  ');
    expect(existsSync(join(scratch.dir, 'raised'))).toBe(false);

    const lowered = await runCli(['generate', fixture('config/rule-warning.yaml'), '--out', join(scratch.dir, 'lowered')]);
    expect(lowered.code).toBe(0);
    expect(lowered.stderr).toContain('⚠ LINT_QUERY_KEY_SCHEME  ');
    expect(lowered.stderr).toContain('1 lint warning');
  });

  test('an unknown rule code in the configuration: generate exits 1 with CONFIG_INVALID_VALUE', async () => {
    const out = join(scratch.dir, 'out');
    const result = await runCli(['generate', fixture('config/unknown-rule.yaml'), '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('✘ CONFIG_INVALID_VALUE  test/fixtures/lint/config/unknown-rule.yaml:7:5  #/x-specforge/lint/rules');
    expect(result.stderr).toContain('LINT_NO_SUCH_RULE');
    expect(existsSync(out)).toBe(false);
  });
});

describe('the examples lint clean', () => {
  test.each(['examples/bookshop/openapi.yaml', 'examples/petstore/openapi.json'])('%s', async (spec) => {
    const { result, report } = await lintJson(spec);
    expect(report).toEqual({ diagnostics: [], summary: { errors: 0, warnings: 0 } });
    expect(result.code).toBe(0);
    const text = await runCli(['lint', spec, '--strict']);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe('No problems found.\n');
  });
});

describe("GitHub's spec (the benchmark's, 13 MB)", () => {
  const GITHUB = 'node_modules/@octokit/openapi/generated/api.github.com.json';

  test(
    'finishes, warnings only (exit 0), a sane number of findings, each placed in the file',
    async () => {
      const { result, report } = await lintJson(GITHUB);
      expect(result.code).toBe(0);
      expect(result.stderr).not.toContain('internal error');
      expect(report.summary.errors).toBe(0);
      // 2,853 when these tests were written (@octokit/openapi 23); most are operationIds with `/` (1,223)
      // and unbounded request-body fields (1,097).
      expect(report.summary.warnings).toBeGreaterThanOrEqual(2000);
      expect(report.summary.warnings).toBeLessThanOrEqual(4000);
      expect(report.diagnostics).toHaveLength(report.summary.warnings);

      const byCode = new Map<string, number>();
      for (const d of report.diagnostics) byCode.set(d.code, (byCode.get(d.code) ?? 0) + 1);
      // GitHub's operationIds are `scope/name`: `/` is not URL-safe, and every operation has one.
      expect(byCode.get('LINT_OPERATION_ID')).toBeGreaterThan(1000);
      for (const code of ['LINT_OPERATION_ID_DUPLICATE', 'LINT_PATH_PARAMETER', 'LINT_VERSION_SEGMENT', 'LINT_QUERY_KEY_SCHEME', 'LINT_PATH_SHAPE']) {
        expect(byCode.get(code) ?? 0).toBe(0);
      }
      for (const d of report.diagnostics) {
        expect(d.code.startsWith('LINT_')).toBe(true);
        expect(d.file).toBe(join(ROOT, GITHUB));
        expect(d.line).toBeGreaterThan(0);
        expect(d.pointer.startsWith('#/')).toBe(true);
      }
    },
    60_000,
  );
});

describe('placing findings', () => {
  test('a .yaml file in flow style is placed by the YAML parser, not the JSON scanner', async () => {
    const { dir, cleanup } = scratchDir();
    try {
      const spec = join(dir, 'flow.yaml');
      writeFileSync(spec, '{openapi: 3.0.3, info: {title: T, version: "1"},\n paths: {\n  /getThings: {get: {operationId: list_things, responses: {"200": {description: ok}}}}}}\n');
      const result = await runCli(['lint', spec, '--format', 'json']);
      const [finding] = (JSON.parse(result.stdout) as { diagnostics: { code: string; line: number }[] }).diagnostics;
      expect(finding).toMatchObject({ code: 'LINT_PATH_VERB', line: 3 });
    } finally {
      cleanup();
    }
  });
});
