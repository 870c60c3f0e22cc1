import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isAlive, readState } from '../../infrastructure/database/embedded-postgres-files.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const SPEC = 'tests/lifecycle/fixtures/interrupted-run.spec.ts';

interface Interrupted {
  /** The embedded server's port, as the run's worker saw it. */
  readonly port: number;
  /** Whether the server still answered on it after the run ended. */
  readonly answered: boolean;
  /** The test servers' directories that appeared during the run. */
  readonly newDirectories: string[];
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
}

function testServerDirectories(): Set<string> {
  return new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('integration-api-test-pg-')));
}

function refuses(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      answer(false);
    });
    socket.once('error', () => answer(true));
  });
}

/** Stops a server a run left behind, and removes its directory. */
async function takeDown(dataDir: string): Promise<void> {
  const pid = (await readState(dataDir))?.postmasterPid;
  if (isAlive(pid)) process.kill(pid as number, 'SIGQUIT');
  for (let waited = 0; isAlive(pid) && waited < 5_000; waited += 100) await sleep(100);
  await rm(dataDir, { recursive: true, force: true });
}

/**
 * Runs mocha as `npm test` does (the global fixture starting an embedded PostgreSQL of its own) on a file that
 * waits, and sends SIGINT to its process group once the file runs, as Ctrl-C in a terminal does.
 */
async function interruptedRun(mode: string[]): Promise<Interrupted> {
  const before = testServerDirectories();
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'TEST_POSTGRES_URL', 'TEST_POSTGRES_TEMPLATE', 'TEST_POSTGRES_RUN', 'TEST_POOLER_URL']) delete env[name];
  const mocha = join(REPO_ROOT, 'node_modules', '.bin', 'mocha');
  const args = ['--no-config', '--require', 'tsx', '--require', 'tests/support/postgres-global-fixture.ts', '--timeout', '0', ...mode, SPEC];
  const child = spawn(mocha, args, { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const ended = new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_code, signal) => done(signal)));
  try {
    const deadline = Date.now() + 60_000;
    let port: number | null = null;
    while (port === null) {
      port = Number(/SERVER postgres(?:ql)?:\/\/[^\s]*:(\d+)\//.exec(output)?.[1]) || null;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`The run never reached its file:\n${output}`);
      await sleep(100);
    }
    process.kill(-child.pid!, 'SIGINT');
    const signal = await Promise.race([ended, sleep(20_000).then(() => 'timeout' as const)]);
    if (signal === 'timeout') throw new Error(`The run did not end within 20 s of SIGINT:\n${output}`);
    const newDirectories = [...testServerDirectories()].filter((name) => !before.has(name) && existsSync(join(tmpdir(), name)));
    const answered = !(await refuses(port));
    for (const name of newDirectories) await takeDown(join(tmpdir(), name)); // what a failing run left
    return { port, answered, newDirectories, signal, output };
  } finally {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  }
}

describe('A test run interrupted by Ctrl-C (mocha with the global fixture, as npm test runs it)', function () {
  this.timeout(120_000);

  for (const [name, mode] of [
    ['in worker processes (npm test)', ['--parallel', '--jobs', '1']],
    ['one file after another (--no-parallel)', []],
  ] as const) {
    it(`stops the embedded PostgreSQL it started and removes its directory, ${name}`, async () => {
      const run = await interruptedRun([...mode]);
      expect(run.signal, run.output).to.equal('SIGINT');
      expect(run.answered, `port ${run.port} still answered:\n${run.output}`).to.equal(false);
      expect(run.newDirectories, run.output).to.deep.equal([]);
    });
  }
});
