import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  assertReachableBy, isAlive, livePostmaster, newPassword, readState, withDataDirLock, writeState, type EmbeddedPostgresState,
} from './embedded-postgres-files.js';
import { EmbeddedPostgresLog } from './embedded-postgres-log.js';
import { ensureDatabase, otherConnections, waitUntilReachable } from './embedded-postgres-probes.js';
import {
  binariesDir, freePortForCluster, killAndWait, loadEmbeddedPostgres, postgresUser, PostmasterProcess, type EmbeddedPostgresClass,
} from './embedded-postgres-process.js';

export interface EmbeddedPostgresOptions {
  /** DATA_DIR. The cluster lives in <dataDir>/postgres; how to reach it, in <dataDir>/embedded-postgres.json. */
  readonly dataDir: string;
  /** The database the service uses; created when missing. */
  readonly database?: string;
  /** No fsync and friends: for throwaway clusters in tests only. */
  readonly ephemeral?: boolean;
  /**
   * The port to listen on (EMBEDDED_PG_PORT), kept in DATA_DIR for the next starts. Default: the port kept
   * there, or, at the first start, a free one. A cluster thus comes back at the address its clients know (a
   * feed consumer's pool, a service restarted under it); a kept port that is taken fails the start.
   */
  readonly port?: number;
  readonly onLog?: (message: string) => void;
}

export interface RunningEmbeddedPostgres {
  /** The service's database. */
  readonly url: string;
  /** The maintenance database `postgres` of the same server. */
  readonly serverUrl: string;
  readonly port: number;
  /** False when another process had the server running and this one joined it. */
  readonly startedHere: boolean;
  /**
   * Stops the server unless someone else still needs it: a live process that owns it, or other open
   * connections (close your own pools first). Then the last one to leave stops it. `force` stops it
   * regardless: for throwaway clusters of tests.
   */
  stop(options?: { force?: boolean }): Promise<void>;
}

export const DEFAULT_EMBEDDED_DATABASE = 'integration_api';
const isRoot = process.getuid?.() === 0;

/**
 * Starts PostgreSQL from the embedded-postgres package with its data under DATA_DIR, or joins the one
 * already running there (the server and the admin CLI share one cluster; an orphan left by a killed
 * process is adopted). Listens on 127.0.0.1 only, on the port of the data directory, with a generated password.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningEmbeddedPostgres> {
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const pgData = join(dataDir, 'postgres');
  const database = options.database ?? DEFAULT_EMBEDDED_DATABASE;
  const log = new EmbeddedPostgresLog(join(dataDir, 'embedded-postgres.log'), options.onLog);
  return withDataDirLock(dataDir, async () => {
    const state = await readState(dataDir);
    if (state === null && existsSync(join(pgData, 'PG_VERSION'))) {
      throw new Error(`${pgData} holds a cluster but ${join(dataDir, 'embedded-postgres.json')} (its password) is missing; restore it, or remove ${pgData} to start afresh.`);
    }
    const known = state ?? { password: newPassword() };
    const running = await livePostmaster(pgData);
    const server = running !== null ? await joinRunning(dataDir, known, running) : await launch(dataDir, pgData, known, options, log);
    await ensureDatabase(server.serverUrl, database);
    return { ...server, url: urlOf(known.password, server.port, database) };
  });
}

interface Server {
  readonly serverUrl: string;
  readonly port: number;
  readonly startedHere: boolean;
  stop(options?: { force?: boolean }): Promise<void>;
}

/** Joins a server that is already running on this data directory; adopts it when its owner is gone. */
async function joinRunning(dataDir: string, state: EmbeddedPostgresState, running: { pid: number; port: number }): Promise<Server> {
  const serverUrl = urlOf(state.password, running.port, 'postgres');
  await waitUntilReachable(serverUrl, running.pid);
  const ownerPid = isAlive(state.ownerPid) ? state.ownerPid : process.pid;
  await writeState(dataDir, { password: state.password, port: running.port, postmasterPid: running.pid, ownerPid });
  const shutdown: Shutdown = { postmasterPid: running.pid, serverUrl, stop: () => killAndWait(running.pid), leave: () => {} };
  const stop = (options?: { force?: boolean }) => stopServer(dataDir, shutdown, options?.force);
  return { serverUrl, port: running.port, startedHere: false, stop: once(stop) };
}

