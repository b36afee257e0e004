/**
 * The conformance suite's jest configuration: `npm run test:conformance`.
 * Against BASE_URL, files run one at a time (they share its data and its rate
 * limit). In-process, each worker starts the service once for all its files
 * (./environment.cjs).
 */
import { availableParallelism } from 'node:os';

/** Each in-process worker holds a service: half the cores, at most two. */
const IN_PROCESS_WORKERS = Math.min(2, Math.max(1, Math.floor(availableParallelism() / 2)));

/** @type {import('jest').Config} */
export default {
  rootDir: '../..',
  roots: ['<rootDir>/test/conformance'],
  testMatch: ['**/*.test.ts'],
  testEnvironment: '<rootDir>/test/conformance/environment.cjs',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    // The first pattern that matches a file wins.
    '/src/generated/validators/[^/]+\\.ts$': '<rootDir>/test/conformance/validators-transform.cjs',
    '^.+\\.ts$': [
      'ts-jest',
      { useESM: true, tsconfig: '<rootDir>/test/conformance/tsconfig.json' },
    ],
  },
  testSequencer: '<rootDir>/test/conformance/sequencer.cjs',
  // jest's output, then a JUnit XML report for CI and the skipped checks by reason (./reporter.cjs).
  reporters: ['default', '<rootDir>/test/conformance/reporter.cjs'],
  maxWorkers: process.env.BASE_URL ? 1 : IN_PROCESS_WORKERS,
  // jest keeps what each ESM test file loads until its worker ends (jestjs/jest#14605): a guard
  // that starts a fresh worker past this heap, so no API is too large for the suite to finish.
  workerIdleMemoryLimit: '600MB',
  // A real service's rate limit can make the suite wait for its window.
  testTimeout: process.env.BASE_URL ? 180_000 : 30_000,
};
