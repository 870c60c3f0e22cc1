import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { chmod, chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { postgresUser } from '../../../infrastructure/database/embedded-postgres-process.js';
import { stablePort } from '../../support/stable-port.js';

/** Debian's package (`apt-get install -y pgbouncer`); nothing of PgBouncer comes from npm. */
export const PGBOUNCER_BINARY = '/usr/sbin/pgbouncer';

/** The binary to run: PGBOUNCER_BINARY in the environment (another build, or a test of its absence), else Debian's. */
function binary(): string {
  return process.env.PGBOUNCER_BINARY?.trim() || PGBOUNCER_BINARY;
}

/** What PgBouncer logs when a client sends a startup parameter that transaction pooling cannot keep. */
export const REFUSED_STARTUP_PARAMETER = 'unsupported startup parameter';

export class PgBouncerMissingError extends Error {
  constructor(path: string) {
    super(`PgBouncer is not installed: ${path} is missing. Install Debian's package (as root: apt-get install -y pgbouncer) and run again.`);
  }
}

/** Throws PgBouncerMissingError, naming the package to install, when the binary is not there. */
export function assertPgBouncerInstalled(): void {
  if (!existsSync(binary())) throw new PgBouncerMissingError(binary());
}

export interface PgBouncerOptions {
  /** The real server, as a URL with admin rights: its host, port, user and password are what PgBouncer logs in with. */
  readonly serverUrl: string;
  /** Server connections per database and user (PgBouncer's default_pool_size); unset, PgBouncer's default (20). */
  readonly defaultPoolSize?: number;
}

/** One row of the console's SHOW POOLS, the columns the tests read. */
export interface PoolRow {
  readonly database: string;
  readonly user: string;
  readonly clActive: number;
  readonly clWaiting: number;
  /** How long the oldest waiting client has waited, in ms. */
  readonly maxWaitMs: number;
  /** Server connections that exist: active, idle, used, being tested or logging in. */
  readonly servers: number;
}

export interface RunningPgBouncer {
  /** Its process id (it runs in the foreground, a child of this process). */
  readonly pid: number;
  readonly port: number;
  /** The temporary directory of its ini, auth file, log, pid and socket; removed by stop(). */
  readonly directory: string;
  /** postgres://127.0.0.1:port, for TEST_POOLER_URL. */
  readonly url: string;
  /** The server URL with its host and port replaced by PgBouncer's, on `database`. */
  urlOf(database: string): string;
  /** Everything PgBouncer logged so far. */
  log(): Promise<string>;
  /** The log lines that refused a startup parameter (a client that cannot work through transaction pooling). */
  refusedStartupParameters(): Promise<string[]>;
  showPools(): Promise<PoolRow[]>;
  /** Rows of a console command (SHOW STATS, SHOW CLIENTS, ...), as the console returns them. */
  console(command: string): Promise<Record<string, unknown>[]>;
  /** Immediate shutdown (SIGTERM), SIGKILL past 5 s, then the temporary directory goes; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * A private PgBouncer in pool_mode = transaction, everything else at PgBouncer's defaults but what a
 * private instance needs: its own port on 127.0.0.1, its own ini, log, pid and socket directory, trust
 * from clients (the real server still checks the password PgBouncer sends from its auth file), and every
 * database name routed to the real server. PgBouncer refuses to run as root: under root it runs as the
 * `postgres` system user (else `nobody`). It is a child of this process, killed when this process exits.
 */
export async function startPgBouncer(options: PgBouncerOptions): Promise<RunningPgBouncer> {
  assertPgBouncerInstalled();
  const executable = binary();
  const server = new URL(options.serverUrl);
  const user = decodeURIComponent(server.username) || 'postgres';
  const password = decodeURIComponent(server.password);
  const dir = await mkdtemp(join(tmpdir(), 'integration-api-pgbouncer-'));
  const port = await stablePort();
  const ini = join(dir, 'pgbouncer.ini');
  const logFile = join(dir, 'pgbouncer.log');
  const ids = await unprivilegedIds();
  await writeFile(join(dir, 'users.txt'), `${quoted(user)} ${quoted(password)}\n`, { mode: 0o600 });
  await writeFile(ini, iniText({ dir, port, user, server, defaultPoolSize: options.defaultPoolSize }), { mode: 0o600 });
  if (ids !== null) {
    for (const path of [dir, ini, join(dir, 'users.txt')]) await chown(path, ids.uid, ids.gid);
    await chmod(dir, 0o700);
  }

  let stderr = '';
  const child = spawn(executable, [ini], { stdio: ['ignore', 'ignore', 'pipe'], ...(ids ?? {}) });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-8_000)));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // Should this process end without stop() (mocha's --exit, an uncaught error), PgBouncer goes with it.
  const onExit = () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.removeListener('exit', onExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    })());

  // In the foreground it logs to stderr as well as to its file: the file, unless it failed before opening it.
  const log = async () => (await readFile(logFile, 'utf8').catch(() => '')) || stderr;
  try {
    await listening(port, child, 10_000);
  } catch (error) {
    const text = await log();
    await stop();
    throw new Error(`${(error as Error).message}\n${text}`);
  }

  const urlOf = (database: string) => {
    const url = new URL(options.serverUrl);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    url.pathname = `/${database}`;
    return url.toString();
  };
  return {
    pid: child.pid as number,
    port,
    directory: dir,
    url: `postgres://127.0.0.1:${port}`,
    urlOf,
    log,
    refusedStartupParameters: async () => (await log()).split('\n').filter((line) => line.includes(REFUSED_STARTUP_PARAMETER)),
    showPools: async () => (await consoleRows(urlOf('pgbouncer'), 'SHOW POOLS')).map(poolRow),
    console: (command) => consoleRows(urlOf('pgbouncer'), command),
    stop,
  };
}

