import { constants, readFileSync, unlinkSync } from 'node:fs';
import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isAlive, withDataDirLock } from './embedded-postgres-files.js';

/** DATA_DIR/service.lock: which service runs on the embedded PostgreSQL of this data directory. */
export function serviceLockFile(dataDir: string): string {
  return join(resolve(dataDir), 'service.lock');
}

interface LockHolder {
  readonly pid: number;
  /** When the process started (Linux: clock ticks after boot, /proc/<pid>/stat); null where unknown. */
  readonly startedAt: string | null;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another integration API service (pid ${holderPid}), which runs the embedded ` +
        'PostgreSQL there; two services on one data directory would stop the database under each other. Stop that ' +
        'service first, or give this one a DATA_DIR of its own (or a DATABASE_URL). The admin CLI may use the running one.',
    );
    this.name = 'DataDirInUseError';
  }
}

export interface ServiceLock {
  /** Lets the next service start here; safe to call more than once. */
  release(): Promise<void>;
}

/**
 * Takes DATA_DIR for this service for as long as it runs: a second service on the same directory fails
 * at once with DataDirInUseError, naming the holder's pid. The lock dies with its holder: a file whose pid
 * is gone (a SIGKILLed service), or belongs to a later process that reused the pid, is taken over. The
 * admin CLI takes no such lock; it joins the running embedded server as before.
 */
export async function holdServiceLock(dataDir: string): Promise<ServiceLock> {
  const directory = resolve(dataDir);
  await mkdir(directory, { recursive: true });
  const file = serviceLockFile(directory);
  const me: LockHolder = { pid: process.pid, startedAt: await startTimeOf(process.pid) };
  // Under the data directory's short lock, so that two services starting together cannot both take over
  // the same stale file.
  await withDataDirLock(directory, async () => {
    const holder = await readHolder(file);
    if (holder !== null && holder.pid !== process.pid && (await isRunning(holder))) throw new DataDirInUseError(directory, holder.pid);
    if (holder !== null) await unlink(file).catch(() => undefined);
    const handle = await open(file, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o644);
    try {
      await handle.writeFile(`${JSON.stringify(me)}\n`);
    } finally {
      await handle.close();
    }
  });
  // An exit on any path (a failed start, process.exit) lets the next service in without a liveness check.
  const onExit = () => removeIfMine(file);
  process.once('exit', onExit);
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      process.removeListener('exit', onExit);
      removeIfMine(file);
    },
  };
}

/** The pid of the service that holds DATA_DIR now, or null when none does (no lock, or a stale one). */
export async function serviceHolding(dataDir: string): Promise<number | null> {
  const holder = await readHolder(serviceLockFile(dataDir));
  return holder !== null && (await isRunning(holder)) ? holder.pid : null;
}

async function readHolder(file: string): Promise<LockHolder | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return parseHolder(text);
}

/** An unreadable file (cut short by a crash mid-write) holds nobody: pid 0 is never alive. */
function parseHolder(text: string): LockHolder {
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    const pid = typeof parsed.pid === 'number' ? parsed.pid : 0;
    return { pid, startedAt: typeof parsed.startedAt === 'string' ? parsed.startedAt : null };
  } catch {
    return { pid: 0, startedAt: null };
  }
}

async function isRunning(holder: LockHolder): Promise<boolean> {
  if (!isAlive(holder.pid)) return false;
  if (holder.startedAt === null) return true;
  const startedAt = await startTimeOf(holder.pid);
  return startedAt === null || startedAt === holder.startedAt;
}

/** Field 22 of /proc/<pid>/stat, counted after the command name (which may hold spaces and parentheses). */
async function startTimeOf(pid: number): Promise<string | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function removeIfMine(file: string): void {
  try {
    if (parseHolder(readFileSync(file, 'utf8')).pid === process.pid) unlinkSync(file);
  } catch {
    // Gone already, or the directory with it.
  }
}
