import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { startEmbeddedPostgres, type RunningEmbeddedPostgres } from '../../infrastructure/database/embedded-postgres.js';
import { isAlive, livePostmaster, readState } from '../../infrastructure/database/embedded-postgres-files.js';
import { stablePort } from '../support/stable-port.js';

const FIXTURE = new URL('./fixtures/embedded-postgres-client.ts', import.meta.url).pathname;

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Runs the fixture in another Node process; resolves with the line it prints, and the process. */
function otherProcess(dataDir: string, mode: 'join' | 'start-and-wait' | 'stop-on-input') {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, dataDir, mode], { stdio: ['pipe', 'pipe', 'inherit'] });
  const printed = new Promise<{ port: number; startedHere: boolean }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0] as string));
    });
    child.once('exit', (code) => reject(new Error(`the other process exited with ${code} before answering`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, printed, exited };
}

describe('Embedded PostgreSQL launcher', function () {
  this.timeout(60_000);
  let dataDir: string;
  let running: RunningEmbeddedPostgres | undefined;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'integration-api-embedded-'));
    await chmod(dataDir, 0o755);
  });
  afterEach(async () => {
    await running?.stop({ force: true });
    running = undefined;
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('initialises a cluster under DATA_DIR and keeps its data from one start to the next', async () => {
    running = await startEmbeddedPostgres({ dataDir });
    expect(running.startedHere).to.equal(true);
    await query(running.url, 'create table kept (v text); insert into kept values ($$Алматы$$)');
    await running.stop();
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).to.equal(false);
    running = await startEmbeddedPostgres({ dataDir });
    expect(await query(running.url, 'select v from kept')).to.deep.equal([{ v: 'Алматы' }]);
  });

  it('comes back on the port of its DATA_DIR after a stop, so that clients that knew it reconnect', async () => {
    running = await startEmbeddedPostgres({ dataDir });
    const { port } = running;
    await running.stop();
    expect((await readState(dataDir))?.port).to.equal(port);
    for (let restart = 0; restart < 2; restart++) {
      running = await startEmbeddedPostgres({ dataDir });
      expect(running.port).to.equal(port);
      await running.stop();
    }
    running = undefined;
  });

  it('moves to the port it is given (EMBEDDED_PG_PORT) and keeps that one for later starts', async () => {
    const given = await stablePort();
    running = await startEmbeddedPostgres({ dataDir, port: given });
    expect(running.port).to.equal(given);
    await running.stop();
    running = await startEmbeddedPostgres({ dataDir });
    expect(running.port).to.equal(given);
    expect(await query(running.url, 'select 1 as one')).to.deep.equal([{ one: 1 }]);
  });

  it('fails with a clear error naming the port when its kept port is taken, rather than moving to another', async () => {
    running = await startEmbeddedPostgres({ dataDir });
    const { port } = running;
    await running.stop();
    running = undefined;
    const squatter = createServer();
    await new Promise<void>((listening) => squatter.listen(port, '127.0.0.1', listening));
    try {
      const error = await startEmbeddedPostgres({ dataDir }).then(
        () => expect.fail('the start should have failed'),
        (failure: unknown) => failure as Error,
      );
      expect(error.message).to.include(`cannot listen on 127.0.0.1:${port}`).and.to.include(`DATA_DIR ${dataDir}`).and.to.include('EMBEDDED_PG_PORT');
      expect(await livePostmaster(join(dataDir, 'postgres'))).to.equal(null);
    } finally {
      await new Promise((closed) => squatter.close(closed));
    }
    running = await startEmbeddedPostgres({ dataDir });
    expect(running.port).to.equal(port);
  });

  it('lets a second process use the running server, which stays up when that process leaves', async () => {
    running = await startEmbeddedPostgres({ dataDir });
    const other = otherProcess(dataDir, 'join');
    expect(await other.printed).to.deep.equal({ port: running.port, startedHere: false });
    expect(await other.exited).to.equal(0);
    expect(await query(running.url, 'select 1 as one')).to.deep.equal([{ one: 1 }]);
    const { postmasterPid } = (await readState(dataDir)) ?? {};
    await running.stop();
    running = undefined;
    expect(isAlive(postmasterPid)).to.equal(false);
  });

  it('adopts the server of a process that was killed, and stops it when done', async () => {
    const other = otherProcess(dataDir, 'start-and-wait');
    const { port } = await other.printed;
    other.child.kill('SIGKILL');
    await other.exited;
    running = await startEmbeddedPostgres({ dataDir });
    expect({ port: running.port, startedHere: running.startedHere }).to.deep.equal({ port, startedHere: false });
    const { postmasterPid } = (await readState(dataDir)) ?? {};
    await running.stop();
    running = undefined;
    expect(isAlive(postmasterPid)).to.equal(false);
  });

  it('lets the process that started the server exit while another still uses it; the last one stops it', async () => {
    const starter = otherProcess(dataDir, 'stop-on-input');
    const { port } = await starter.printed;
    running = await startEmbeddedPostgres({ dataDir });
    expect({ port: running.port, startedHere: running.startedHere }).to.deep.equal({ port, startedHere: false });
    const user = new pg.Client({ connectionString: running.url });
    await user.connect();
    try {
      starter.child.stdin?.write('stop\n');
      expect(await starter.exited).to.equal(0);
      expect((await user.query('select 1 as one')).rows).to.deep.equal([{ one: 1 }]);
    } finally {
      await user.end();
    }
    const { postmasterPid } = (await readState(dataDir)) ?? {};
    await running.stop();
    running = undefined;
    expect(isAlive(postmasterPid)).to.equal(false);
  });

  it('removes a stale postmaster.pid left by a crash and starts', async () => {
    await writeFile(join(dataDir, 'postgres', 'postmaster.pid'), `${2 ** 22 + 17}\n${join(dataDir, 'postgres')}\n0\n5999\n`);
    running = await startEmbeddedPostgres({ dataDir });
    expect(running.startedHere).to.equal(true);
    expect(running.port).to.not.equal(5999);
  });

  it('raises an Error carrying the server log when the server cannot start', async () => {
    const autoConf = join(dataDir, 'postgres', 'postgresql.auto.conf');
    await writeFile(autoConf, "shared_buffers = 'plenty'\n");
    try {
      const error = await startEmbeddedPostgres({ dataDir }).then(
        () => expect.fail('the start should have failed'),
        (failure: unknown) => failure,
      );
      expect(error).to.be.instanceOf(Error);
      expect((error as Error).message).to.match(/did not start/).and.to.include('shared_buffers');
    } finally {
      await writeFile(autoConf, '');
    }
  });
});
