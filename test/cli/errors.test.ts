/**
 * The CLI as a user sees it when something is wrong: exit codes, what is on
 * stdout and stderr, and that a failed run writes nothing. Runs the compiled
 * CLI (`npm run build` first).
 *
 * A diagnostic reads
 *   ✘ CODE  path/relative/to/cwd:line:col  #/pointer
 *     message
 *     fix: hint
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { DIAGNOSTIC_CATALOG, type DiagnosticCode } from '../../src/diagnostics.js';
import { CLI, FIXTURES, ROOT, runCli, scratchDir, type CliResult } from '../helpers.js';

const MINIMAL = 'test/fixtures/valid/minimal.yaml';
const NOTES_200_SCHEMA = '#/paths/~1notes/get/responses/200/content/application~1json/schema';
const STACK_LINE = /^\s+at .+/m;

interface Header {
  code: string;
  file: string | undefined;
  line: number | undefined;
  pointer: string | undefined;
}

/** Every `✘ CODE  file:line:col  #/pointer` line of stderr, taken apart. */
function headers(stderr: string): Header[] {
  const found: Header[] = [];
  for (const text of stderr.split('\n')) {
    const match = /^[✘⚠] (\S+)(?: {2}(.+?))?$/.exec(text);
    if (!match) continue;
    const parts = (match[2] ?? '').split('  ').filter(Boolean);
    const pointer = parts.find((part) => part.startsWith('#'));
    const location = parts.find((part) => !part.startsWith('#'));
    const at = location ? /^(.*?)(?::(\d+))?(?::(\d+))?$/.exec(location) : null;
    found.push({
      code: match[1]!,
      file: at?.[1],
      line: at?.[2] === undefined ? undefined : Number(at[2]),
      pointer,
    });
  }
  return found;
}

/** Runs with a fresh, not yet existing --out directory; gives the result and that directory. */
async function generateInto(spec: string, extra: string[] = [], options: { cwd?: string } = {}) {
  const scratch = scratchDir();
  const out = join(scratch.dir, 'out');
  try {
    const result = await runCli(['generate', spec, '--out', out, ...extra], options);
    return { result, out, outExists: existsSync(out), outEntries: existsSync(out) ? readdirSync(out) : [] };
  } finally {
    scratch.cleanup();
  }
}

function expectNoStackTrace(result: CliResult): void {
  expect(result.stderr).not.toMatch(STACK_LINE);
  expect(result.stdout).not.toMatch(STACK_LINE);
  expect(result.stderr).not.toContain('internal error');
}

interface ErrorCase {
  name: string;
  spec: string;
  /** Each diagnostic the run must print (others may follow). */
  expected: Header[];
  /** Something the message must say. */
  says?: string;
}

const invalid = (name: string) => `test/fixtures/invalid/${name}`;

