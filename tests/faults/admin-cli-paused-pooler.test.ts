import { expect } from 'chai';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createThrowawayDatabaseUrl } from '../support/postgres-test-database.js';
import { ADMIN_ENTRY, jsonOf, runAdmin } from '../cli/support/run-admin.js';
import { throughPort } from './support/freezing-relay.js';
import { PausingRelay } from './support/pausing-relay.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The client's read timeout is the statement bound + 2 s (mikro-orm-options.ts): 2.5 s here. */
const BOUNDS = { DB_STATEMENT_TIMEOUT_MS: '500', DB_CONNECT_TIMEOUT_MS: '1000', DB_ACQUIRE_TIMEOUT_MS: '2000' };
/** How long the pause lasts at most: well past the read timeout and the first 'still waiting' line (5 s). */
const LONGEST_PAUSE_MS = 15_000;
/** After the pause, a command that has done its work and closed its pools has nothing left to wait for. */
const EXIT_AFTER_RESUME_MS = 30_000;

/** An admin command as a process, its output collected as it comes. */
function spawnAdmin(args: readonly string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', ADMIN_ENTRY, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run = { child, stdout: '', stderr: '', exited: new Promise<number | null>((done) => child.on('exit', (code) => done(code))) };
  child.stdout.on('data', (chunk: Buffer) => (run.stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (run.stderr += chunk.toString('utf8')));
  return run;
}

/** Its exit status once the pooler resumed, or 'running' (then killed) if it did not exit in EXIT_AFTER_RESUME_MS. */
async function exitAfterResume(run: ReturnType<typeof spawnAdmin>): Promise<number | null | 'running'> {
  const status = await Promise.race([run.exited, new Promise<'running'>((still) => setTimeout(() => still('running'), EXIT_AFTER_RESUME_MS))]);
  if (status === 'running') run.child.kill('SIGKILL');
  return status;
}

describe('the admin CLI behind a pooler that pauses (a PgBouncer PAUSE, as a TCP relay)', function () {
  this.timeout(90_000);
  let database: { url: string; drop: () => Promise<void> };
  let relay: PausingRelay;

  before(async () => {
    database = await createThrowawayDatabaseUrl();
    const target = new URL(database.url);
    relay = await PausingRelay.start({ host: target.hostname, port: Number(target.port || 5432) });
  });

  after(async () => {
    await relay?.close();
    await database?.drop();
  });

  it('says that it waits, answers once the pooler resumes and exits, leaving no connection open behind a query that timed out', async () => {
    const company = jsonOf<{ id: string }>(await runAdmin(['company', 'create', '--name', 'Paused pooler'], { env: { DATABASE_URL: database.url } }));
    relay.pause();
    const run = spawnAdmin(['key', 'list', '--company', company.id], { DATABASE_URL: throughPort(database.url, relay.port), ...BOUNDS });
    // The pause ends once a connection has given up on its held query (its read timeout) and the command has said
    // that it waits, or after the longest pause.
    const waiting = () => run.stderr.includes('still applying the migrations');
    const pausedAt = Date.now();
    while ((relay.closedWhilePaused === 0 || !waiting()) && Date.now() - pausedAt < LONGEST_PAUSE_MS) await new Promise((tick) => setTimeout(tick, 50));
    relay.resume();
    const status = await exitAfterResume(run);
    expect(status, `still running ${EXIT_AFTER_RESUME_MS / 1000} s after the pause ended (printed ${JSON.stringify(run.stdout)}; stderr ${run.stderr.slice(0, 400)})`).to.equal(0);
    expect(JSON.parse(run.stdout)).to.deep.equal([]);
    expect(relay.open).to.equal(0);
    // While it waited, it said so (a start in silence looks like a hang).
    expect(run.stderr).to.match(/"msg":"still applying the migrations: waiting for the database to answer, or for another instance's migration lock"/);
  });

  it('admin migrate says that it waits, as a start does, and applies (nothing, here) once the pooler resumes', async () => {
    relay.pause();
    const run = spawnAdmin(['migrate'], { DATABASE_URL: throughPort(database.url, relay.port), ...BOUNDS });
    const pausedAt = Date.now();
    while (!run.stderr.includes('still applying the migrations') && Date.now() - pausedAt < LONGEST_PAUSE_MS) await new Promise((tick) => setTimeout(tick, 50));
    relay.resume();
    const status = await exitAfterResume(run);
    expect(status, `still running ${EXIT_AFTER_RESUME_MS / 1000} s after the pause ended (printed ${JSON.stringify(run.stdout)}; stderr ${run.stderr.slice(0, 400)})`).to.equal(0);
    expect(JSON.parse(run.stdout)).to.deep.equal({ registry: [], business: [] });
    expect(run.stderr).to.match(/"msg":"still applying the migrations: waiting for the database to answer, or for another instance's migration lock"/);
    expect(relay.open).to.equal(0);
  });
});
