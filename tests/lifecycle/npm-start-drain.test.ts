import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import pg from 'pg';
import { livePostmaster } from '../../infrastructure/database/embedded-postgres-files.js';
import { startEmbeddedPostgres } from '../../infrastructure/database/embedded-postgres.js';
import { adminOn } from '../scale/support/registry.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { HeldApplication, KeepAlivePosters, type Answer } from './support/keep-alive-posters.js';
import { cleanEnv, npmStart, type NpmStart } from './support/npm-start.js';

const CLIENTS = 30;
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface DrainRun {
  readonly exit: { code: number | null; signal: NodeJS.Signals | null };
  readonly exitMs: number;
  readonly answers: readonly Answer[];
  /** What each client was answered once the drain had begun (by the service's own log line). */
  readonly afterDrainByClient: readonly (readonly Answer[])[];
  /** The answer to an application whose request was in flight when the signal came, its body sent once the drain had begun. */
  readonly held: Omit<Answer, 'client'>;
}

/**
 * Keeps 30 keep-alive clients posting, signals `npm start`, and collects what the clients and the process saw.
 * Whether one of the 30 is in flight at the signal is chance (all may be between two requests), so one more
 * request is held in flight across it for sure, and its body sent once the drain has begun.
 */
async function drainUnderLoad(service: NpmStart, key: string, vacancyId: string, signal: () => void): Promise<DrainRun> {
  const posters = new KeepAlivePosters(service.apiUrl, key, vacancyId, CLIENTS);
  // In full swing: every client has had answers on its connection.
  while (posters.answers.length < CLIENTS * 10) {
    if (posters.transportErrors.length > 0) throw new Error(`a client failed before the signal: ${posters.transportErrors.join(', ')}`);
    await sleep(50);
  }
  const heldApplication = await HeldApplication.open(service.apiUrl, key, vacancyId, 'drain-held');
  const signalledAt = Date.now();
  signal();
  const draining = () => service.logs().find((line) => line.msg === 'draining requests in flight, then stopping');
  while (draining() === undefined && Date.now() - signalledAt < 5_000) await sleep(10);
  const held = await heldApplication.release();
  const exit = await service.exited;
  const exitMs = Date.now() - signalledAt;
  await posters.stop();
  const drainLine = draining();
  expect(drainLine, service.output()).to.not.equal(undefined);
  const drainBegan = Number(drainLine?.time);
  const afterDrainByClient = Array.from({ length: CLIENTS }, (_, client) => posters.answers.filter((a) => a.client === client && a.at >= drainBegan));
  return { exit, exitMs, answers: posters.answers, afterDrainByClient, held };
}

function expectCleanDrain(run: DrainRun, service: NpmStart): void {
  const output = service.output();
  expect(run.exit, output).to.deep.equal({ code: 0, signal: null });
  expect(run.exitMs, 'exit within 5 s of the signal').to.be.below(5_000);
  expect(run.answers.filter((a) => a.status >= 500), 'no 5xx').to.deep.equal([]);
  expect(run.answers.every((a) => a.status === 201 || a.status === 200), 'only 201/200').to.equal(true);
  // Once the drain began, a client gets at most the answer already on its way (written before the drain) and
  // one more, which says `Connection: close`; then its connection is closed and a new one is refused.
  run.afterDrainByClient.forEach((answers, client) => {
    expect(answers.length, `client ${client}: answers after the drain began`).to.be.at.most(2);
    expect(answers.filter((a) => !a.connectionClose).length, `client ${client}: answers without Connection: close`).to.be.at.most(1);
    if (answers.length === 2) expect(answers[1]?.connectionClose, `client ${client}: the last answer closes the connection`).to.equal(true);
  });
  expect(run.held, 'the request in flight when the drain began: answered, saying Connection: close').to.include({ status: 201, connectionClose: true });
  expect(service.logs().filter((line) => Number(line.level) >= 50), 'no error line in the log').to.deep.equal([]);
  expect(output).to.not.match(/npm (ERR|error)/);
}