const CASES: ErrorCase[] = [
  {
    name: 'missing spec file',
    spec: invalid('does-not-exist.yaml'),
    expected: [{ code: 'SPEC_NOT_FOUND', file: invalid('does-not-exist.yaml'), line: undefined, pointer: undefined }],
  },
  {
    name: 'YAML syntax error',
    spec: invalid('yaml-syntax.yaml'),
    expected: [{ code: 'SPEC_PARSE_ERROR', file: invalid('yaml-syntax.yaml'), line: 7, pointer: undefined }],
    says: 'Invalid YAML',
  },
  {
    name: 'JSON syntax error',
    spec: invalid('json-syntax.json'),
    expected: [{ code: 'SPEC_PARSE_ERROR', file: invalid('json-syntax.json'), line: 7, pointer: undefined }],
    says: 'Invalid JSON',
  },
  {
    name: 'truncated JSON',
    spec: invalid('json-truncated.json'),
    // The end of the input: line 8, or line 9 after the final newline.
    expected: [{ code: 'SPEC_PARSE_ERROR', file: invalid('json-truncated.json'), line: expect.any(Number), pointer: undefined }],
    says: 'Invalid JSON',
  },
  {
    name: 'not an object',
    spec: invalid('not-an-object.yaml'),
    expected: [{ code: 'SPEC_NOT_OBJECT', file: invalid('not-an-object.yaml'), line: 3, pointer: '#' }],
  },
  {
    name: 'Swagger 2.0',
    spec: invalid('swagger-2.yaml'),
    expected: [{ code: 'SPEC_SWAGGER_2', file: invalid('swagger-2.yaml'), line: 3, pointer: '#/swagger' }],
    says: 'swagger2openapi',
  },
  {
    name: 'openapi 4.0',
    spec: invalid('openapi-4.yaml'),
    expected: [{ code: 'SPEC_UNSUPPORTED_VERSION', file: invalid('openapi-4.yaml'), line: 3, pointer: '#/openapi' }],
    says: '4.0.0',
  },
  {
    name: 'no openapi field',
    spec: invalid('no-openapi-field.yaml'),
    expected: [{ code: 'SPEC_UNSUPPORTED_VERSION', file: invalid('no-openapi-field.yaml'), line: 3, pointer: '#/openapi' }],
    says: 'no `openapi` field',
  },
  {
    name: 'broken internal $ref',
    spec: invalid('broken-ref.yaml'),
    expected: [{ code: 'SPEC_REF_NOT_FOUND', file: invalid('broken-ref.yaml'), line: 18, pointer: `${NOTES_200_SCHEMA}/$ref` }],
    says: '#/components/schemas/Missing',
  },
  {
    name: '$ref to a URL',
    spec: invalid('remote-ref.yaml'),
    expected: [{ code: 'SPEC_REMOTE_REF', file: invalid('remote-ref.yaml'), line: 18, pointer: `${NOTES_200_SCHEMA}/$ref` }],
    says: 'https://example.com/schemas/note.yaml',
  },
  {
    name: '$ref to a missing file',
    spec: invalid('missing-file-ref.yaml'),
    expected: [{ code: 'SPEC_REF_FILE_NOT_FOUND', file: invalid('missing-file-ref.yaml'), line: 18, pointer: `${NOTES_200_SCHEMA}/$ref` }],
    says: 'does-not-exist.yaml',
  },
  {
    name: 'schema violations',
    spec: invalid('schema-invalid.yaml'),
    expected: [
      { code: 'SPEC_INVALID', file: invalid('schema-invalid.yaml'), line: 13, pointer: '#/paths/~1notes/get/parameters/0' },
      { code: 'SPEC_INVALID', file: invalid('schema-invalid.yaml'), line: 17, pointer: '#/paths/~1notes/get/responses/200' },
    ],
    says: 'missing required property "description"',
  },
  {
    name: 'unknown config key',
    spec: invalid('unknown-config-key.yaml'),
    expected: [{ code: 'CONFIG_UNKNOWN_KEY', file: invalid('unknown-config-key.yaml'), line: 8, pointer: '#/x-specforge/pagng' }],
    says: 'did you mean "paging"?',
  },
  {
    name: 'unknown config value',
    spec: invalid('unknown-config-value.yaml'),
    expected: [
      { code: 'CONFIG_INVALID_VALUE', file: invalid('unknown-config-value.yaml'), line: 10, pointer: '#/x-specforge/paging/style' },
    ],
    says: '"pages"',
  },
  {
    name: '"%" in a key on the path to a broken $ref',
    spec: invalid('percent-in-key.yaml'),
    expected: [
      {
        code: 'SPEC_REF_NOT_FOUND',
        file: invalid('percent-in-key.yaml'),
        line: 23,
        pointer: `${NOTES_200_SCHEMA}/properties/share%/$ref`,
      },
    ],
  },
  {
    name: 'YAML error in a referenced file',
    spec: invalid('multi-file-yaml-error/openapi.yaml'),
    expected: [{ code: 'SPEC_PARSE_ERROR', file: invalid('multi-file-yaml-error/components/note.yaml'), line: 8, pointer: undefined }],
  },
  {
    name: 'missing file referenced from a referenced file',
    spec: invalid('multi-file-missing-file/openapi.yaml'),
    expected: [
      {
        code: 'SPEC_REF_FILE_NOT_FOUND',
        file: invalid('multi-file-missing-file/components/note.yaml'),
        line: 11,
        pointer: '#/properties/tags/items/$ref',
      },
    ],
  },
  {
    name: 'broken $ref inside a referenced file',
    spec: invalid('multi-file-broken-ref/openapi.yaml'),
    expected: [
      {
        code: 'SPEC_REF_NOT_FOUND',
        file: invalid('multi-file-broken-ref/components/note.yaml'),
        line: 11,
        pointer: '#/properties/tags/items/$ref',
      },
    ],
  },
  {
    name: 'schema violation inside a referenced file',
    spec: invalid('multi-file-schema-invalid/openapi.yaml'),
    expected: [
      { code: 'SPEC_INVALID', file: invalid('multi-file-schema-invalid/components/note.yaml'), line: 9, pointer: '#/properties/text/type' },
    ],
  },
];

