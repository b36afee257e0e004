/**
 * The generated suite's reports for CI, from a real run in the generated bookshop: the JUnit
 * XML report agrees with jest's own JSON report, and the skipped checks carry their reasons.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, scratchDir } from '../helpers.js';
import { generateService, linkDependencies } from '../service.js';

const scratch = scratchDir();
const bookshop = join(scratch.dir, 'bookshop');

beforeAll(async () => {
  await generateService(join(ROOT, 'examples/bookshop/openapi.yaml'), bookshop);
  linkDependencies(bookshop);
});
afterAll(() => scratch.cleanup());

interface JestReport {
  numTotalTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: { name: string; assertionResults: { ancestorTitles: string[]; title: string; status: string }[] }[];
}

/** Runs the suite's files as `npm run test:conformance` does, with jest's JSON report beside ours. */
function runSuite(files: string[]): Promise<{ report: JestReport; stderr: string }> {
  const output = join(scratch.dir, 'jest.json');
  const args = ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', 'node_modules/jest/bin/jest.js', '-c', 'test/conformance/jest.config.js', '--json', `--outputFile=${output}`, ...files];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: bookshop, env: { PATH: process.env.PATH }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', () => resolve({ report: JSON.parse(readFileSync(output, 'utf8')) as JestReport, stderr }));
  });
}

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function decode(text: string): string {
  return text.replace(/&(?:([a-z]+)|#(\d+));|&/g, (whole, entity?: string, code?: string) => {
    if (entity !== undefined && ENTITIES[entity] !== undefined) return ENTITIES[entity];
    if (code !== undefined) return String.fromCharCode(Number(code));
    throw new Error(`not well-formed: ${whole}`);
  });
}

/** A strict reader of what the reporter writes (no XML dependency): elements, attributes and text; throws on markup that is not well-formed. */
function parseXml(xml: string): XmlElement {
  const body = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, '');
  const document: XmlElement = { name: '', attributes: {}, children: [], text: '' };
  const open = [document];
  const token = /<(\/?)([A-Za-z]+)((?:\s+[A-Za-z]+="[^"<]*")*)\s*(\/?)>|([^<]+)/y;
  while (token.lastIndex < body.length) {
    const at = token.lastIndex;
    const match = token.exec(body);
    if (!match) throw new Error(`not well-formed at ${at}: ${body.slice(at, at + 60)}`);
    const [, closing, name = '', attributes = '', empty, text] = match;
    const parent = open.at(-1)!;
    if (text !== undefined) parent.text += decode(text);
    else if (closing) {
      if (parent.name !== name) throw new Error(`</${name}> closes <${parent.name}>`);
      open.pop();
    } else {
      const element = { name, attributes: Object.fromEntries([...attributes.matchAll(/([A-Za-z]+)="([^"]*)"/g)].map(([, key, value]) => [key, decode(value!)])), children: [], text: '' };
      parent.children.push(element);
      if (!empty) open.push(element);
    }
  }
  if (open.length !== 1 || document.children.length !== 1) throw new Error('not one root element');
  return document.children[0]!;
}

const SKIPPED_SUFFIX = / \(skipped: .*\)$/s;
const GENRES = 'GET /genres (listGenres)';

test('the suite writes a JUnit XML report that agrees with jest, and the skipped checks by reason', async () => {
  const { report, stderr } = await runSuite(['resources/genres.test.ts', 'resources/authors.test.ts']);
  const testsuites = parseXml(readFileSync(join(bookshop, 'reports/conformance.xml'), 'utf8'));
  expect(testsuites.attributes).toMatchObject({ tests: String(report.numTotalTests), failures: String(report.numFailedTests), errors: '0', skipped: String(report.numPendingTests) });
  expect(report.numTotalTests).toBeGreaterThan(50);
  expect(report.numPendingTests).toBe(2);
  // One testsuite per file, named by its resource, sorted; its testcases are jest's tests, in order.
  expect(testsuites.children.map((suite) => suite.attributes.name)).toEqual(['resources/authors', 'resources/genres']);
  for (const suite of testsuites.children) {
    const file = report.testResults.find((result) => result.name.endsWith(`/${suite.attributes.name}.test.ts`))!;
    expect(suite.children.map((test) => [test.attributes.classname, test.attributes.name])).toEqual(
      file.assertionResults.map((test) => [test.ancestorTitles.join(' › '), test.title.replace(SKIPPED_SUFFIX, '')]),
    );
    expect(suite.attributes.tests).toBe(String(file.assertionResults.length));
  }
  // A skipped check: its title, with the reason as the message.
  const skipped = testsuites.children.flatMap((suite) => suite.children).filter((test) => test.children.some((child) => child.name === 'skipped'));
  expect(skipped.map((test) => [test.attributes.classname, test.attributes.name, test.children[0]!.attributes.message])).toEqual([
    [GENRES, 'GET /genres → a cursor walk sees every item exactly once and ends with has_more false', 'the API cannot create genres items, and the service lists fewer than 3'],
    [GENRES, 'GET /genres → 400 for a tampered cursor', 'the API cannot create genres items, and the service lists fewer than 2'],
  ]);
  expect(JSON.parse(readFileSync(join(bookshop, 'reports/conformance-skips.json'), 'utf8'))).toEqual([
    { reason: 'the API cannot create genres items, and the service lists fewer than 2', count: 1, tests: [`resources/genres › ${GENRES} › GET /genres → 400 for a tampered cursor`] },
    { reason: 'the API cannot create genres items, and the service lists fewer than 3', count: 1, tests: [`resources/genres › ${GENRES} › GET /genres → a cursor walk sees every item exactly once and ends with has_more false`] },
  ]);
  expect(stderr).toContain('Skipped checks by reason (2):\n     1 × the API cannot create genres items, and the service lists fewer than 2\n');
  expect(stderr).toContain('Conformance reports: reports/conformance.xml, reports/conformance-skips.json');
});
