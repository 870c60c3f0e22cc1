import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import pg from 'pg';
import { BUSINESS_MIGRATIONS, REGISTRY_MIGRATIONS } from '../../adapters/persistence/postgres/migrations/migration-sets.js';
import { migrateDatabases } from '../../infrastructure/database/migrate-databases.js';
import { runDatabaseName } from '../support/postgres-test-database.js';
import { onServer, postgresTestServer } from '../support/postgres-test-server.js';
import { PoolerStandIn } from './support/pooler-stand-in.js';

const MIGRATOR = fileURLToPath(new URL('./fixtures/migrate-once.ts', import.meta.url));
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A URL of the server itself (never a pooler's), on another database. */
function directUrl(adminUrl: string, database: string): string {
  const parsed = new URL(adminUrl);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function onDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** What a transaction pooler would keep on its server connections to the database: locks, open transactions. */
async function leftOnServer(database: string): Promise<{ advisoryLocks: number; openTransactions: number }> {
  return onServer(async (client) => {
    const locks = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database where l.locktype = 'advisory' and d.datname = $1",
      [database],
    );
    const open = await client.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = $1 and xact_start is not null and pid <> pg_backend_pid()", [database]);
    return { advisoryLocks: locks.rows[0]?.n ?? -1, openTransactions: open.rows[0]?.n ?? -1 };
  });
}

async function schemaOf(url: string): Promise<{ tables: string[]; history: string[] }> {
  return onDatabase(url, async (client) => {
    const tables = await client.query<{ name: string }>("select table_name as name from information_schema.tables where table_schema = 'public' order by 1");
    const history = await client.query<{ name: string }>(
      'select name from mikro_orm_migrations_registry union all select name from mikro_orm_migrations_business order by 1',
    );
    return { tables: tables.rows.map((row) => row.name), history: history.rows.map((row) => row.name) };
  });
}

const EVERY_MIGRATION = [...REGISTRY_MIGRATIONS.migrations, ...BUSINESS_MIGRATIONS.migrations].map((migration) => migration.name).sort();
const BUSINESS_TABLES = ['boards', 'candidates', 'companies', 'service_keys', 'vacancies'];

describe('Migrations behind a transaction pooler (a stand-in that keeps idle server sessions when their client leaves)', function () {
  this.timeout(60_000);
  let relay: PoolerStandIn;
  let adminUrl: string;
  let database: string;
  let url: string;

  before(async () => {
    const server = await postgresTestServer();
    adminUrl = server.adminUrl;
    // Through TEST_POOLER_URL's pooler when the run has one: the stand-in then sits in front of it.
    const target = new URL(server.urlOf('postgres'));
    relay = await PoolerStandIn.start({ host: target.hostname, port: Number(target.port || 5432) });
  });
  after(async () => relay.close());

  beforeEach(async () => {
    database = runDatabaseName('migrate');
    await onServer((client) => client.query(`create database ${database}`));
    url = relay.urlOf((await postgresTestServer()).urlOf(database));
  });
  afterEach(async () => {
    await onServer((client) => client.query(`drop database if exists ${database} with (force)`));
  });

  it('four migrators started at once on an empty database all succeed, each migration applied once, nothing left on a server session', async () => {
    const reports = await Promise.all([1, 2, 3, 4].map(() => migrateDatabases({ businessUrl: url, registryUrl: url })));
    expect(reports.flatMap((report) => [...report.registry, ...report.business]).sort()).to.deep.equal(EVERY_MIGRATION);
    const schema = await schemaOf(directUrl(adminUrl, database));
    expect(schema.tables).to.include.members(BUSINESS_TABLES);
    expect(schema.history).to.deep.equal(EVERY_MIGRATION);
    expect(await leftOnServer(database)).to.deep.equal({ advisoryLocks: 0, openTransactions: 0 });
    // A later migrator (a start, an admin command) finishes at once, with nothing to do.
    expect(await migrateDatabases({ businessUrl: url, registryUrl: url })).to.deep.equal({ registry: [], business: [] });
  });

  it('a migrator killed (SIGKILL) while it holds the migration lock blocks nothing: the next one completes the schema', async () => {
    // Holds the name of the registry's history table in an open transaction, so that the migrator stops,
    // lock in hand, at its CREATE TABLE until this transaction ends.
    const blocker = new pg.Client({ connectionString: directUrl(adminUrl, database) });
    await blocker.connect();
    let child: ChildProcess | undefined;
    try {
      await blocker.query('begin');
      await blocker.query('create table mikro_orm_migrations_registry (id int)');
      child = spawn(process.execPath, ['--import', 'tsx', MIGRATOR, url], { stdio: 'ignore' });
      await until(async () => (await leftOnServer(database)).advisoryLocks === 1, 'the migrator takes its lock');
      child.kill('SIGKILL');
      await once(child, 'exit');
      await blocker.query('rollback');
    } finally {
      if (child?.exitCode === null) child.kill('SIGKILL');
      await blocker.end();
    }
    const started = Date.now();
    const report = await migrateDatabases({ businessUrl: url, registryUrl: url });
    expect(Date.now() - started, 'the next migrator waited').to.be.below(10_000);
    expect([...report.registry, ...report.business].sort()).to.deep.equal(EVERY_MIGRATION);
    expect((await schemaOf(directUrl(adminUrl, database))).history).to.deep.equal(EVERY_MIGRATION);
    expect((await leftOnServer(database)).advisoryLocks).to.equal(0);
  });
});

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(50);
  }
}
