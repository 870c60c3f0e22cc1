import { expect } from 'chai';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { isAlive } from '../../infrastructure/database/embedded-postgres-files.js';
// Its root `after` hook stops the embedded server (when the run started one) and removes its directory.
import '../support/postgres-test-database.js';
import { postgresTestServer } from '../support/postgres-test-server.js';
import { startPgBouncer, type PoolRow, type RunningPgBouncer } from './support/pgbouncer.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HARNESS = fileURLToPath(new URL('./support/pgbouncer.ts', import.meta.url));

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((done) => setTimeout(done, 50));
  }
  return true;
}

/** Runs `node --import tsx` on a module given as text, in the repository; resolves with its exit and output. */
function runNode(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('exit', (code) => done({ code, output }));
  });
}

describe('The private PgBouncer of the pooler tests', function () {
  this.timeout(30_000);
  let bouncer: RunningPgBouncer | undefined;

  afterEach(async () => {
    await bouncer?.stop();
    bouncer = undefined;
  });

  it('pools per transaction, not per session: a second client waits for the one server connection only while the first is inside a transaction', async () => {
    bouncer = await startPgBouncer({ serverUrl: (await postgresTestServer()).adminUrl, defaultPoolSize: 1 });
    const config = new Map((await bouncer.console('SHOW CONFIG')).map((row) => [String(row.key), String(row.value)]));
    expect([config.get('pool_mode'), config.get('default_pool_size')]).to.deep.equal(['transaction', '1']);
    const [first, second] = [new pg.Client(bouncer.urlOf('postgres')), new pg.Client(bouncer.urlOf('postgres'))];
    await Promise.all([first.connect(), second.connect()]);
    try {
      await first.query('select 1');
      expect((await second.query<{ n: number }>('select 2 as n')).rows, 'both clients served by one server connection').to.deep.equal([{ n: 2 }]);
      await first.query('begin');
      const waiting = second.query('select 3 as n');
      let pool: PoolRow | undefined;
      for (let i = 0; i < 100 && (pool = (await bouncer.showPools()).find((p) => p.database === 'postgres'))?.clWaiting !== 1; i++) {
        await new Promise((done) => setTimeout(done, 20));
      }
      expect(pool, 'the second client waits while the first holds the server connection').to.include({ clWaiting: 1, servers: 1 });
      await first.query('commit');
      expect((await waiting).rows).to.deep.equal([{ n: 3 }]);
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
  });

  it('logs a refused startup parameter, which the pooler run fails on', async () => {
    bouncer = await startPgBouncer({ serverUrl: (await postgresTestServer()).adminUrl });
    expect(await bouncer.refusedStartupParameters()).to.deep.equal([]);
    const client = new pg.Client({ connectionString: bouncer.urlOf('postgres'), statement_timeout: 1_000 });
    let refusal = '';
    await client.connect().catch((error: Error) => (refusal = error.message));
    await client.end().catch(() => undefined);
    expect(refusal).to.equal('unsupported startup parameter: statement_timeout');
    expect((await bouncer.refusedStartupParameters()).join('\n')).to.include('unsupported startup parameter: statement_timeout');
  });

  it('runs as an unprivileged user, and stop() leaves neither the process nor its directory', async () => {
    const started = await startPgBouncer({ serverUrl: (await postgresTestServer()).adminUrl });
    bouncer = started;
    const uid = await new Promise<string>((done) => execFile('ps', ['-o', 'uid=', '-p', String(started.pid)], (_, stdout) => done(stdout.trim())));
    expect(uid, 'PgBouncer refuses to run as root').to.not.equal('0');
    if (process.getuid?.() !== 0) expect(uid).to.equal(String(process.getuid?.()));
    await started.stop();
    expect(await goneWithin(started.pid, 1_000), 'the process').to.equal(true);
    expect(existsSync(started.directory), 'the temporary directory').to.equal(false);
  });

  it('goes with the process that started it, even when that process exits without stopping it', async () => {
    const script = `const { startPgBouncer } = await import(${JSON.stringify(HARNESS)});
      const bouncer = await startPgBouncer({ serverUrl: ${JSON.stringify((await postgresTestServer()).adminUrl)} });
      console.log('pid=' + bouncer.pid + ' directory=' + bouncer.directory);
      process.exit(0);`;
    const { code, output } = await runNode(['--input-type=module', '-e', script]);
    expect(code, output).to.equal(0);
    const pid = Number(/pid=(\d+)/.exec(output)?.[1]);
    expect(pid, output).to.be.above(0);
    expect(await goneWithin(pid, 2_000), 'PgBouncer left running').to.equal(true);
    const directory = /directory=(\S+)/.exec(output)?.[1] ?? '';
    expect(directory, output).to.not.equal('');
    expect(existsSync(directory), 'its temporary directory left behind').to.equal(false);
  });

  it('npm run test:pooler: says what to install, at once, when the binary is missing', async () => {
    const started = Date.now();
    const { code, output } = await runNode(['tests/pooler/run-pooler-suites.ts'], { ...process.env, PGBOUNCER_BINARY: '/nonexistent/pgbouncer' });
    expect(code).to.equal(1);
    expect(output).to.include('PgBouncer is not installed: /nonexistent/pgbouncer is missing').and.include('apt-get install -y pgbouncer');
    expect(Date.now() - started, 'no server started or waited for').to.be.below(15_000);
  });
});
