import { execFile, execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { chmod, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { postgresUser } from '../../../infrastructure/database/embedded-postgres-process.js';
import { stablePort } from '../../support/stable-port.js';

/** Debian's PostgreSQL 15 server binaries (`apt-get install -y postgresql`), which `.ci/run` installs when missing. */
export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';

function bin(): string {
  return process.env.POSTGRES_BIN?.trim() || POSTGRES_BIN;
}

/** Fails, naming the package to install, when the server binaries the replica suites start are not there. */
export function assertPostgresServerInstalled(): void {
  for (const tool of ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres']) {
    const path = join(bin(), tool);
    if (!existsSync(path)) {
      throw new Error(`${path} is missing: the replica suites start a private primary and replica with Debian's PostgreSQL. Install it (as root: apt-get install -y postgresql) and run again.`);
    }
  }
}

export interface ReplicaCluster {
  /** postgres://postgres@127.0.0.1:port/postgres of the primary. */
  readonly primaryUrl: string;
  /** The same on the streaming replica (pg_basebackup -R), read-only. */
  readonly replicaUrl: string;
  readonly replicaPort: number;
  /** pg_ctl stop -m fast of the replica; startReplica() brings it back on the same port, streaming again. */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** pg_wal_replay_pause() / pg_wal_replay_resume() on the replica. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Resolves once the replica has replayed everything the primary had written when it was called. */
  caughtUp(): Promise<void>;
  /** The primary's postmaster: its backends are its children (the benchmark counts their CPU). */
  primaryPid(): Promise<number>;
  /** Stops both servers and removes their directories; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * A private primary and a streaming replica in a temporary directory, on ports of their own (never the machine's
 * server on 5432): initdb, then pg_basebackup -R for the replica. PostgreSQL refuses to run as root: under root
 * the directories belong to the `postgres` system user and every tool runs as it (runuser).
 */
export async function startReplicaCluster(options: { readonly sharedPreload?: string } = {}): Promise<ReplicaCluster> {
  assertPostgresServerInstalled();
  const dir = await mkdtemp(join(tmpdir(), 'integration-api-replica-'));
  const ids = process.getuid?.() === 0 ? await postgresUser() : null;
  if (process.getuid?.() === 0 && ids === null) throw new Error('PostgreSQL will not run as root and there is no postgres user to run it as (apt-get install -y postgresql creates it).');
  if (ids !== null) await chown(dir, ids.uid, ids.gid);
  await chmod(dir, 0o700);
  const run = (tool: string, args: readonly string[]) => runAs(ids !== null, join(bin(), tool), args);
  const primaryDir = join(dir, 'primary');
  const replicaDir = join(dir, 'replica');
  const [primaryPort, replicaPort] = [await stablePort(), await stablePort()];
  const serverOptions = (port: number) =>
    [`-p ${port}`, "-c listen_addresses=127.0.0.1", `-c unix_socket_directories=${dir}`, '-c fsync=off', '-c full_page_writes=off',
      '-c wal_level=replica', '-c max_wal_senders=5', '-c hot_standby=on', '-c hot_standby_feedback=on',
      ...(options.sharedPreload === undefined ? [] : [`-c shared_preload_libraries=${options.sharedPreload}`])].join(' ');
  const start = (data: string, port: number) => run('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', `${data}.log`, '-o', serverOptions(port)]);
  const stopServer = (data: string) => run('pg_ctl', ['stop', '-w', '-m', 'fast', '-D', data]).catch(() => undefined);

  const onExit = () => {
    for (const data of [replicaDir, primaryDir]) {
      try {
        execFileSyncQuiet(ids !== null, join(bin(), 'pg_ctl'), ['stop', '-m', 'immediate', '-D', data]);
      } catch {
        // not running
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
  const ask = async <T>(url: string, sql: string): Promise<T[]> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  };
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.removeListener('exit', onExit);
      await stopServer(replicaDir);
      await stopServer(primaryDir);
      await rm(dir, { recursive: true, force: true });
    })());
  try {
    await run('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    await start(primaryDir, primaryPort);
    await run('pg_basebackup', ['-D', replicaDir, '-R', '-X', 'stream', '-c', 'fast', '-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres']);
    await start(replicaDir, replicaPort);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    primaryUrl,
    replicaUrl,
    replicaPort,
    stopReplica: () => stopServer(replicaDir),
    startReplica: () => start(replicaDir, replicaPort),
    pauseReplay: async () => void (await ask(replicaUrl, 'select pg_wal_replay_pause()')),
    resumeReplay: async () => void (await ask(replicaUrl, 'select pg_wal_replay_resume()')),
    caughtUp: async () => {
      const lsn = (await ask<{ lsn: string }>(primaryUrl, 'select pg_current_wal_lsn()::text as lsn'))[0]?.lsn;
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const behind = await ask<{ behind: boolean }>(replicaUrl, `select coalesce(pg_last_wal_replay_lsn() < '${lsn}'::pg_lsn, true) as behind`);
        if (behind[0]?.behind === false) return;
        await new Promise((done) => setTimeout(done, 20));
      }
      throw new Error(`The replica did not replay up to ${lsn} within 30 s.`);
    },
    primaryPid: async () => Number((await readFile(join(primaryDir, 'postmaster.pid'), 'utf8')).split('\n')[0]),
    stop,
  };
}

function runAs(asPostgres: boolean, path: string, args: readonly string[]): Promise<void> {
  const [file, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, [...args]];
  return new Promise((done, fail) =>
    execFile(file, argv, { cwd: tmpdir() }, (error, _stdout, stderr) => (error ? fail(new Error(`${path} ${args.join(' ')} failed: ${stderr || error.message}`)) : done())),
  );
}

/** Only at process exit, when nothing asynchronous runs any more. */
function execFileSyncQuiet(asPostgres: boolean, path: string, args: readonly string[]): void {
  const [file, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, [...args]];
  execFileSync(file, argv, { stdio: 'ignore', cwd: tmpdir() });
}