describe('specforge generate <invalid spec>', () => {
  const results = new Map<string, Awaited<ReturnType<typeof generateInto>>>();
  beforeAll(async () => {
    await Promise.all(CASES.map(async (c) => results.set(c.name, await generateInto(c.spec))));
  });

  describe.each(CASES)('$name ($spec)', (c) => {
    const run = () => results.get(c.name)!;

    test('exit code 1, the code, the message and a fix: line on stderr; nothing on stdout', () => {
      const { result } = run();
      expect(result.code).toBe(1);
      for (const expected of c.expected) expect(result.stderr).toContain(expected.code);
      if (c.says) expect(result.stderr).toContain(c.says);
      expect(result.stderr).toMatch(/^ {2}fix: \S.+$/m);
      const code = c.expected[0]!.code as DiagnosticCode;
      if (code !== 'CONFIG_UNKNOWN_KEY') expect(result.stderr).toContain(`  fix: ${DIAGNOSTIC_CATALOG[code]}`);
      expect(result.stderr).toMatch(/^\d+ errors?, \d+ warnings?$/m);
      expect(result.stdout).toBe('');
    });

    test('no stack trace', () => {
      expectNoStackTrace(run().result);
    });

    test('each diagnostic names the file (relative to cwd), :line and the pointer', () => {
      const printed = headers(run().result.stderr);
      for (const expected of c.expected) expect(printed).toContainEqual(expected);
    });

    test('nothing is written: --out is not created', () => {
      const { outExists, outEntries } = run();
      expect(outEntries).toEqual([]);
      expect(outExists).toBe(false);
    });
  });
});

describe('where a diagnostic points, seen from the shell', () => {
  test('an absolute spec path is still shown relative to the current directory', async () => {
    const { result } = await generateInto(join(ROOT, invalid('broken-ref.yaml')));
    expect(result.code).toBe(1);
    expect(headers(result.stderr)).toEqual([
      { code: 'SPEC_REF_NOT_FOUND', file: invalid('broken-ref.yaml'), line: 18, pointer: `${NOTES_200_SCHEMA}/$ref` },
    ]);
    expect(result.stderr).toContain(`${invalid('broken-ref.yaml')}:18:17  ${NOTES_200_SCHEMA}/$ref`);
  });

  test('from another directory, the path is relative to that directory', async () => {
    const { result } = await generateInto('invalid/broken-ref.yaml', [], { cwd: FIXTURES });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`✘ SPEC_REF_NOT_FOUND  invalid/broken-ref.yaml:18:17  ${NOTES_200_SCHEMA}/$ref\n`);
  });

  test('an existing, empty --out directory stays empty after a failed run', async () => {
    const scratch = scratchDir();
    try {
      const out = join(scratch.dir, 'out');
      mkdirSync(out);
      const result = await runCli(['generate', invalid('schema-invalid.yaml'), '--out', out]);
      expect(result.code).toBe(1);
      expect(readdirSync(out)).toEqual([]);
    } finally {
      scratch.cleanup();
    }
  });

  test('--color paints the diagnostic, NO_COLOR output has no escape codes', async () => {
    const plain = (await generateInto(invalid('broken-ref.yaml'))).result;
    expect(plain.stderr).not.toContain('\u001b[');
    const colored = (await generateInto(invalid('broken-ref.yaml'), ['--color'])).result;
    expect(colored.code).toBe(1);
    expect(colored.stderr).toContain('\u001b[1mSPEC_REF_NOT_FOUND\u001b[0m');
  });
});

