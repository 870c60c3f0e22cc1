import { existsSync, readFileSync, rmSync } from 'node:fs';
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
  /** The URL handed to the code under test: through the pooler when TEST_POOLER_URL is set, else direct. */
  urlOf(database: string): string;
  /** Always the server itself, for what must not go through a pooler (a template database's migration). */
  directUrlOf(database: string): string;
  /** Whether CREATE DATABASE ... STRATEGY FILE_COPY is available (PostgreSQL 15+). */
  readonly fileCopy: boolean;
}

/** Set by postgres-global-fixture.ts in mocha's main process: the run's server, for every worker. */
export const SERVER_ENV = 'TEST_POSTGRES_URL';

let server: Promise<PostgresTestServer> | undefined;
let shutdown: (() => Promise<void>) | undefined;

/**
 * TEST_POOLER_URL (`postgres://127.0.0.1:PORT`, set by `npm run test:pooler`): a connection pooler in front
 * of the server. urlOf() then names the pooler's host and port (same user, password and database), so every
 * connection of the service goes through it, while creating and dropping databases goes direct (adminUrl):
 * a pooler would keep server connections to a database open, and CREATE DATABASE ... TEMPLATE refuses a
 * template that anyone is connected to.
 */
const POOLER_URL = process.env.TEST_POOLER_URL?.trim() || null;

/**
 * DATABASE_URL set: that server. Unset: one embedded PostgreSQL for the whole test run, in a temporary
 * directory, fast and unsafe (no fsync), stopped and removed after the last test. In a worker of a parallel
 * run, the server the global fixture started (postgres-global-fixture.ts).
 */
export function postgresTestServer(): Promise<PostgresTestServer> {
  server ??= start();
  return server;
}

async function start(): Promise<PostgresTestServer> {
  const external = process.env.DATABASE_URL?.trim();
  if (external) return describeServer(external);
  const shared = process.env[SERVER_ENV]?.trim();
  if (shared) return describeServer(shared);
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
  // A signal's default action ends the process without an 'exit' event: Ctrl-C of `npm test` (mocha's own
  // SIGINT listener ends the run by raising SIGINT again) left the server running and its directory behind.
  const onSignal = (signal: NodeJS.Signals) => {
    removeListeners();
    takeDownAtOnce(postmasterPid, dataDir);
    // Die of the signal as the process would have, unless another listener (mocha's) ends the run itself.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const removeListeners = () => {
    process.removeListener('exit', onExit);
    for (const signal of STOP_SIGNALS) process.removeListener(signal, onSignal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  shutdown = async () => {
    removeListeners();
    await embedded.stop({ force: true });
    await rm(dataDir, { recursive: true, force: true });
  };
  return describeServer(embedded.serverUrl);
}

const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Immediate shutdown of the embedded server (SIGQUIT), waited for up to 5 s, then its directory removed:
 * all synchronous, inside a signal's listener, since the process ends right after it.
 */
function takeDownAtOnce(postmasterPid: number | undefined, dataDir: string): void {
  if (isAlive(postmasterPid)) {
    process.kill(postmasterPid as number, 'SIGQUIT');
    const pause = new Int32Array(new SharedArrayBuffer(4));
    const deadline = Date.now() + 5_000;
    while (isRunning(postmasterPid as number) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 20);
  }
  rmSync(dataDir, { recursive: true, force: true });
}

/** Whether the process runs: not gone, and not a zombie (a child of ours that exited, not yet reaped). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return isAlive(pid) && !existsSync('/proc/self'); // no /proc: alive is all there is to know
  }
}

async function describeServer(adminUrl: string): Promise<PostgresTestServer> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const version = await client.query<{ v: number }>("select current_setting('server_version_num')::int as v");
    return {
      adminUrl,
      urlOf: (database) => withDatabase(POOLER_URL === null ? adminUrl : throughPooler(adminUrl, POOLER_URL), database),
      directUrlOf: (database) => withDatabase(adminUrl, database),
      fileCopy: (version.rows[0]?.v ?? 0) >= 150_000,
    };
  } finally {
    await client.end();
  }
}

function throughPooler(url: string, pooler: string): string {
  const parsed = new URL(url);
  const { hostname, port } = new URL(pooler);
  parsed.hostname = hostname;
  parsed.port = port;
  return parsed.toString();
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
