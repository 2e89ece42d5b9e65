/** Browser tests of the reference check-in page: `npm run test:e2e` (needs Debian's chromium). */
const base = require('./jest.config.js');

module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/e2e/**/*.e2e.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
  testTimeout: 120000,
};
