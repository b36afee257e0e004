/**
 * The conformance suite's jest configuration: `npm run test:conformance`.
 * Against BASE_URL, files run one at a time (they share its data and its rate
 * limit). In-process, each worker starts the service once for all its files
 * (./environment.cjs); at most two workers, as each holds a service.
 */
/** @type {import('jest').Config} */
export default {
  rootDir: '../..',
  roots: ['<rootDir>/test/conformance'],
  testMatch: ['**/*.test.ts'],
  testEnvironment: '<rootDir>/test/conformance/environment.cjs',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { useESM: true, tsconfig: '<rootDir>/test/conformance/tsconfig.json' },
    ],
  },
  testSequencer: '<rootDir>/test/conformance/sequencer.cjs',
  maxWorkers: process.env.BASE_URL ? 1 : 2,
  // jest keeps what each ESM test file loads until its worker ends (jestjs/jest#14605): a guard
  // that starts a fresh worker past this heap, so no API is too large for the suite to finish.
  workerIdleMemoryLimit: '600MB',
  // A real service's rate limit can make the suite wait for its window.
  testTimeout: process.env.BASE_URL ? 180_000 : 30_000,
};
