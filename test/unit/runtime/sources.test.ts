/**
 * The runtime modules are copied into generated projects without formatting
 * (see runtimeFile): each source must already be what prettier, with the
 * pinned options, prints — or a copy would differ from formatted output.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatJob } from '../../../src/format/prettier.js';
import { ERRORS } from '../../../src/conventions/errors.js';
import { ERROR_CODES } from '../../../src/runtime/server/generated/conventions/errors.js';
import { loadResources } from '../../../src/resources.js';
import { scratchDir } from '../../helpers.js';

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

describe('a --templates directory overrides a runtime module by its path under runtime/', () => {
  const { dir, cleanup } = scratchDir();
  afterAll(cleanup);
  mkdirSync(join(dir, 'runtime/client'), { recursive: true });
  writeFileSync(join(dir, 'runtime/client/runtime.ts'), 'export const customised = true;\n');
  writeFileSync(join(dir, 'runtime/client/extra.ts'), 'export const stray = true;\n');
  const overridden = loadResources(dir);

  test('the module at the same path replaces the packaged one', () => {
    expect(overridden.runtime.get('client/runtime.ts')?.source).toBe('export const customised = true;\n');
    expect(overridden.fingerprint).not.toBe(loadResources().fingerprint);
  });

  test('a file that is no runtime module is not copied', () => {
    expect(overridden.runtime.has('client/extra.ts')).toBe(false);
  });
});
