/** The suite's reporter: the JUnit XML report and the skipped checks by reason, from jest's results. */
import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { RUNTIME_ROOT } from '../../../src/resources.js';
import { scratchDir } from '../../helpers.js';

interface Assertion {
  ancestorTitles: string[];
  title: string;
  status: string;
  duration?: number | null;
  failureMessages: string[];
}
interface TestFile {
  testFilePath: string;
  testResults: Assertion[];
  perfStats: { runtime: number };
  testExecError?: { message: string };
}
interface SkipReason {
  reason: string;
  count: number;
  tests: string[];
}

const SUITE = join(RUNTIME_ROOT, 'conformance');
const Reporter = createRequire(import.meta.url)(join(SUITE, 'reporter.cjs')) as {
  new (globalConfig: { rootDir: string }): { onRunComplete(contexts: unknown, results: { testResults: TestFile[] }): void };
  junitXml(files: TestFile[], directory: string): string;
  skipsByReason(files: TestFile[], directory: string): SkipReason[];
  summary(skips: SkipReason[], paths: { xml: string; skips: string }): string[];
};

const DESCRIBE = 'GET /genres (listGenres)';
const check = (title: string, status = 'passed', failureMessages: string[] = []): Assertion => ({ ancestorTitles: [DESCRIBE], title, status, duration: 12, failureMessages });
const file = (name: string, ...testResults: Assertion[]): TestFile => ({ testFilePath: join(SUITE, `${name}.test.ts`), testResults, perfStats: { runtime: 1500 } });
const xmlOf = (...files: TestFile[]) => Reporter.junitXml(files, SUITE);
const testcases = (xml: string) => xml.split('\n').filter((line) => line.trimStart().startsWith('<testcase') || line.trimStart().startsWith('<skipped') || line.trimStart().startsWith('<failure') || line.trimStart().startsWith('<error'));

