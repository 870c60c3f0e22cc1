import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive, readState } from '../../../infrastructure/database/embedded-postgres-files.js';
import { stablePort } from '../../support/stable-port.js';
import { startEmbeddedPostgres, type RunningEmbeddedPostgres } from '../../../infrastructure/database/embedded-postgres.js';

/**
 * A PostgreSQL cluster that one test owns, to stop and start under a running service: the embedded
 * server of the production launcher, in a temporary directory, on a port fixed at creation so that it
 * comes back at the address its clients know (below the system's ephemeral range, so that no other process
 * is given it while the server is stopped). Never the shared test server, which other suites use.
 */
export class OwnPostgres {
  private running: RunningEmbeddedPostgres | null = null;
  private readonly onExit = () => void this.killOrphan();
  private postmasterPid: number | null = null;

  private constructor(
    private readonly dataDir: string,
    readonly port: number,
    /** The service's database on this cluster; the same across restarts. */
    readonly url: string,
  ) {}

  static async create(): Promise<OwnPostgres> {
    const dataDir = await mkdtemp(join(tmpdir(), 'integration-api-own-pg-'));
    // The postgres user (the tests may run as root) must be able to enter the directory.
    await chmod(dataDir, 0o755);
    const port = await stablePort();
    const first = await startEmbeddedPostgres({ dataDir, ephemeral: true, port });
    const own = new OwnPostgres(dataDir, port, first.url);
    own.running = first;
    await own.notePostmaster();
    process.once('exit', own.onExit);
    return own;
  }

  get isRunning(): boolean {
    return this.running !== null;
  }

  /** Fast shutdown (SIGINT): PostgreSQL ends every session (57P01), then exits; resolves once it is gone. */
  async stop(): Promise<void> {
    const running = this.running;
    this.running = null;
    await running?.stop({ force: true });
  }

  /** Starts the cluster again, on the same port and with the same data. */
  async start(): Promise<void> {
    if (this.running !== null) return;
    this.running = await startEmbeddedPostgres({ dataDir: this.dataDir, ephemeral: true, port: this.port });
    await this.notePostmaster();
  }

  /** Stops the cluster and removes its files. */
  async destroy(): Promise<void> {
    process.removeListener('exit', this.onExit);
    await this.stop();
    await rm(this.dataDir, { recursive: true, force: true });
  }

  private async notePostmaster(): Promise<void> {
    this.postmasterPid = (await readState(this.dataDir))?.postmasterPid ?? null;
  }

  /** Should the test run end without destroy() (a crash, mocha's --exit), still take the server down. */
  private killOrphan(): void {
    if (this.postmasterPid !== null && isAlive(this.postmasterPid)) process.kill(this.postmasterPid, 'SIGQUIT');
  }
}
