import { randomBytes } from 'node:crypto';
import { PgFeedLedger } from '../../adapters/persistence/postgres/pg-feed-ledger.js';
import type { PgUnitOfWorkOptions } from '../../adapters/persistence/postgres/pg-unit-of-work.js';
import type { PostgresTimeouts } from '../../adapters/persistence/postgres/pg-database.js';
import { pgPersistence } from '../../adapters/persistence/postgres/pg-persistence.js';
import { migrateDatabases } from '../../infrastructure/database/migrate-databases.js';
import { openDatabases, type Databases } from '../../infrastructure/database/open-databases.js';
import type { AdapterFactory, PersistenceAdapters } from '../contract/persistence-adapters.js';
import { onServer, postgresTestServer, stopPostgresTestServer } from './postgres-test-server.js';

/** A migrated throwaway database (two, with a separate key registry), with MikroORM open on it. */
export interface PostgresTestDatabase {
  readonly businessUrl: string;
  readonly registryUrl: string;
  readonly databases: Databases;
  /** The adapters of every port on this database; options reach the unit of work (test seams). */
  adapters(options?: PgUnitOfWorkOptions): PersistenceAdapters;
  /** Closes the pools and drops the database(s). */
  drop(): Promise<void>;
}

/**
 * Set by postgres-global-fixture.ts (`npm test`) in mocha's main process before any test, and inherited by the
 * workers: the run's id, in the name of every database the run creates. Its presence also says that the fixture
 * ends the run (drops its databases, stops the server), not this module's root hook. Read when used, never while
 * modules load: the fixture's own imports load before it sets the variable.
 */
export const TEST_RUN_ENV = 'TEST_POSTGRES_RUN';
/** Set by postgres-global-fixture.ts in the main process: the run's migrated template, for every worker. */
export const TEMPLATE_ENV = 'TEST_POSTGRES_TEMPLATE';

/** A new run's id: the process and a random part, so that runs on one server (even from other hosts) never share one. */
export function newTestRunId(): string {
  return `${process.pid}_${randomBytes(2).toString('hex')}`;
}

const OWN_RUN = newTestRunId();
const runId = () => process.env[TEST_RUN_ENV] ?? OWN_RUN;

/** A name for a database of this run (`itest_<run>_<what>_<random>`), which the fixture drops if a test leaves it behind. */
export function runDatabaseName(what: string): string {
  return `itest_${runId()}_${what}_${randomBytes(4).toString('hex')}`;
}

let template: Promise<string> | undefined;
const created = new Set<string>();

/** A database with every migration applied, copied for each test database (much faster than migrating each). */
function migratedTemplate(): Promise<string> {
  const shared = process.env[TEMPLATE_ENV];
  if (shared) return Promise.resolve(shared);
  return sharedMigratedTemplate();
}

/** Creates the template (once per process); the global fixture creates the run's one in mocha's main process. */
export function sharedMigratedTemplate(): Promise<string> {
  template ??= (async () => {
    const server = await postgresTestServer();
    const name = runDatabaseName('template');
    await onServer((client) => client.query(`create database ${name}`));
    created.add(name);
    // Direct, never through a pooler: its server connections would stay open to the template (see postgres-test-server.ts).
    await migrateDatabases({ businessUrl: server.directUrlOf(name), registryUrl: server.directUrlOf(name) });
    return name;
  })();
  return template;
}

async function createDatabase(): Promise<string> {
  const server = await postgresTestServer();
  const source = await migratedTemplate();
  const name = runDatabaseName('db');
  const strategy = server.fileCopy ? ' strategy file_copy' : '';
  await onServer((client) => client.query(`create database ${name} template ${source}${strategy}`));
  created.add(name);
  return name;
}

async function dropDatabase(name: string): Promise<void> {
  await onServer((client) => client.query(`drop database if exists ${name} with (force)`));
  created.delete(name);
}

