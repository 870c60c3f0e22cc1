import { readFileSync, rmSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type RunningEmbeddedPostgres } from '../../infrastructure/database/embedded-postgres.js';
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
  // From here on a signal that ends the process takes down what is there (initdb and the start take seconds).
  const guard = signalsHandledHere ? new SignalGuard(dataDir) : null;
  let embedded: RunningEmbeddedPostgres | undefined;
  try {
    // mkdtemp makes the directory 0700; the postgres user (we may be root) must be able to enter it.
    await chmod(dataDir, 0o755);
    embedded = await startEmbeddedPostgres({ dataDir, ephemeral: true });
    const started = embedded;
    const postmasterPid = (await readState(dataDir))?.postmasterPid;
    // Should the run end without the last hook (a crash, mocha's exit), still take the server down: an
    // orphan in a temporary directory would never be reused.
    const onExit = () => {
      if (isAlive(postmasterPid)) process.kill(postmasterPid as number, 'SIGQUIT');
    };
    process.once('exit', onExit);
    shutdown = async () => {
      process.removeListener('exit', onExit);
      if (guard?.tookDown) return;
      await started.stop({ force: true });
      await rm(dataDir, { recursive: true, force: true });
      guard?.remove();
    };
    return await describeServer(started.serverUrl);
  } catch (error) {
    guard?.remove();
    await embedded?.stop({ force: true }).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
}

/** Whether this module answers the signals that end a run (see SignalGuard); leaveSignalsToCaller() turns it off. */
let signalsHandledHere = true;

/**
 * For a runner that stops the embedded server itself, in order, on the signals that end it (npm run
 * test:pooler: the suites first, then PgBouncer, then the server): the server is then not taken down at once.
 * Call before the first postgresTestServer().
 */
export function leaveSignalsToCaller(): void {
  signalsHandledHere = false;
}

const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * A signal's default action ends the process without an 'exit' event: Ctrl-C of `npm test` (mocha's own
 * SIGINT listener ends the run by raising SIGINT again) left the embedded server running, detached, and its
 * directory behind. From the moment the directory exists until the server's stop has finished, a SIGINT,
 * SIGTERM or SIGHUP takes the server down at once (SIGQUIT, waited for up to 5 s) and removes the directory,
 * synchronously, since the process ends right after; then the process dies of the signal, unless another
 * listener (mocha's) ends the run itself.
 */
class SignalGuard {
  private done = false;
  private readonly onSignal = (signal: NodeJS.Signals) => {
    this.remove();
    this.done = true;
    takeDownAtOnce(this.dataDir);
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };

  constructor(private readonly dataDir: string) {
    for (const signal of STOP_SIGNALS) process.on(signal, this.onSignal);
  }

  /** Whether a signal took the server down (nothing is left to stop). */
  get tookDown(): boolean {
    return this.done;
  }

  remove(): void {
    for (const signal of STOP_SIGNALS) process.removeListener(signal, this.onSignal);
  }
}

/** The postmaster's pid as its own postmaster.pid says, read at the moment asked: it may be starting. */
export function postmasterPidIn(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function takeDownAtOnce(dataDir: string): void {
  const pid = postmasterPidIn(dataDir);
  if (pid !== null && isAlive(pid)) {
    process.kill(pid, 'SIGQUIT');
    const pause = new Int32Array(new SharedArrayBuffer(4));
    const deadline = Date.now() + 5_000;
    while (isRunning(pid) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 20);
  }
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * Whether the process runs: not gone, and not a zombie (exited, not yet reaped: a child of ours, or one a
 * container's init never reaps). Without /proc: not known, so no.
 */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
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
