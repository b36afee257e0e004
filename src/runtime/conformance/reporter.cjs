// The suite's own jest reporter, beside jest's: when the run ends it writes a JUnit XML report
// for CI (CONFORMANCE_JUNIT, default reports/conformance.xml under the project root) and, beside
// it, the skipped checks counted by reason (conformance-skips.json), and prints the most frequent
// reasons. A check the suite skips is named `<title> (skipped: <reason>)` (HttpSuite.check in
// harness.ts): the report gives it back its title and the reason as the <skipped> message.
const { mkdirSync, writeFileSync } = require('node:fs');
const { dirname, relative, resolve, sep } = require('node:path');

/** Relative to the project root. */
const DEFAULT_REPORT = 'reports/conformance.xml';
/** The console lists this many reasons; the JSON file lists every one. */
const SHOWN_REASONS = 5;
/** The earliest such suffix: a reason may hold parentheses of its own. */
const SKIPPED_SUFFIX = / \(skipped: (.*)\)$/s;
const NO_REASON = 'no reason given';

/**
 * What the reporter reads of jest's results (@jest/test-result).
 * @typedef {{ ancestorTitles: string[], title: string, status: string, duration?: number | null, failureMessages: string[] }} AssertionResult
 * @typedef {{ testFilePath: string, testResults: AssertionResult[], perfStats: { runtime: number }, testExecError?: { message: string } }} TestFileResult
 *
 * One <testcase>, and what became of it.
 * @typedef {{ kind: 'passed' } | { kind: 'failed', message: string } | { kind: 'error', message: string } | { kind: 'skipped', reason?: string }} Outcome
 * @typedef {{ classname: string, name: string, seconds: number, outcome: Outcome }} TestCase
 * @typedef {{ name: string, seconds: number, cases: TestCase[] }} TestSuite
 *
 * @typedef {{ reason: string, count: number, tests: string[] }} SkipReason
 */

/** @param {string} title a test's title, as jest reports it */
function skippedCheck(title) {
  const match = SKIPPED_SUFFIX.exec(title);
  return match
    ? { name: title.slice(0, match.index), reason: match[1] }
    : { name: title, reason: undefined };
}

/** Jest colours its failure messages; a report shows them as text. */
function stripAnsi(/** @type {string} */ text) {
  return text.replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '');
}

