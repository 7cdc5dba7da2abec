// Mocha's configuration. With no test files named, every test runs (unit, then end to end);
// `npx mocha test/unit/foo.test.ts` runs only the files named: mocha merges a config's `spec`
// with the command line's, so the default list is left out when the command line names tests.
const namesTests = process.argv.slice(2).some((arg) => /\.test\.ts$/.test(arg) || /^test\//.test(arg));

module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  ...(namesTests ? {} : { spec: ['test/unit/**/*.test.ts', 'test/e2e/**/*.test.ts'] }),
  reporter: './test/support/summaryReporter.cjs',
  timeout: 60000,
};
