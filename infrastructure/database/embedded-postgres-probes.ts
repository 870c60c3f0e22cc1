/** SQL-level checks of the embedded server, each on a short-lived connection of its own. */
import pg from 'pg';
import { isAlive } from './embedded-postgres-files.js';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Whether a PostgreSQL server answers at this URL within 2 s (a server to use when it is there). */
export async function serverAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Connections to the server other than this probe's own. */
export async function otherConnections(serverUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: serverUrl });
  try {
    await client.connect();
    const result = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()",
    );
    return result.rows[0]?.n ?? 0;
  } catch {
    return 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function ensureDatabase(serverUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/** A server found running may still be starting up: wait until it answers, or give up clearly. */
export async function waitUntilReachable(serverUrl: string, pid: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const client = new pg.Client({ connectionString: serverUrl });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (error) {
      if (!isAlive(pid) || Date.now() > deadline) {
        throw new Error(`The embedded PostgreSQL already running (pid ${pid}) does not answer: ${(error as Error).message}`);
      }
      await sleep(200);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