export interface PostgresTestDatabaseOptions {
  /** The key registry in a database of its own. */
  readonly separateRegistry?: boolean;
  /** The pools' connections keep prepared statements (DB_PREPARED_STATEMENTS=on, ADR 22). */
  readonly preparedStatements?: boolean;
  /** The timeouts the service sets (the SET LOCAL bounds and pg's read timeout, pg-database.ts); none by default. */
  readonly timeouts?: PostgresTimeouts;
  /** Connections of each pool; 10 by default. */
  readonly poolMax?: number;
}

/** Creates a throwaway database on the test server (see postgres-test-server.ts), migrated and opened. */
export async function createPostgresTestDatabase(options: PostgresTestDatabaseOptions = {}): Promise<PostgresTestDatabase> {
  const server = await postgresTestServer();
  const business = await createDatabase();
  const registry = options.separateRegistry ? await createDatabase() : business;
  const businessUrl = server.urlOf(business);
  const registryUrl = server.urlOf(registry);
  // dataDir is only for the embedded server, which openDatabases does not start when given URLs.
  const databases = await openDatabases({
    databaseUrl: businessUrl,
    keysDatabaseUrl: registryUrl,
    dataDir: '',
    poolMax: options.poolMax ?? 10,
    preparedStatements: options.preparedStatements === true,
    ...(options.timeouts === undefined ? {} : { timeouts: options.timeouts }),
  });
  return {
    businessUrl,
    registryUrl,
    databases,
    adapters: (unitOfWork) => ({ ...pgPersistence(databases, unitOfWork), feedLedger: new PgFeedLedger(databases.business) }),
    async drop() {
      await databases.close();
      await dropDatabase(business);
      if (registry !== business) await dropDatabase(registry);
    },
  };
}

/** A migrated throwaway database that the caller opens itself (a whole container, a server process). */
export async function createThrowawayDatabaseUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = await postgresTestServer();
  const name = await createDatabase();
  return { url: server.urlOf(name), drop: () => dropDatabase(name) };
}

/** One database for the enclosing describe block: created before its first test, dropped after its last. */
export function usePostgresTestDatabase(options: PostgresTestDatabaseOptions = {}): () => PostgresTestDatabase {
  let database: PostgresTestDatabase | undefined;
  before(async function () {
    this.timeout(60_000);
    database = await createPostgresTestDatabase(options);
  });
  // As long as the creation may take: closing the pools and dropping the database wait on the server, which
  // a parallel run's other files keep busy (seen over 20 s with three workers, while other files ran initdb and started servers).
  after(async function () {
    this.timeout(60_000);
    await database?.drop();
    database = undefined;
  });
  return () => {
    if (database === undefined) throw new Error('the test database is created in a before hook');
    return database;
  };
}

/** A contract-suite factory on one test database: the suites use fresh company ids, so nothing is cleaned between tests. */
export function postgresAdapterFactory(database: () => PostgresTestDatabase): AdapterFactory {
  return {
    name: 'postgres',
    make: async () => database().adapters(),
    release: async () => {},
  };
}

/** Drops what is left (the template) and stops the embedded server if this run started one. */
export async function cleanUpPostgresTests(): Promise<void> {
  try {
    for (const name of [...created]) await dropDatabase(name).catch(() => undefined);
  } finally {
    template = undefined;
    await stopPostgresTestServer();
  }
}

/** Drops every database whose name has this run's id: those a test left behind, and the template. */
export async function dropRunDatabases(): Promise<void> {
  const prefix = `itest_${runId()}_`;
  const rows = await onServer((client) => client.query<{ name: string }>('select datname as name from pg_database where left(datname, $1) = $2', [prefix.length, prefix]));
  for (const { name } of rows.rows) await dropDatabase(name);
  template = undefined;
}

// A root-level hook (this module is imported while mocha loads the test files): after the last test. Idle
// under the global fixture, which ends the run: in parallel mode mocha runs this hook after a worker's first
// file only.
if (typeof after === 'function') {
  after(async function () {
    this.timeout(60_000);
    if (process.env[TEST_RUN_ENV] !== undefined) return;
    await cleanUpPostgresTests();
  });
}
