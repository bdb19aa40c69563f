/**
 * Jest 30 in ESM mode (NestJS 12 is ESM-only): run with NODE_OPTIONS=--experimental-vm-modules.
 * Unit specs sit beside the code; end-to-end suites in test/e2e run against the real app and a
 * real database (the embedded FerretDB started once in global setup, or MONGODB_URI).
 */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/lib/**/*.spec.ts',
    '<rootDir>/client/**/*.spec.ts',
    '<rootDir>/companions/**/*.spec.ts',
    '<rootDir>/test/e2e/**/*.e2e-spec.ts',
  ],
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  testTimeout: 30_000,
  maxWorkers: 2,
  verbose: true,
};
