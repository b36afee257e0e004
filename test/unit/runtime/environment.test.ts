/**
 * The suite's jest environment: the files of one worker share a map
 * (harness.ts's perWorker), which must outlive each file's teardown.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { RUNTIME_ROOT } from '../../../src/resources.js';

type Environment = { global: Record<string, unknown>; setup(): Promise<void>; teardown(): Promise<void> };
const ConformanceEnvironment = createRequire(import.meta.url)(join(RUNTIME_ROOT, 'conformance/environment.cjs')) as new (
  config: object,
  context: object,
) => Environment;

const config = { globalConfig: {}, projectConfig: { testEnvironmentOptions: {}, globals: {}, setupFiles: [] } };
const newFile = async () => {
  const environment = new ConformanceEnvironment(config, { console, docblockPragmas: {}, testPath: join(RUNTIME_ROOT, 'conformance/harness.ts') });
  await environment.setup();
  return environment;
};
const shared = (environment: Environment) => environment.global.specforgeConformanceWorker as Map<string, unknown>;

test("a worker's files see one map, and what a file put in it outlives that file's teardown", async () => {
  const first = await newFile();
  const service = { baseUrl: 'http://127.0.0.1:1/v1' };
  shared(first).set('service', service);
  await first.teardown();
  const second = await newFile();
  expect(shared(second)).toBeInstanceOf(Map);
  expect(shared(second).get('service')).toBe(service);
  expect(service.baseUrl).toBe('http://127.0.0.1:1/v1');
  await second.teardown();
});