describe('bad command lines', () => {
  test('unknown option --frobnicate: exit 1, a message naming it', async () => {
    const { result } = await generateInto(MINIMAL, ['--frobnicate']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('frobnicate');
    expect(result.stderr).toContain('specforge --help');
    expectNoStackTrace(result);
  });

  test('unknown option --frobnicate: the command does not run, nothing is written', async () => {
    const { result, outExists } = await generateInto(MINIMAL, ['--frobnicate']);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain('created');
    expect(outExists).toBe(false);
  });

  test('misspelt flags get a suggestion each (--forse → --force), and the command does not run', async () => {
    const { result, outExists } = await generateInto(MINIMAL, ['--forse', '--dry-runn', '--frobnicate']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Unknown options: --forse, --dry-runn, --frobnicate');
    expect(result.stderr).toContain('--forse: did you mean --force?');
    expect(result.stderr).toContain('--dry-runn: did you mean --dry-run?');
    expect(result.stderr).not.toContain('--frobnicate: did you mean');
    expect(outExists).toBe(false);
  });

  test('a flag of another command is suggested only among this command’s own (lint has --strict, not --force)', async () => {
    const result = await runCli(['lint', MINIMAL, '--forse']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Unknown option: --forse');
    expect(result.stderr).not.toContain('did you mean --force');
  });

  test('missing --out: exit 1, "Missing required argument: out", no stack trace', async () => {
    const result = await runCli(['generate', MINIMAL]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Missing required argument: out');
    expectNoStackTrace(result);
  });

  test('no command: exit 1, names the commands', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Name a command: generate, lint, check, merge or diff-scaffold.');
    expectNoStackTrace(result);
  });

  test('unknown command: exit 1, a message naming it', async () => {
    const result = await runCli(['frobnicate', MINIMAL]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('frobnicate');
    expect(result.stdout).toBe('');
    expectNoStackTrace(result);
  });

  test('a misspelt command gets a suggestion ("Did you mean generate?") and writes nothing', async () => {
    const scratch = scratchDir();
    try {
      const out = join(scratch.dir, 'out');
      const result = await runCli(['generat', MINIMAL, '--out', out]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('Did you mean generate?');
      expect(existsSync(out)).toBe(false);
    } finally {
      scratch.cleanup();
    }
  });
});

describe('--help and --version', () => {
  const GENERATE_FLAGS = ['--out', '--templates', '--overlay', '--dry-run', '--force', '--watch', '--quiet', '--color'];

  test.each([[['generate', '--help']], [['--help']]])('specforge %j exits 0 and lists every flag of generate', async (args) => {
    const result = await runCli(args);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    for (const flag of GENERATE_FLAGS) expect(result.stdout).toContain(flag);
  });

  test('specforge --help lists the commands and the exit codes', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    // [spec]: specforge.config.json may name it.
    for (const command of ['generate [spec]', 'merge [spec]', 'check [spec]', 'lint [spec]']) expect(result.stdout).toContain(command);
    expect(result.stdout).toContain('Exit codes: 0 success; 1 invalid input');
    expect(result.stdout).toContain('specforge.config.json');
  });

  test("--version prints package.json's version", async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${version}\n`);
  });
});

describe('specforge merge', () => {
  const spec = join(ROOT, MINIMAL);
  let scratch: { dir: string; cleanup: () => void };
  beforeEach(() => {
    scratch = scratchDir();
  });
  afterEach(() => scratch.cleanup());

  test('--out x.yaml writes YAML, exit 0', async () => {
    const out = join(scratch.dir, 'merged.yaml');
    const result = await runCli(['merge', spec, '--out', out], { cwd: scratch.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Wrote ${out}\n`);
    const written = readFileSync(out, 'utf8');
    expect(written.startsWith('openapi: 3.0.3\n')).toBe(true);
    const document = parseYaml(written) as { info: { title: string }; paths: Record<string, unknown> };
    expect(document.info.title).toBe('Minimal Notes API');
    expect(Object.keys(document.paths).sort()).toEqual(['/notes', '/notes/{note_id}']);
  });

  test('--out x.json writes JSON with the same content, exit 0', async () => {
    const yamlOut = join(scratch.dir, 'merged.yaml');
    const jsonOut = join(scratch.dir, 'merged.json');
    expect((await runCli(['merge', spec, '--out', yamlOut], { cwd: scratch.dir })).code).toBe(0);
    const result = await runCli(['merge', spec, '--out', jsonOut], { cwd: scratch.dir });
    expect(result.code).toBe(0);
    const written = readFileSync(jsonOut, 'utf8');
    expect(written.trimStart().startsWith('{')).toBe(true);
    expect(JSON.parse(written)).toEqual(parseYaml(readFileSync(yamlOut, 'utf8')));
  });

  test.each([[['--out', '-']], [['-o', '-']], [['--out=-']]])('%j writes the YAML to stdout, exit 0', async (outArgs) => {
    const file = join(scratch.dir, 'merged.yaml');
    expect((await runCli(['merge', spec, '--out', file], { cwd: scratch.dir })).code).toBe(0);
    const result = await runCli(['merge', spec, ...outArgs], { cwd: scratch.dir });
    expect(result.code).toBe(0);
    expectNoStackTrace(result);
    expect(result.stdout).toBe(readFileSync(file, 'utf8'));
    // Nothing else lands in the working directory (e.g. a stray temporary file).
    expect(readdirSync(scratch.dir)).toEqual(['merged.yaml']);
  });

  test('an invalid spec: exit 1 with the diagnostic, the output file is not created', async () => {
    const out = join(scratch.dir, 'merged.yaml');
    const result = await runCli(['merge', join(ROOT, invalid('broken-ref.yaml')), '--out', out]);
    expect(result.code).toBe(1);
    expect(headers(result.stderr)).toEqual([
      { code: 'SPEC_REF_NOT_FOUND', file: invalid('broken-ref.yaml'), line: 18, pointer: `${NOTES_200_SCHEMA}/$ref` },
    ]);
    expect(existsSync(out)).toBe(false);
  });
});

describe('--templates', () => {
  let scratch: { dir: string; cleanup: () => void };
  beforeEach(() => {
    scratch = scratchDir();
  });
  afterEach(() => scratch.cleanup());

  /** A --templates directory holding one override. */
  function templates(relativePath: string, source: string): { dir: string; file: string } {
    const dir = join(scratch.dir, 'templates');
    const file = join(dir, relativePath);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, source);
    return { dir, file };
  }

  test('a directory that does not exist: exit 1, TEMPLATES_NOT_FOUND naming it, nothing written', async () => {
    const out = join(scratch.dir, 'out');
    const result = await runCli(['generate', MINIMAL, '--out', out, '--templates', '/does/not/exist']);
    expect(result.code).toBe(1);
    expect(headers(result.stderr)).toEqual([{ code: 'TEMPLATES_NOT_FOUND', file: '/does/not/exist', line: undefined, pointer: undefined }]);
    expect(result.stderr).toContain(`  fix: ${DIAGNOSTIC_CATALOG.TEMPLATES_NOT_FOUND}`);
    expectNoStackTrace(result);
    expect(existsSync(out)).toBe(false);
  });

  test('{{#if}} without an argument: exit 1, TEMPLATE_ERROR naming the template file, no stack trace, nothing written', async () => {
    const { dir, file } = templates('types/types.ts.hbs', '// types\n{{#if}}\nx\n{{/if}}\n');
    const out = join(scratch.dir, 'out');
    const result = await runCli(['generate', MINIMAL, '--out', out, '--templates', dir]);
    expect(result.code).toBe(1);
    expect(headers(result.stderr).map((h) => [h.code, h.file])).toEqual([['TEMPLATE_ERROR', file]]);
    expect(result.stderr).toContain('#if requires exactly one argument');
    expect(result.stderr).toContain(`  fix: ${DIAGNOSTIC_CATALOG.TEMPLATE_ERROR}`);
    expectNoStackTrace(result);
    expect(existsSync(out)).toBe(false);
  });

  test('a Handlebars syntax error: TEMPLATE_ERROR at the template file and line', async () => {
    const { dir, file } = templates('types/types.ts.hbs', '// types\n{{types}\n');
    const out = join(scratch.dir, 'out');
    const result = await runCli(['generate', MINIMAL, '--out', out, '--templates', dir]);
    expect(result.code).toBe(1);
    expect(headers(result.stderr)).toEqual([{ code: 'TEMPLATE_ERROR', file, line: 2, pointer: undefined }]);
    expectNoStackTrace(result);
    expect(existsSync(out)).toBe(false);
  });

  // A render diagnostic without a file is the template's, not the spec's: only those that point into the spec are placed there.
  test('types.ts.hbs printing {{types}} twice: TEMPLATE_ERROR saying so, not placed in the spec', async () => {
    const { dir } = templates('types/types.ts.hbs', '{{types}}\n{{types}}\n');
    const out = join(scratch.dir, 'out');
    const result = await runCli(['generate', MINIMAL, '--out', out, '--templates', dir]);
    expect(result.code).toBe(1);
    expect(headers(result.stderr)).toEqual([{ code: 'TEMPLATE_ERROR', file: undefined, line: undefined, pointer: undefined }]);
    expect(result.stderr).toContain('must print {{types}} exactly once; it prints it 2 times');
    expectNoStackTrace(result);
    expect(existsSync(out)).toBe(false);
  });

  test('a value the template uses but the view lacks: TEMPLATE_ERROR at the template file and line', async () => {
    const { dir, file } = templates('types/types.ts.hbs', '// types\n{{nosuchvalue}}\n');
    const out = join(scratch.dir, 'out');
    const result = await runCli(['generate', MINIMAL, '--out', out, '--templates', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('nosuchvalue');
    expect(headers(result.stderr)).toEqual([{ code: 'TEMPLATE_ERROR', file, line: 2, pointer: undefined }]);
    expectNoStackTrace(result);
    expect(existsSync(out)).toBe(false);
  });
});

// Before: `node --max-semi-space-size=64 specforge …` was an internal error (ERR_WORKER_INVALID_EXEC_ARGV): the
// types, validation and format threads were started with the process's flags, which a worker refuses.
describe('node flags a worker thread refuses', () => {
  test('generate runs, its threads started without them', async () => {
    const { dir, cleanup } = scratchDir();
    try {
      const result = await new Promise<{ code: number; stderr: string }>((done) =>
        execFile(process.execPath, ['--max-semi-space-size=32', CLI, 'generate', MINIMAL, '--out', join(dir, 'out'), '--quiet'], { cwd: ROOT }, (error, _stdout, stderr) =>
          done({ code: error ? Number(error.code ?? 1) : 0, stderr }),
        ),
      );
      expect(result.stderr).not.toMatch(/internal error/);
      expect(result.code).toBe(0);
      expect(existsSync(join(dir, 'out/src/generated/types.ts'))).toBe(true);
    } finally {
      cleanup();
    }
  });
});