/** XML 1.0 allows none of these characters, not even escaped. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Character data: markup escaped, characters XML cannot hold removed. */
function xmlText(/** @type {string} */ text) {
  return text
    .replace(NOT_XML, '')
    .replace(/[&<>"']/g, (c) => ENTITIES[/** @type {keyof typeof ENTITIES} */ (c)]);
}

/** An attribute value: as text, and line breaks and tabs as references (a parser would turn them into spaces). */
function xmlAttribute(/** @type {string} */ text) {
  return xmlText(text).replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** @param {AssertionResult} result @returns {TestCase} */
function testCase(result) {
  const test = {
    classname: result.ancestorTitles.join(' › '),
    name: result.title,
    seconds: (result.duration ?? 0) / 1000,
  };
  if (result.status === 'failed')
    return {
      ...test,
      outcome: { kind: 'failed', message: stripAnsi(result.failureMessages.join('\n')) },
    };
  if (result.status === 'passed' || result.status === 'focused')
    return { ...test, outcome: { kind: 'passed' } };
  const { name, reason } = skippedCheck(result.title);
  return { ...test, name, outcome: { kind: 'skipped', reason } };
}

/**
 * One suite per test file, named by its path in the suite without `.test.ts` (`resources/books`), sorted by it.
 * @param {TestFileResult[]} files @param {string} directory the suite's folder, test/conformance
 * @returns {TestSuite[]}
 */
function testSuites(files, directory) {
  const suites = files.map((file) => {
    const name = relative(directory, file.testFilePath)
      .split(sep)
      .join('/')
      .replace(/\.test\.ts$/, '');
    const cases = file.testResults.map(testCase);
    // A file that could not run (it does not compile, a hook threw) has no tests to say so.
    if (file.testExecError)
      cases.push({
        classname: name,
        name: 'the test file runs',
        seconds: 0,
        outcome: { kind: 'error', message: stripAnsi(file.testExecError.message) },
      });
    return { name, seconds: file.perfStats.runtime / 1000, cases };
  });
  return suites.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** @param {TestCase[]} cases */
function totals(cases) {
  const count = (/** @type {Outcome['kind']} */ kind) =>
    cases.filter((c) => c.outcome.kind === kind).length;
  return `tests="${cases.length}" failures="${count('failed')}" errors="${count('error')}" skipped="${count('skipped')}"`;
}

const seconds = (/** @type {number} */ value) => value.toFixed(3);

/** @param {TestCase} test */
function testCaseXml(test) {
  const open = `    <testcase classname="${xmlAttribute(test.classname)}" name="${xmlAttribute(test.name)}" time="${seconds(test.seconds)}"`;
  const { outcome } = test;
  if (outcome.kind === 'passed') return `${open}/>`;
  if (outcome.kind === 'skipped')
    return `${open}>\n      <skipped${outcome.reason === undefined ? '' : ` message="${xmlAttribute(outcome.reason)}"`}/>\n    </testcase>`;
  const firstLine = outcome.message.split('\n').find((line) => line.trim() !== '') ?? '';
  const element = outcome.kind === 'failed' ? 'failure' : 'error';
  return `${open}>\n      <${element} message="${xmlAttribute(firstLine.trim())}">${xmlText(outcome.message)}</${element}>\n    </testcase>`;
}

/** The JUnit XML report of a run. @param {TestFileResult[]} files @param {string} directory the suite's folder */
function junitXml(files, directory) {
  const suites = testSuites(files, directory);
  const all = suites.flatMap((suite) => suite.cases);
  const time = suites.reduce((sum, suite) => sum + suite.seconds, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="conformance" ${totals(all)} time="${seconds(time)}">`,
    ...suites.flatMap((suite) => [
      `  <testsuite name="${xmlAttribute(suite.name)}" ${totals(suite.cases)} time="${seconds(suite.seconds)}">`,
      ...suite.cases.map(testCaseXml),
      '  </testsuite>',
    ]),
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * The skipped checks by reason, the most frequent first; each test named `<file> › <describe> › <title>`.
 * @param {TestFileResult[]} files @param {string} directory the suite's folder @returns {SkipReason[]}
 */
function skipsByReason(files, directory) {
  /** @type {Map<string, string[]>} */
  const byReason = new Map();
  for (const suite of testSuites(files, directory)) {
    for (const test of suite.cases) {
      if (test.outcome.kind !== 'skipped') continue;
      const reason = test.outcome.reason ?? NO_REASON;
      byReason.set(reason, [
        ...(byReason.get(reason) ?? []),
        [suite.name, test.classname, test.name].filter(Boolean).join(' › '),
      ]);
    }
  }
  return [...byReason]
    .map(([reason, tests]) => ({ reason, count: tests.length, tests }))
    .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0));
}

/** A few lines for the console. @param {SkipReason[]} skips @param {{ xml: string, skips: string }} paths as the user would type them */
function summary(skips, paths) {
  const skipped = skips.reduce((sum, skip) => sum + skip.count, 0);
  const more = skips.length - SHOWN_REASONS;
  return [
    ...(skipped === 0
      ? []
      : [
          `Skipped checks by reason (${skipped}):`,
          ...skips
            .slice(0, SHOWN_REASONS)
            .map((skip) => `  ${String(skip.count).padStart(4)} × ${skip.reason}`),
          ...(more > 0 ? [`       … ${more} more in ${paths.skips}`] : []),
        ]),
    `Conformance reports: ${paths.xml}, ${paths.skips}`,
  ];
}

/** Beside the XML report: conformance.xml → conformance-skips.json. */
const skipsPath = (/** @type {string} */ xml) => `${xml.replace(/\.xml$/i, '')}-skips.json`;

class ConformanceReporter {
  /** @param {import('jest').GlobalConfig} globalConfig */
  constructor(globalConfig) {
    this.xml = resolve(globalConfig.rootDir, process.env.CONFORMANCE_JUNIT || DEFAULT_REPORT);
  }

  /** @param {unknown} _contexts @param {{ testResults: TestFileResult[] }} results */
  onRunComplete(_contexts, results) {
    const skips = skipsByReason(results.testResults, __dirname);
    const json = skipsPath(this.xml);
    mkdirSync(dirname(this.xml), { recursive: true });
    writeFileSync(this.xml, junitXml(results.testResults, __dirname));
    writeFileSync(json, `${JSON.stringify(skips, null, 2)}\n`);
    const shown = (/** @type {string} */ path) => relative(process.cwd(), path) || path;
    process.stderr.write(
      `\n${summary(skips, { xml: shown(this.xml), skips: shown(json) }).join('\n')}\n`,
    );
  }
}

module.exports = ConformanceReporter;
// The report's parts, for the unit tests.
Object.assign(module.exports, { junitXml, skipsByReason, summary, skippedCheck });
