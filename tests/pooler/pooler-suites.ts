/**
 * What `npm run test:pooler` runs through PgBouncer (transaction pooling), as mocha spec globs relative to
 * the repository. Add a suite here to have it run through the pooler as well as in `npm test`; a suite
 * that needs PgBouncer itself (and so stays out of `npm test`) is named `*.pooler-test.ts` under tests/pooler/.
 */
export const POOLER_SUITES: readonly string[] = [
  // What `npm run test:http-postgres` runs: every connection of the app under test goes through the pooler.
  'tests/http/**/*.test.ts',
  'tests/hostile/**/*.test.ts',
  // Issue 18, item 2: migrations under a transaction-level advisory lock.
  'tests/postgres/migration-lock.test.ts',
  // Issue 18, item 1: timeouts per transaction, and nothing left on a server connection.
  'tests/faults/statement-timeout.test.ts',
  'tests/postgres/session-state.test.ts',
  // The harness's own tests, and many instances on few server connections (issue 18, item 3): PgBouncers of their own.
  'tests/pooler/**/*.pooler-test.ts',
];
