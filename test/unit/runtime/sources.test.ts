/**
 * The runtime modules are copied into generated projects without formatting
 * (see runtimeFile): each source must already be what prettier, with the
 * pinned options, prints — or a copy would differ from formatted output.
 */
import { formatJob } from '../../../src/format/prettier.js';
import { ERRORS } from '../../../src/conventions/errors.js';
import { ERROR_CODES } from '../../../src/runtime/server/generated/conventions/errors.js';
import { loadResources } from '../../../src/resources.js';

const { runtime } = loadResources();

test('the runtime modules are found', () => {
  expect(runtime.size).toBeGreaterThan(10);
});

test.each([...runtime.keys()])('%s is prettier-formatted with the pinned options', async (path) => {
  const { source } = runtime.get(path)!;
  expect(await formatJob({ text: source, as: 'statements', format: 'typescript' })).toBe(source);
});

test("the service's error codes are the conventions' catalog", () => {
  const catalog = Object.fromEntries(Object.entries(ERRORS).map(([name, { status, code }]) => [name, { status, code }]));
  expect(ERROR_CODES).toEqual(catalog);
});