async function storedCards(url: string, companyId: string): Promise<Map<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ id: string; external_id: string }>('select id, external_id from candidates where company_id = $1', [companyId]);
    return new Map(rows.rows.map((row) => [row.external_id, row.id]));
  } finally {
    await client.end();
  }
}

/**
 * Exactly the acknowledged applications are stored: none lost, and none stored without its client getting the
 * answer (the clients never hang up; a request whose connection the drain closed was not taken).
 */
function expectStoredExactlyTheAcknowledged(answers: readonly Answer[], stored: Map<string, string>): void {
  const acknowledged = answers.filter((a) => a.status === 201 || a.status === 200);
  expect(acknowledged.length).to.be.greaterThan(CLIENTS * 10);
  const missing = acknowledged.filter((a) => stored.get(a.externalId) !== a.id).map((a) => a.externalId);
  expect(missing, 'acknowledged but not stored').to.deep.equal([]);
  const answered = new Set(acknowledged.map((a) => a.externalId));
  expect([...stored.keys()].filter((externalId) => !answered.has(externalId)), 'stored but never answered').to.deep.equal([]);
}

describe('npm start under keep-alive load: a drain that ends by itself', function () {
  this.timeout(180_000);

  describe('SIGTERM to the npm process, on DATABASE_URL', () => {
    const database = usePostgresTestDatabase();
    let service: NpmStart | undefined;
    after(() => service?.kill());

    it('answers what is in flight, closes every connection after its answer, stores every acknowledged application, exits 0 within 5 s', async () => {
      const admin = adminOn(database());
      const companyId = await admin.company();
      const key = await admin.issueKey(companyId, { scopes: ['applications:write'] });
      const vacancyId = await admin.vacancy(companyId);
      service = await npmStart({ STORE: 'postgres', DATABASE_URL: database().businessUrl, RATE_LIMIT_POINTS: '1000000' });
      const npmPid = service.npm.pid as number;
      const run = await drainUnderLoad(service, key.key, vacancyId, () => process.kill(npmPid, 'SIGTERM'));
      expectCleanDrain(run, service);
      expectStoredExactlyTheAcknowledged([...run.answers, { client: CLIENTS, ...run.held }], await storedCards(database().businessUrl, companyId));
    });
  });

  describe('SIGINT to the process group (Ctrl-C), on the embedded PostgreSQL', () => {
    let dataDir: string;
    let service: NpmStart | undefined;
    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'drain-embedded-'));
      await chmod(dataDir, 0o755); // the embedded server runs as "postgres" when the tests run as root
    });
    after(async () => {
      service?.kill();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('keeps the database up through the drain (it has a group of its own), stops it after, and exits 0 within 5 s', async () => {
      // The admin CLI from the build, as the package's bin runs it.
      const seeded = await promisify(execFile)(process.execPath, ['bin/admin.js', 'seed', 'demo', '--vacancies', '2', '--candidates', '0'], {
        cwd: REPO_ROOT,
        env: cleanEnv({ DATA_DIR: dataDir }),
      });
      const { companyId, key } = JSON.parse(seeded.stdout) as { companyId: string; key: string };
      service = await npmStart({ DATA_DIR: dataDir, RATE_LIMIT_POINTS: '1000000' });
      const vacancies = await fetch(`${service.apiUrl}/vacancies?status=all&limit=1`, { headers: { 'X-API-Key': key } });
      const vacancyId = ((await vacancies.json()) as { items: { id: string }[] }).items[0]?.id as string;
      const group = -(service.npm.pid as number);
      const run = await drainUnderLoad(service, key, vacancyId, () => process.kill(group, 'SIGINT'));
      expectCleanDrain(run, service);
      expect(await livePostmaster(join(dataDir, 'postgres')), 'the service stopped its embedded database').to.equal(null);

      const reopened = await startEmbeddedPostgres({ dataDir });
      try {
        expectStoredExactlyTheAcknowledged([...run.answers, { client: CLIENTS, ...run.held }], await storedCards(reopened.url, companyId));
      } finally {
        await reopened.stop({ force: true });
      }
    });
  });
});
