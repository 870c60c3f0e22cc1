import { expect } from 'chai';
import { ApiClient, type ApiResponse } from '../support/api-client.js';
import { createThrowawayDatabaseUrl } from '../support/postgres-test-database.js';
import { postgresTestServer } from '../support/postgres-test-server.js';
import { adminContainer, type AdminContainer } from '../scale/support/admin-container.js';
import { startServerProcess, type ServerProcess } from '../scale/support/server-process.js';
import { startPgBouncer, type RunningPgBouncer } from './support/pgbouncer.js';

/** PgBouncer's server connections for the database (and user): far fewer than the instances' pools. */
const SERVER_CONNECTIONS = 5;
const DB_POOL_MAX = 20;
/** One key's budget, shared by both instances; the window outlasts the test, so nothing is renewed in it. */
const POINTS = 150;
const OVER_BUDGET = 20;
const WINDOW_S = 600;
/** Requests in flight at once: as many as both instances' pools hold, eight times PgBouncer's server connections. */
const IN_FLIGHT = 2 * DB_POOL_MAX;
const RATE_LIMIT = /^"default";r=(\d+);t=(\d+)$/;

interface Sent {
  readonly what: string;
  readonly response: ApiResponse;
}

function applicationBody(vacancyId: string, externalId: string) {
  return { externalId, vacancyId, candidate: { name: 'Айгерим Сапарова', email: `${externalId}@example.kz` } };
}

function remainingOf(response: ApiResponse): number {
  const match = RATE_LIMIT.exec(response.headers.get('ratelimit') ?? '');
  expect(match, `RateLimit header: ${response.headers.get('ratelimit')}`).to.not.equal(null);
  return Number(match![1]);
}

