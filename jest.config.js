import { availableParallelism } from 'node:os';
import { createDefaultEsmPreset } from 'ts-jest';

/** @type {import('jest').Config} */
export default {
  ...createDefaultEsmPreset({ tsconfig: 'tsconfig.json' }),
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Golden trees and fixtures hold generated projects, whose conformance suites run only against a service.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/golden/[^/]+/', '<rootDir>/test/fixtures/'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // At least two files at a time (jest's default, one fewer than the cores, is one on 2 cores): most
  // files run one process at a time (tsc, a service, a suite), which leaves the other core idle.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  testSequencer: '<rootDir>/test/sequencer.cjs',
  // A bound for a test that hangs: a suite run of a minute alone may take several beside another file.
  testTimeout: 300_000,
};
