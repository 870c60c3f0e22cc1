import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsonOf, runAdmin } from '../cli/support/run-admin.js';
import { startServerProcess, type ServerProcess } from '../scale/support/server-process.js';
import { npmStartToExit } from './support/npm-start.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A service start that is expected to fail, through `npm start` as a user runs it: its exit code, what it printed, and how long it took. */
async function failingStart(env: Record<string, string>): Promise<{ code: number | null; output: string; ms: number }> {
  // dist/ built beforehand, so that the time measured is the start's alone.
  execFileSync(process.execPath, ['-e', 'import("./bin/build.js").then((m) => m.ensureBuilt())'], { cwd: REPO_ROOT, stdio: 'ignore' });
  const run = await npmStartToExit([], env);
  return { code: run.code, output: `${run.stdout}${run.stderr}`, ms: run.ms };
}

async function status(url: string): Promise<number> {
  return (await fetch(url)).status;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('one service per DATA_DIR (embedded PostgreSQL)', function () {
  this.timeout(180_000);
  let dataDir: string;
  let env: Record<string, string>;
  let first: ServerProcess | undefined;
  let later: ServerProcess | undefined;
  let cliKey: string | undefined;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'integration-api-one-service-'));
    await chmod(dataDir, 0o755); // the postgres user (we may be root) must be able to enter it
    env = { STORE: 'postgres', DATA_DIR: dataDir };
    first = await startServerProcess(env, 120_000);
  });

  after(async () => {
    await later?.stop();
    await first?.stop();
    // A server left behind by a failed test (the SIGKILLed service's is adopted and stopped by the next).
    const pid = Number((await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0]);
    if (pid > 0) {
      try {
        process.kill(pid, 'SIGINT');
        await sleep(2_000);
      } catch {
        // gone already
      }
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a second service on the same DATA_DIR within seconds, naming DATA_DIR and the pid that holds it; the first keeps serving', async () => {
    const running = first as ServerProcess;
    const second = await failingStart(env);
    expect(second.code, second.output).to.equal(1);
    expect(second.ms).to.be.below(15_000);
    expect(second.output).to.contain(`DATA_DIR ${dataDir} is in use by another integration API service (pid ${running.child.pid})`);
    expect(second.output).not.to.contain('integration API listening');

    // The database was not taken down with the refused start: the first still answers, after it has gone.
    await sleep(1_000);
    expect(await status(`${running.origin}/readyz`)).to.equal(200);
    expect(await status(`${running.apiUrl}/openapi.json`)).to.equal(200);
    expect(await status(`${running.apiUrl}/vacancies`)).to.equal(401);
  });

  it('lets the admin CLI use the running embedded database beside the service, which keeps serving', async () => {
    const running = first as ServerProcess;
    const created = await runAdmin(['company', 'create', '--name', 'Beside the service'], { env });
    const company = jsonOf<{ id: string }>(created);
    const key = jsonOf<{ key: string }>(await runAdmin(['key', 'issue', '--company', company.id, '--scopes', 'vacancies:read'], { env }));
    cliKey = key.key;
    // The service runs on its DATA_DIR: nothing to say.
    expect(created.stderr).to.equal('');
    const response = await fetch(`${running.apiUrl}/vacancies`, { headers: { 'X-API-Key': key.key } });
    expect(response.status).to.equal(200);
    expect(await status(`${running.origin}/readyz`)).to.equal(200);
  });

  it('has the admin CLI say on stderr which DATA_DIR it used when no service runs there (its key is not the running service\'s)', async () => {
    const running = first as ServerProcess;
    const other = await mkdtemp(join(tmpdir(), 'integration-api-no-service-'));
    await chmod(other, 0o755);
    try {
      const otherEnv = { STORE: 'postgres', DATA_DIR: other };
      const company = await runAdmin(['company', 'create', '--name', 'Elsewhere'], { env: otherEnv });
      const { id } = jsonOf<{ id: string }>(company);
      expect(company.stderr.trim().split('\n')).to.have.length(1);
      expect(company.stderr).to.match(new RegExp(`^note: this command used the embedded PostgreSQL in DATA_DIR ${other}, and no service runs on that DATA_DIR`));
      const issued = await runAdmin(['key', 'issue', '--company', id, '--scopes', 'vacancies:read'], { env: otherEnv });
      expect(issued.stderr).to.contain(`DATA_DIR ${other}, and no service runs`);
      const response = await fetch(`${running.apiUrl}/vacancies`, { headers: { 'X-API-Key': jsonOf<{ key: string }>(issued).key } });
      expect(response.status).to.equal(401);
      // A command that opens no database says nothing of it.
      expect((await runAdmin(['--help'], { env: otherEnv })).stderr).to.equal('');
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('does not let the lock of a SIGKILLed service block the next start, which serves the same data', async () => {
    const killed = first as ServerProcess;
    killed.child.kill('SIGKILL');
    await killed.exited;
    first = undefined;
    // The killed service could not clean up: its lock is still there.
    expect(JSON.parse(await readFile(join(dataDir, 'service.lock'), 'utf8'))).to.include({ pid: killed.child.pid });
    later = await startServerProcess(env, 60_000);
    expect(await status(`${later.origin}/readyz`)).to.equal(200);
    const response = await fetch(`${later.apiUrl}/vacancies`, { headers: { 'X-API-Key': cliKey ?? 'the CLI test did not run' } });
    expect(response.status).to.equal(200);
    // And it holds DATA_DIR in turn.
    const another = await failingStart(env);
    expect(another.code, another.output).to.equal(1);
    expect(another.output).to.contain(`(pid ${later.child.pid})`);
  });
});
