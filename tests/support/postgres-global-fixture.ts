import { dropRunDatabases, newTestRunId, sharedMigratedTemplate, TEMPLATE_ENV, TEST_RUN_ENV } from './postgres-test-database.js';
import { postgresTestServer, SERVER_ENV, stopPostgresTestServer } from './postgres-test-server.js';

/**
 * `npm test` (the mocha of .mocharc.json, files in parallel worker processes): one PostgreSQL server and one
 * migrated template database for the whole run, made here in mocha's main process before any worker starts,
 * and handed to the workers in environment variables, which they inherit. Without this, each worker would
 * start its own embedded server and migrate its own template, and stop them after its first file only (mocha
 * runs a test module's root hooks with the first file that loads it in a worker).
 */
export async function mochaGlobalSetup(): Promise<void> {
  // Before the first test (the files are loaded, no test has run) and before any worker starts.
  process.env[TEST_RUN_ENV] = newTestRunId();
  try {
    const server = await postgresTestServer();
    process.env[SERVER_ENV] = server.adminUrl;
    process.env[TEMPLATE_ENV] = await sharedMigratedTemplate();
  } catch (error) {
    // mocha skips the teardown when the setup fails: take down what was made so far.
    await mochaGlobalTeardown().catch(() => undefined);
    throw error;
  }
}

/** Drops every database of the run a test left behind (on a server given by DATABASE_URL), then the embedded server. */
export async function mochaGlobalTeardown(): Promise<void> {
  try {
    await dropRunDatabases();
  } finally {
    await stopPostgresTestServer();
  }
}
