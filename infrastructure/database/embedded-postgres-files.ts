import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** DATA_DIR/embedded-postgres.json: how other processes find and reach the running cluster. */
export interface EmbeddedPostgresState {
  /** Password of the `postgres` role, set at initdb; kept for the life of the cluster. */
  readonly password: string;
  /** The cluster's port: chosen at its first start (or EMBEDDED_PG_PORT's), kept across stops and restarts. */
  readonly port?: number;
  readonly postmasterPid?: number;
  /** The Node process that started (or adopted) the server and stops it; null when nobody owns it. */
  readonly ownerPid?: number | null;
}

export function stateFile(dataDir: string): string {
  return join(dataDir, 'embedded-postgres.json');
}

export async function readState(dataDir: string): Promise<EmbeddedPostgresState | null> {
  try {
    const parsed = JSON.parse(await readFile(stateFile(dataDir), 'utf8')) as EmbeddedPostgresState;
    if (typeof parsed.password !== 'string') return null;
    const { port, ...rest } = parsed;
    // A port that is not one (a hand edit) is forgotten: the next start picks a free one and keeps it.
    return Number.isInteger(port) && (port as number) > 0 && (port as number) < 65_536 ? parsed : rest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Writes the state atomically (temp file, then rename), readable by the owner only: it holds the password. */
export async function writeState(dataDir: string, state: EmbeddedPostgresState): Promise<void> {
  const file = stateFile(dataDir);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, file);
}

export function newPassword(): string {
  return randomBytes(24).toString('base64url');
}

/** Whether a process with this id exists (EPERM: it exists but belongs to another user, e.g. postgres). */
export function isAlive(pid: number | null | undefined): boolean {
  if (pid === null || pid === undefined || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process is a PostgreSQL server (Linux: /proc; elsewhere assume so when it is alive). */
async function isPostgresProcess(pid: number): Promise<boolean> {
  if (!isAlive(pid)) return false;
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('postgres');
  } catch {
    return true;
  }
}

export interface PostmasterInfo {
  readonly pid: number;
  readonly port: number;
}

/**
 * Reads <pgdata>/postmaster.pid (first line the pid, fourth the port). A file whose process is gone, or
 * is not a PostgreSQL server any more (a reused pid), is stale: it is removed, as it would block the start.
 */
export async function livePostmaster(pgData: string): Promise<PostmasterInfo | null> {
  const file = join(pgData, 'postmaster.pid');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (Number.isInteger(pid) && pid > 0 && (await isPostgresProcess(pid))) return { pid, port };
  await unlink(file).catch(() => undefined);
  return null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` holding DATA_DIR/embedded-postgres.lock, so that two processes (the server and the admin
 * CLI) never start, adopt or stop the cluster at the same time. A lock left by a dead process is taken over.
 */
export async function withDataDirLock<T>(dataDir: string, work: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const lock = join(dataDir, 'embedded-postgres.lock');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const handle = await open(lock, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
      if (holder !== 0 && !isAlive(holder)) {
        await unlink(lock).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lock}, held by process ${holder}.`);
      await sleep(100);
    }
  }
  try {
    return await work();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}

export interface UserIds {
  readonly uid: number;
  readonly gid: number;
}

/**
 * PostgreSQL runs as the `postgres` user when we are root, and that user must be able to enter every
 * directory on the way to the data directory and to the binaries. Fails early with a clear message
 * rather than with EACCES from initdb (a checkout under a 0700 home is the usual case).
 */
export async function assertReachableBy(user: UserIds | null, path: string, what: string): Promise<void> {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const { mode, uid, gid } = await stat(dir);
    const enters = (mode & 0o001) !== 0 || (user !== null && ((uid === user.uid && (mode & 0o100) !== 0) || (gid === user.gid && (mode & 0o010) !== 0)));
    if (!enters) {
      throw new Error(
        `Embedded PostgreSQL runs as the "postgres" user, which cannot enter ${dir} (mode ${(mode & 0o777).toString(8)}) ` +
          `on the way to ${what}. Put DATA_DIR (and the checkout) where that user can reach them, or set DATABASE_URL.`,
      );
    }
    if (dirname(dir) === dir) return;
  }
}