async function launch(dataDir: string, pgData: string, state: EmbeddedPostgresState, options: EmbeddedPostgresOptions, log: EmbeddedPostgresLog): Promise<Server> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  if (isRoot) {
    const owner = await postgresUser();
    await assertReachableBy(owner, pgData, 'the data directory');
    await assertReachableBy(owner, binariesDir(), 'the PostgreSQL binaries');
  }
  await writeState(dataDir, atRest(state));
  if (!existsSync(join(pgData, 'PG_VERSION'))) await initialise(EmbeddedPostgres, pgData, state.password, log);
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];
  if (options.ephemeral) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const user = isRoot ? await postgresUser() : null;
  if (isRoot && user === null) throw new Error('Embedded PostgreSQL runs as the "postgres" system user, which does not exist; initdb should have created it.');
  // The port is the data directory's, as its password is: chosen once, so that clients reconnect to it.
  const kept = options.port ?? state.port ?? null;
  for (let attempt = 1; ; attempt++) {
    const port = kept ?? (await freePortForCluster());
    const server = new PostmasterProcess({ pgData, port, flags, user, onLog: log.add });
    try {
      await server.start();
    } catch (error) {
      const portTaken = log.mentions('could not bind');
      // Another process may have taken the free port between our probe and the start.
      if (attempt < 3 && kept === null && portTaken) continue;
      if (portTaken && kept !== null) throw new Error(portTakenMessage(dataDir, port, options.port !== undefined));
      const reason = error instanceof Error ? error.message : 'the server exited before it was ready';
      throw new Error(`Embedded PostgreSQL did not start on port ${port} (data in ${pgData}): ${reason}\n${log.tail()}`);
    }
    const postmaster = await livePostmaster(pgData);
    if (postmaster === null) throw new Error(`Embedded PostgreSQL started but left no postmaster.pid in ${pgData}.\n${log.tail()}`);
    await writeState(dataDir, { password: state.password, port, postmasterPid: postmaster.pid, ownerPid: process.pid });
    const serverUrl = urlOf(state.password, port, 'postgres');
    const shutdown: Shutdown = { postmasterPid: postmaster.pid, serverUrl, stop: () => killAndWait(postmaster.pid), leave: () => detach(server) };
    const stop = (options?: { force?: boolean }) => stopServer(dataDir, shutdown, options?.force);
    return { serverUrl, port, startedHere: true, stop: once(stop) };
  }
}

/** initdb into a sibling directory, renamed into place on success: a failed initdb leaves nothing half-made. */
async function initialise(EmbeddedPostgres: EmbeddedPostgresClass, pgData: string, password: string, log: EmbeddedPostgresLog): Promise<void> {
  const staging = `${pgData}.initdb`;
  await rm(staging, { recursive: true, force: true });
  await rm(pgData, { recursive: true, force: true });
  const cluster = new EmbeddedPostgres({ ...clusterOptions(staging, password, log), initdbFlags: ['--encoding=UTF8', '--locale=C'] });
  try {
    await cluster.initialise();
  } catch (error) {
    throw new Error(`Embedded PostgreSQL could not initialise ${pgData}: ${error instanceof Error ? error.message : String(error)}\n${log.tail()}`);
  }
  await rename(staging, pgData);
}

function clusterOptions(databaseDir: string, password: string, log: EmbeddedPostgresLog) {
  return {
    databaseDir,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256' as const,
    persistent: true,
    createPostgresUser: isRoot,
    onLog: log.add,
    onError: log.add,
  };
}

interface Shutdown {
  readonly postmasterPid: number;
  readonly serverUrl: string;
  /** Stops the server and waits until it is gone. */
  readonly stop: () => Promise<void>;
  /** Lets this process exit while the server keeps running for others. */
  readonly leave: () => void;
}

async function stopServer(dataDir: string, shutdown: Shutdown, force = false): Promise<void> {
  await withDataDirLock(dataDir, async () => {
    const state = await readState(dataDir);
    if (state === null || state.postmasterPid !== shutdown.postmasterPid || !isAlive(shutdown.postmasterPid)) return shutdown.leave();
    if (!force && state.ownerPid !== process.pid && isAlive(state.ownerPid)) return shutdown.leave();
    if (!force && (await otherConnections(shutdown.serverUrl)) > 0) {
      // Someone still works with it (the server, while the CLI that started it finishes): leave it to them;
      // whoever leaves last, or starts next, stops or adopts it.
      await writeState(dataDir, { ...state, ownerPid: null });
      return shutdown.leave();
    }
    await shutdown.stop();
    await writeState(dataDir, atRest(state));
  });
}

/** The server process spawned here, to let go of its pipes when others still use it. */
function detach(server: object): void {
  const child = (server as { process?: ChildProcess }).process;
  child?.stdin?.destroy();
  child?.stdout?.destroy();
  child?.stderr?.destroy();
  child?.unref();
}

/** What the state keeps while no server runs: the password and the port, for the next start. */
function atRest(state: EmbeddedPostgresState): EmbeddedPostgresState {
  return state.port === undefined ? { password: state.password } : { password: state.password, port: state.port };
}

/** A clear error rather than another port: the clients of this data directory know only its own. */
function portTakenMessage(dataDir: string, port: number, configured: boolean): string {
  const whose = configured ? `EMBEDDED_PG_PORT=${port}` : `port ${port}, kept for DATA_DIR ${dataDir} in embedded-postgres.json since its first start`;
  return (
    `Embedded PostgreSQL cannot listen on 127.0.0.1:${port} (${whose}): another process listens there. ` +
    'Stop that process, or set EMBEDDED_PG_PORT to a free port (kept for DATA_DIR from then on), or set DATABASE_URL.'
  );
}

function urlOf(password: string, port: number, database: string): string {
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

function once<A>(action: (argument?: A) => Promise<void>): (argument?: A) => Promise<void> {
  let done: Promise<void> | undefined;
  return (argument) => (done ??= action(argument));
}