/** Calls `probe` back to back until stopped; resolves with what each call returned. */
function repeatedly<T>(probe: () => Promise<T>, pauseMs: number): { stop: () => Promise<T[]> } {
  const results: T[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      results.push(await probe());
      await new Promise((done) => setTimeout(done, pauseMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return results;
    },
  };
}

/** The items in an order that is random but the same at every run (a seeded Fisher-Yates shuffle). */
function shuffled<T>(items: readonly T[], seed = 18): T[] {
  const out = [...items];
  let state = seed;
  const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Runs the calls with at most `limit` at a time; resolves with their results in order. */
async function inFlight<T>(calls: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(calls.length);
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const index = next++;
      results[index] = await calls[index]!();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

describe(`Two instances through PgBouncer in transaction pooling: DB_POOL_MAX=${DB_POOL_MAX} each, default_pool_size=${SERVER_CONNECTIONS}`, function () {
  this.timeout(180_000);
  let bouncer: RunningPgBouncer | undefined;
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let admin: AdminContainer | undefined;
  let instances: ServerProcess[] = [];
  let databaseName = '';

  before(async function () {
    this.timeout(150_000);
    bouncer = await startPgBouncer({ serverUrl: (await postgresTestServer()).adminUrl, defaultPoolSize: SERVER_CONNECTIONS });
    database = await createThrowawayDatabaseUrl();
    databaseName = new URL(database.url).pathname.slice(1);
    // The test's own set-up goes the run's way (direct, or through the run's pooler); the service only through this one.
    admin = await adminContainer({ businessUrl: database.url });
    const env = {
      STORE: 'postgres',
      DATABASE_URL: bouncer.urlOf(databaseName),
      DB_POOL_MAX: String(DB_POOL_MAX),
      RATE_LIMIT_STORE: 'postgres',
      RATE_LIMIT_POINTS: String(POINTS),
      RATE_LIMIT_WINDOW_S: String(WINDOW_S),
    };
    const started = await Promise.allSettled([startServerProcess(env), startServerProcess(env)]);
    // The one that did start is stopped in `after` even when the other did not.
    instances = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    for (const s of started) if (s.status === 'rejected') throw s.reason;
  });

  after(async function () {
    this.timeout(60_000);
    await Promise.all(instances.map((instance) => instance.stop()));
    await admin?.dispose();
    await database?.drop();
    await bouncer?.stop();
    for (const instance of instances) {
      expect(instance.logs().filter((l) => Number(l.level) >= 50), `errors logged by an instance:\n${instance.output()}`).to.deep.equal([]);
    }
  });

  it('lose nothing and answer no 5xx under concurrent reads, writes and the same externalId sent to both, sharing one rate budget, ready throughout', async () => {
    const companyId = await admin!.company();
    const [vacancyId] = (await admin!.vacancies(companyId, [{}])) as [string];
    const [readKey, writeKey, budgetKey] = (await Promise.all([0, 1, 2].map(async () => (await admin!.issueKey(companyId)).key))) as [string, string, string];
    const on = (i: number, key: string) => new ApiClient(instances[i % 2]!.apiUrl, key);

    const readiness = instances.map((instance) => repeatedly(async () => (await fetch(`${instance.origin}/readyz`)).status, 50));
    let peakServers = 0;
    let peakClients = 0;
    let peakWaiting = 0;
    let peakWaitMs = 0;
    const pools = repeatedly(async () => {
      const row = (await bouncer!.showPools()).find((p) => p.database === databaseName);
      peakServers = Math.max(peakServers, row?.servers ?? 0);
      peakClients = Math.max(peakClients, (row?.clActive ?? 0) + (row?.clWaiting ?? 0));
      peakWaiting = Math.max(peakWaiting, row?.clWaiting ?? 0);
      peakWaitMs = Math.max(peakWaitMs, row?.maxWaitMs ?? 0);
    }, 20);

    const uniqueIds = Array.from({ length: 50 }, (_, i) => `single-${i}`);
    const overlapIds = Array.from({ length: 15 }, (_, i) => `both-${i}`);
    const request = (what: string, call: () => Promise<ApiResponse>) => async (): Promise<Sent> => ({ what, response: await call() });
    // Kinds mixed, the four sends of an overlapping externalId side by side so that they are in flight together.
    const groups: (() => Promise<Sent>)[][] = [
      ...uniqueIds.map((id, i) => [request(`write ${id}`, () => on(i, writeKey).post('/applications', applicationBody(vacancyId, id)))]),
      ...overlapIds.map((id) => [0, 1, 0, 1].map((i) => request(`write ${id}`, () => on(i, writeKey).post('/applications', applicationBody(vacancyId, id))))),
      ...Array.from({ length: 60 }, (_, i) => [request('read', () => on(i, readKey).get(i % 3 === 0 ? '/vacancies' : '/candidates?limit=20'))]),
      ...Array.from({ length: POINTS + OVER_BUDGET }, (_, i) => [request('budget', () => on(i, budgetKey).get('/vacancies'))]),
    ];
    const sent = await inFlight(shuffled(groups).flat(), IN_FLIGHT);
    const [readyA, readyB] = await Promise.all(readiness.map((r) => r.stop()));
    await pools.stop();

    const failed = sent.filter((s) => s.response.status >= 500).map((s) => `${s.what}: ${s.response.status} ${s.response.text.slice(0, 200)}`);
    expect(failed, 'no 5xx').to.deep.equal([]);
    for (const ready of [readyA!, readyB!]) {
      expect(ready.length, '/readyz asked during the load').to.be.above(0);
      expect(ready.filter((status) => status !== 200), '/readyz 200 throughout').to.deep.equal([]);
    }
    expect(peakServers, 'server connections PgBouncer opened for the database').to.be.within(1, SERVER_CONNECTIONS);
    expect(peakClients, `client connections of both instances at once (most waiting: ${peakWaiting})`).to.be.above(SERVER_CONNECTIONS);

    const writes = sent.filter((s) => s.what.startsWith('write '));
    for (const id of uniqueIds) {
      expect(writes.filter((s) => s.what === `write ${id}`).map((s) => s.response.status), id).to.deep.equal([201]);
    }
    for (const id of overlapIds) {
      const answers = writes.filter((s) => s.what === `write ${id}`).map((s) => s.response);
      expect(answers.map((r) => r.status).sort(), `${id}, sent to both at once`).to.deep.equal([200, 200, 200, 201]);
      expect(new Set(answers.map((r) => r.body.id)).size, `${id}: one id`).to.equal(1);
    }
    expect(sent.filter((s) => s.what === 'read').map((s) => s.response.status)).to.deep.equal(Array<number>(60).fill(200));

    const acknowledged = new Map(writes.filter((s) => s.response.status === 201).map((s) => [s.what.slice('write '.length), s.response.body.id as string]));
    const cards: { id: string; externalId: string | null }[] = [];
    let cursor: string | null = null;
    do {
      const page: ApiResponse = await on(0, readKey).get(`/candidates?limit=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      expect(page.status, page.text.slice(0, 200)).to.equal(200);
      cards.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor !== null);
    expect(cards.map((c) => c.externalId).sort(), 'one card per externalId, none lost').to.deep.equal([...uniqueIds, ...overlapIds].sort());
    for (const card of cards) expect(card.id, `${card.externalId}: the acknowledged id`).to.equal(acknowledged.get(card.externalId!));

    // Last: the budget holds only if the store works through the pooler, and a failure here should not hide the checks above.
    for (const instance of instances) {
      const storeTrouble = instance.logs().filter((l) => String(l.msg).includes('rate-limit store')).map((l) => l.msg);
      expect(storeTrouble, `the shared store answered throughout (the longest wait for a server connection: ${peakWaitMs} ms)`).to.deep.equal([]);
    }

    const budget = sent.filter((s) => s.what === 'budget').map((s) => s.response);
    const granted = budget.filter((r) => r.status === 200);
    expect(budget.filter((r) => r.status !== 200).map((r) => r.status), 'the requests past the one shared budget').to.deep.equal(Array<number>(OVER_BUDGET).fill(429));
    expect(granted.map(remainingOf).sort((a, b) => a - b), 'each granted request counted once, in one budget').to.deep.equal(Array.from({ length: POINTS }, (_, i) => i));
  });

  it("leave PgBouncer's log without a refused startup parameter", async () => {
    expect(await bouncer!.refusedStartupParameters()).to.deep.equal([]);
  });
});
