import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../infrastructure/database/embedded-postgres.js';
import { isAlive, readState } from '../../infrastructure/database/embedded-postgres-files.js';

/** The PostgreSQL server that throwaway test databases are created on. */
export interface PostgresTestServer {
  /** A URL of the server with admin rights, to create and drop databases. */
  readonly adminUrl: string;
  urlOf(database: string): string;
  /** Whether CREATE DATABASE ... STRATEGY FILE_COPY is available (PostgreSQL 15+). */
  readonly fileCopy: boolean;
}

let server: Promise<PostgresTestServer> | undefined;
let shutdown: (() => Promise<void>) | undefined;

/**
 * DATABASE_URL set: that server. Unset: one embedded PostgreSQL for the whole test run, in a temporary
 * directory, fast and unsafe (no fsync), stopped and removed after the last test.
 */
export function postgresTestServer(): Promise<PostgresTestServer> {
  server ??= start();
  return server;
}

async function start(): Promise<PostgresTestServer> {
  const external = process.env.DATABASE_URL?.trim();
  if (external) return describeServer(external);
  const dataDir = await mkdtemp(join(tmpdir(), 'integration-api-test-pg-'));
  // mkdtemp makes the directory 0700; the postgres user (we may be root) must be able to enter it.
  await chmod(dataDir, 0o755);
  const embedded = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  const postmasterPid = (await readState(dataDir))?.postmasterPid;
  // Should the run end without the last hook (a crash, mocha's exit), still take the server down: an
  // orphan in a temporary directory would never be reused.
  const onExit = () => {
    if (isAlive(postmasterPid)) process.kill(postmasterPid as number, 'SIGQUIT');
  };
  process.once('exit', onExit);
  shutdown = async () => {
    process.removeListener('exit', onExit);
    await embedded.stop({ force: true });
    await rm(dataDir, { recursive: true, force: true });
  };
  return describeServer(embedded.serverUrl);
}

async function describeServer(adminUrl: string): Promise<PostgresTestServer> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const version = await client.query<{ v: number }>("select current_setting('server_version_num')::int as v");
    return { adminUrl, urlOf: (database) => withDatabase(adminUrl, database), fileCopy: (version.rows[0]?.v ?? 0) >= 150_000 };
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Runs SQL on the server's admin connection. */
export async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: (await postgresTestServer()).adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Stops the embedded server, if this run started one. Called once, after the last test. */
export async function stopPostgresTestServer(): Promise<void> {
  await shutdown?.();
  shutdown = undefined;
  server = undefined;
}
