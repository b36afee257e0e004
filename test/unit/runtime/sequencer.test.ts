/** The suite's sequencer: against BASE_URL the rate-limit file spends the window, so it runs last. */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { RUNTIME_ROOT } from '../../../src/resources.js';

type Test = { path: string };
const RateLimitLast = createRequire(import.meta.url)(join(RUNTIME_ROOT, 'conformance/sequencer.cjs')) as {
  prototype: { sort(tests: Test[]): Test[] };
};
const suite = (...names: string[]) => names.map((name) => ({ path: join(RUNTIME_ROOT, 'conformance', name) }));
const sorted = (tests: Test[]) => RateLimitLast.prototype.sort(tests).map((test) => test.path.slice(RUNTIME_ROOT.length + 'conformance/'.length + 1));

test('rate-limit.test.ts runs after every other file, the rest in path order', () => {
  expect(sorted(suite('rate-limit.test.ts', 'resources/books.test.ts', 'conventions.test.ts'))).toEqual([
    'conventions.test.ts',
    'resources/books.test.ts',
    'rate-limit.test.ts',
  ]);
});

test("only the suite's own file counts: a resource named rate-limit keeps its place", () => {
  expect(sorted(suite('rate-limit.test.ts', 'resources/rate-limit.test.ts', 'conventions.test.ts'))).toEqual([
    'conventions.test.ts',
    'resources/rate-limit.test.ts',
    'rate-limit.test.ts',
  ]);
});
