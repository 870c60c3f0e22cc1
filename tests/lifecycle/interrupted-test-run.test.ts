import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isAlive } from '../../infrastructure/database/embedded-postgres-files.js';
import { isRunning, postmasterPidIn } from '../support/postgres-test-server.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SPEC = 'tests/lifecycle/fixtures/interrupted-run.spec.ts';

interface Interrupted {
  /** The embedded server's postmaster, read from its data directory once the run's file ran. */
  readonly postmasterPid: number;
  /** Whether it still ran after the run ended. */
  readonly postmasterLeft: boolean;
  /** The test servers' directories left in the run's temporary directory. */
  readonly directoriesLeft: string[];
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
}

function serverDirectories(tmp: string): string[] {
  return readdirSync(tmp).filter((name) => name.startsWith('integration-api-test-pg-'));
}

/** Stops what a failing run left, by its postmaster.pid, and waits for it to go (up to 5 s). */
async function takeDown(dataDir: string): Promise<void> {
  const pid = postmasterPidIn(dataDir);
  if (pid !== null && isAlive(pid)) process.kill(pid, 'SIGQUIT');
  for (let waited = 0; pid !== null && isRunning(pid) && waited < 5_000; waited += 100) await sleep(100);
}

/**
 * Runs mocha as `npm test` does (the global fixture starting an embedded PostgreSQL of its own) on a file that
 * waits, with a temporary directory of its own (TMPDIR), so that only what this run made is looked at and
 * cleaned up, and sends SIGINT to its process group once the file runs, as Ctrl-C in a terminal does.
 */
async function interruptedRun(mode: string[]): Promise<Interrupted> {
  const tmp = await mkdtemp(join(tmpdir(), 'interrupted-run-'));
  // The postgres user (the tests may run as root) must be able to reach the data directory inside.
  await chmod(tmp, 0o755);
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
  for (const name of ['DATABASE_URL', 'TEST_POSTGRES_URL', 'TEST_POSTGRES_TEMPLATE', 'TEST_POSTGRES_RUN', 'TEST_POOLER_URL']) delete env[name];
  const mocha = join(REPO_ROOT, 'node_modules', '.bin', 'mocha');
  const args = ['--no-config', '--require', 'tsx', '--require', 'tests/support/postgres-global-fixture.ts', '--timeout', '0', ...mode, SPEC];
  const child = spawn(mocha, args, { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const ended = new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_code, signal) => done(signal)));
  try {
    const deadline = Date.now() + 90_000;
    while (!/^SERVER postgres/m.test(output)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`The run never reached its file:\n${output}`);
      await sleep(100);
    }
    const [dataDir] = serverDirectories(tmp);
    const postmasterPid = dataDir === undefined ? null : postmasterPidIn(join(tmp, dataDir));
    if (postmasterPid === null) throw new Error(`No embedded server found in ${tmp}:\n${output}`);
    process.kill(-child.pid!, 'SIGINT');
    const signal = await Promise.race([ended, sleep(20_000).then(() => 'timeout' as const)]);
    if (signal === 'timeout') throw new Error(`The run did not end within 20 s of SIGINT:\n${output}`);
    return { postmasterPid, postmasterLeft: isRunning(postmasterPid), directoriesLeft: serverDirectories(tmp), signal, output };
  } finally {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    for (const name of serverDirectories(tmp)) await takeDown(join(tmp, name)); // what a failing run left
    await rm(tmp, { recursive: true, force: true });
  }
}

describe('A test run interrupted by Ctrl-C (mocha with the global fixture, as npm test runs it)', function () {
  this.timeout(180_000);

  for (const [name, mode] of [
    ['in worker processes (npm test)', ['--parallel', '--jobs', '1']],
    ['one file after another (--no-parallel)', []],
  ] as const) {
    it(`stops the embedded PostgreSQL it started and removes its directory, ${name}`, async () => {
      const run = await interruptedRun([...mode]);
      expect(run.signal, run.output).to.equal('SIGINT');
      expect(run.postmasterLeft, `postmaster ${run.postmasterPid} still runs:\n${run.output}`).to.equal(false);
      expect(run.directoriesLeft, run.output).to.deep.equal([]);
    });
  }
});
