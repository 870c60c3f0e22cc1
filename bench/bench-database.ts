import { chmod, mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type RunningEmbeddedPostgres } from '../infrastructure/database/embedded-postgres.js';
import { migrateDatabases } from '../infrastructure/database/migrate-databases.js';
import { serverAnswers } from '../infrastructure/database/embedded-postgres-probes.js';

/** The PostgreSQL server the bench creates its database on. */
export interface BenchServer {
  /** Where it came from, for the report. */
  readonly origin: 'DATABASE_URL' | 'local 127.0.0.1:5432' | 'embedded';
  /** A URL with rights to create and drop databases. */
  readonly adminUrl: string;
  urlOf(database: string): string;
  stop(): Promise<void>;
}

const LOCAL_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

/** DATABASE_URL's server if set; else a PostgreSQL on 127.0.0.1:5432 if it answers; else an embedded one. */
export async function openBenchServer(dataDir: string): Promise<BenchServer> {
  const external = process.env.DATABASE_URL?.trim();
  if (external) return serverAt(external, 'DATABASE_URL', async () => undefined);
  if (await serverAnswers(LOCAL_URL)) return serverAt(LOCAL_URL, 'local 127.0.0.1:5432', async () => undefined);
  const dir = resolve(dataDir);
  await mkdir(dir, { recursive: true });
  // The postgres user (we may be root) must be able to enter the directory.
  await chmod(dir, 0o755);
  const embedded: RunningEmbeddedPostgres = await startEmbeddedPostgres({ dataDir: dir, ephemeral: true });
  return serverAt(embedded.serverUrl, 'embedded', () => embedded.stop({ force: true }));
}

function serverAt(adminUrl: string, origin: BenchServer['origin'], stop: () => Promise<void>): BenchServer {
  return {
    origin,
    adminUrl,
    urlOf: (database) => {
      const url = new URL(adminUrl);
      url.pathname = `/${database}`;
      return url.toString();
    },
    stop,
  };
}


export async function onAdmin<T>(server: BenchServer, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server.adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function databaseExists(server: BenchServer, name: string): Promise<boolean> {
  return onAdmin(server, async (client) => ((await client.query('select 1 from pg_database where datname = $1', [name])).rowCount ?? 0) > 0);
}

/** A new, empty database with the service's schema. */
export async function createBenchDatabase(server: BenchServer, name: string): Promise<string> {
  await onAdmin(server, (client) => client.query(`create database ${client.escapeIdentifier(name)}`));
  const url = server.urlOf(name);
  await migrateDatabases({ businessUrl: url, registryUrl: url });
  return url;
}

/** A copy of a database nobody is connected to (PostgreSQL's CREATE DATABASE … TEMPLATE). */
export async function copyBenchDatabase(server: BenchServer, from: string, to: string): Promise<string> {
  await onAdmin(server, (client) => client.query(`create database ${client.escapeIdentifier(to)} template ${client.escapeIdentifier(from)}`));
  return server.urlOf(to);
}

export async function dropBenchDatabase(server: BenchServer, name: string): Promise<void> {
  await onAdmin(server, (client) => client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`));
}

/** What the bench needs to find its seeded data again in a reused database: kept in a table of its own. */
export interface SeedRecord {
  readonly companyId: string;
  readonly key: string;
  readonly vacancies: number;
  readonly candidates: number;
  readonly seed: number;
}

export async function readSeedRecord(url: string): Promise<SeedRecord | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const table = await client.query("select to_regclass('bench_seed') as t");
    if (table.rows[0]?.t === null) return null;
    const rows = await client.query<{ record: SeedRecord }>('select record from bench_seed where complete');
    return rows.rows[0]?.record ?? null;
  } finally {
    await client.end();
  }
}

export async function writeSeedRecord(url: string, record: SeedRecord): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create table if not exists bench_seed (record jsonb not null, complete boolean not null)');
    await client.query('delete from bench_seed');
    await client.query('insert into bench_seed (record, complete) values ($1, true)', [JSON.stringify(record)]);
  } finally {
    await client.end();
  }
}
