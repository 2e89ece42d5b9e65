/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: '<rootDir>/test/support/node-environment.ts',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
  // sucrase is plain JavaScript: no native binaries, which this machine's registry lacks for other platforms.
  transform: {
    '^.+\\.(t|j|mj)s$': ['@sucrase/jest-plugin', { disableESTransforms: true }],
  },
  // middy and request-filtering-agent ship ES modules only; everything else in node_modules is CommonJS already.
  transformIgnorePatterns: ['/node_modules/(?!@middy/|request-filtering-agent/)'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFiles: ['<rootDir>/test/support/test-environment.ts'],
  maxWorkers: 2,
  testTimeout: 30000,
};
