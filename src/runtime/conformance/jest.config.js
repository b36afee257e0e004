/**
 * The conformance suite's jest configuration: `npm run test:conformance`.
 * Files run one at a time against BASE_URL (they share its data and its rate
 * limit); in-process, each file starts a service of its own.
 */
/** @type {import('jest').Config} */
export default {
  rootDir: '../..',
  roots: ['<rootDir>/test/conformance'],
  testMatch: ['**/*.test.ts'],
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { useESM: true, tsconfig: '<rootDir>/test/conformance/tsconfig.json' },
    ],
  },
  testSequencer: '<rootDir>/test/conformance/sequencer.cjs',
  maxWorkers: process.env.BASE_URL ? 1 : '50%',
  // A real service's rate limit can make the suite wait for its window.
  testTimeout: process.env.BASE_URL ? 180_000 : 30_000,
};