function iniText(settings: { dir: string; port: number; user: string; server: URL; defaultPoolSize: number | undefined }): string {
  const host = settings.server.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  const serverPort = settings.server.port || '5432';
  return [
    '[databases]',
    // The fallback entry: any database name a client asks for is the same name on the real server.
    `* = host=${host} port=${serverPort}`,
    '',
    '[pgbouncer]',
    'pool_mode = transaction',
    'listen_addr = 127.0.0.1',
    `listen_port = ${settings.port}`,
    // Not /tmp: two private instances (or a system one) must not meet on one socket name.
    `unix_socket_dir = ${settings.dir}`,
    `pidfile = ${join(settings.dir, 'pgbouncer.pid')}`,
    `logfile = ${join(settings.dir, 'pgbouncer.log')}`,
    // The client is the test on 127.0.0.1; the file gives the password PgBouncer logs in to the server with.
    'auth_type = trust',
    `auth_file = ${join(settings.dir, 'users.txt')}`,
    `admin_users = ${settings.user}`,
    ...(settings.defaultPoolSize === undefined ? [] : [`default_pool_size = ${settings.defaultPoolSize}`]),
    '',
  ].join('\n');
}

/** The auth file's quoting: in double quotes, a double quote doubled. */
function quoted(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}

async function unprivilegedIds(): Promise<{ uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return null;
  const ids = (await postgresUser()) ?? (await idsOf('nobody'));
  if (ids === null) throw new Error('PgBouncer will not run as root, and there is neither a postgres nor a nobody user to run it as.');
  return ids;
}

async function idsOf(name: string): Promise<{ uid: number; gid: number } | null> {
  const { execFile } = await import('node:child_process');
  const run = (flag: string) =>
    new Promise<number | null>((done) => execFile('id', [flag, name], (error, stdout) => done(error ? null : Number(stdout.trim()))));
  const [uid, gid] = await Promise.all([run('-u'), run('-g')]);
  return uid === null || gid === null ? null : { uid, gid };
}

async function listening(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`PgBouncer exited (${child.exitCode ?? child.signalCode}) before it listened on ${port}:`);
    if (await answers(port)) return;
    if (Date.now() > deadline) throw new Error(`PgBouncer did not listen on 127.0.0.1:${port} within ${timeoutMs} ms:`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

function answers(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.end();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

async function consoleRows(consoleUrl: string, command: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: consoleUrl });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(command)).rows;
  } finally {
    await client.end();
  }
}

function poolRow(row: Record<string, unknown>): PoolRow {
  const n = (column: string) => Number(row[column] ?? 0);
  return {
    database: String(row.database),
    user: String(row.user),
    clActive: n('cl_active'),
    clWaiting: n('cl_waiting'),
    maxWaitMs: n('maxwait') * 1_000 + Math.floor(n('maxwait_us') / 1_000),
    servers: ['sv_active', 'sv_idle', 'sv_used', 'sv_tested', 'sv_login'].reduce((sum, column) => sum + n(column), 0),
  };
}