describe('the JUnit XML report', () => {
  test('one testsuite per file, named by its resource, sorted by path; totals on testsuites', () => {
    const xml = xmlOf(
      file('resources/genres', check('GET /genres → 200', 'passed'), check('GET /genres → 400 for a tampered cursor (skipped: fewer than 2)', 'pending')),
      file('conventions', check('GET /nothing → 404', 'failed', ['Error: expected 404'])),
      file('resources/books', check('GET /books → 200')),
    );
    expect(xml.split('\n').filter((line) => /<\/?testsuites?\b/.test(line))).toEqual([
      '<testsuites name="conformance" tests="4" failures="1" errors="0" skipped="1" time="4.500">',
      '  <testsuite name="conventions" tests="1" failures="1" errors="0" skipped="0" time="1.500">',
      '  </testsuite>',
      '  <testsuite name="resources/books" tests="1" failures="0" errors="0" skipped="0" time="1.500">',
      '  </testsuite>',
      '  <testsuite name="resources/genres" tests="2" failures="0" errors="0" skipped="1" time="1.500">',
      '  </testsuite>',
      '</testsuites>',
    ]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  });

  test('a skipped check: its title without the suffix, the reason as the message (parentheses and all)', () => {
    const xml = xmlOf(file('resources/genres', check('GET /genres → a cursor walk (skipped: the service lists fewer than 3 (seeded: 1))', 'pending')));
    expect(testcases(xml)).toEqual([
      `    <testcase classname="${DESCRIBE}" name="GET /genres → a cursor walk" time="0.012">`,
      '      <skipped message="the service lists fewer than 3 (seeded: 1)"/>',
    ]);
  });

  test('a skipped test that gives no reason is skipped without a message', () => {
    expect(testcases(xmlOf(file('conventions', check('not yet', 'todo'))))).toEqual([`    <testcase classname="${DESCRIBE}" name="not yet" time="0.012">`, '      <skipped/>']);
  });

  test('a failure: its first line as the message, the whole message as text, without colours', () => {
    const message = '\u001b[31mError: \u001b[1mexpect(received).toBe(expected)\u001b[22m\u001b[39m\n\nExpected: \u001b[32m404\u001b[39m\nReceived: \u001b[31m200\u001b[39m\n    at Object.<anonymous> (harness.ts:1:1)';
    const xml = xmlOf(file('resources/books', check('GET /books/{book_id} → 404', 'failed', [message])));
    expect(xml).toContain(
      '      <failure message="Error: expect(received).toBe(expected)">Error: expect(received).toBe(expected)\n\nExpected: 404\nReceived: 200\n    at Object.&lt;anonymous&gt; (harness.ts:1:1)</failure>\n    </testcase>',
    );
    expect(xml).not.toContain('\u001b');
  });

  test('a file that could not run is an error', () => {
    const xml = xmlOf({ ...file('resources/books'), testExecError: { message: 'fetch failed\n  cause: ECONNREFUSED' } });
    expect(xml).toContain('<testsuite name="resources/books" tests="1" failures="0" errors="1" skipped="0"');
    expect(xml).toContain('<testcase classname="resources/books" name="the test file runs" time="0.000">\n      <error message="fetch failed">fetch failed\n  cause: ECONNREFUSED</error>');
  });

  test('markup is escaped; characters XML 1.0 cannot hold are removed; line breaks in an attribute are references', () => {
    const hostile = `<a href="x">&'\u0000\u0008\u000b\u001b\ud800\ufffe😀`;
    const xml = xmlOf(file('resources/books', { ...check(hostile, 'failed', [`${hostile}\nline 2`]), ancestorTitles: ['a\tb\nc'] }));
    const escaped = '&lt;a href=&quot;x&quot;&gt;&amp;&apos;😀';
    expect(testcases(xml)).toEqual([
      `    <testcase classname="a&#9;b&#10;c" name="${escaped}" time="0.012">`,
      `      <failure message="${escaped}">${escaped}`,
    ]);
    expect(xml).toContain(`${escaped}\nline 2</failure>`);
  });
});

describe('the skipped checks by reason', () => {
  const files = [
    file('resources/genres', check('a (skipped: without API_TOKEN_LIMITED)', 'pending'), check('b (skipped: fewer than 2)', 'pending'), check('c')),
    file('resources/books', check('d (skipped: without API_TOKEN_LIMITED)', 'pending'), check('e', 'skipped')),
  ];

  test('the most frequent reason first, each with its tests by file, describe block and title', () => {
    expect(Reporter.skipsByReason(files, SUITE)).toEqual([
      { reason: 'without API_TOKEN_LIMITED', count: 2, tests: [`resources/books › ${DESCRIBE} › d`, `resources/genres › ${DESCRIBE} › a`] },
      { reason: 'fewer than 2', count: 1, tests: [`resources/genres › ${DESCRIBE} › b`] },
      { reason: 'no reason given', count: 1, tests: [`resources/books › ${DESCRIBE} › e`] },
    ]);
  });

  test('the console lists the top reasons, then how many more', () => {
    const skips = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((reason, index) => ({ reason, count: 10 - index, tests: [] }));
    expect(Reporter.summary(skips, { xml: 'reports/conformance.xml', skips: 'reports/conformance-skips.json' })).toEqual([
      'Skipped checks by reason (49):',
      '    10 × a',
      '     9 × b',
      '     8 × c',
      '     7 × d',
      '     6 × e',
      '       … 2 more in reports/conformance-skips.json',
      'Conformance reports: reports/conformance.xml, reports/conformance-skips.json',
    ]);
    expect(Reporter.summary([], { xml: 'r.xml', skips: 'r-skips.json' })).toEqual(['Conformance reports: r.xml, r-skips.json']);
  });
});

describe('at the end of a run', () => {
  const scratch = scratchDir();
  afterAll(() => scratch.cleanup());
  const run = (env: string | undefined) => {
    const saved = process.env.CONFORMANCE_JUNIT;
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      if (env === undefined) delete process.env.CONFORMANCE_JUNIT;
      else process.env.CONFORMANCE_JUNIT = env;
      new Reporter({ rootDir: scratch.dir }).onRunComplete(new Set(), { testResults: [file('resources/genres', check('a (skipped: fewer than 2)', 'pending'))] });
      return write.mock.calls.map(([text]) => String(text)).join('');
    } finally {
      write.mockRestore();
      if (saved === undefined) delete process.env.CONFORMANCE_JUNIT;
      else process.env.CONFORMANCE_JUNIT = saved;
    }
  };

  test('the reports go to reports/ under the project root, a folder it creates', () => {
    const printed = run(undefined);
    expect(readFileSync(join(scratch.dir, 'reports/conformance.xml'), 'utf8')).toContain('<skipped message="fewer than 2"/>');
    expect(JSON.parse(readFileSync(join(scratch.dir, 'reports/conformance-skips.json'), 'utf8'))).toEqual([{ reason: 'fewer than 2', count: 1, tests: [`resources/genres › ${DESCRIBE} › a`] }]);
    expect(printed).toContain('     1 × fewer than 2\n');
  });

  test('CONFORMANCE_JUNIT names the XML file, relative to the project root; the skips go beside it', () => {
    run('ci/out/junit.xml');
    expect(readFileSync(join(scratch.dir, 'ci/out/junit.xml'), 'utf8')).toContain('<testsuite name="resources/genres"');
    expect(readFileSync(join(scratch.dir, 'ci/out/junit-skips.json'), 'utf8')).toContain('"fewer than 2"');
  });
});
