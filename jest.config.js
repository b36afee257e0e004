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
  testTimeout: 120000,
};
