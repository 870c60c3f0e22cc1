import { sharedMigratedTemplate, dropRunDatabases, TEST_RUN_ENV, TEMPLATE_ENV } from './postgres-test-database.js';
import { postgresTestServer, SERVER_ENV, stopPostgresTestServer } from './postgres-test-server.js';

/**
 * `npm test` (the mocha of .mocharc.json, files in parallel worker processes): one PostgreSQL server and one
 * migrated template database for the whole run, made here in mocha's main process before any worker starts,
 * and handed to the workers in environment variables, which they inherit. Without this, each worker would
 * start its own embedded server and migrate its own template, and stop them after its first file only (mocha
 * runs a test module's root hooks with the first file that loads it in a worker).
 *
 * Set while this module loads (in the main process before the spec files, in each worker before its first
 * file), so that postgres-test-database.ts sees that the run's end is taken care of here.
 */
process.env[TEST_RUN_ENV] ??= String(process.pid);

export async function mochaGlobalSetup(): Promise<void> {
  const server = await postgresTestServer();
  process.env[SERVER_ENV] = server.adminUrl;
  process.env[TEMPLATE_ENV] = await sharedMigratedTemplate();
}

/** Drops every database of the run a test left behind (on a server given by DATABASE_URL), then the embedded server. */
export async function mochaGlobalTeardown(): Promise<void> {
  try {
    await dropRunDatabases();
  } finally {
    await stopPostgresTestServer();
  }
}
