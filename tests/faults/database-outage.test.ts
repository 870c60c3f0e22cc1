import { expect } from 'chai';
import { ApiClient } from '../support/api-client.js';
import { pageThrough } from '../support/paging.js';
import { eventually, sleep } from '../rate-limit/support/stores.js';
import { adminContainer } from '../scale/support/admin-container.js';
import { startServerProcess, type ServerProcess } from '../scale/support/server-process.js';
import { OwnPostgres } from './support/own-postgres.js';

// Shorter than the defaults, to keep the test quick; not so short that a loaded machine's slow connect counts as an outage.
const STATEMENT_MS = 2_000;
const CONNECT_MS = 2_000;
const ACQUIRE_MS = 2_000;
/** No request may take longer than twice every bound it can meet; past that, it counts as hung. */
const COMPLETION_BOUND_MS = 2 * (STATEMENT_MS + CONNECT_MS + ACQUIRE_MS);

interface Outcome {
  readonly kind: 'vacancies' | 'candidates' | 'application';
  readonly startedAt: number;
  readonly endedAt: number;
  /** The HTTP status; 0 when the request did not complete (hung past the bound, or the connection failed). */
  readonly status: number;
  readonly failure?: string;
  readonly contentType: string | null;
  readonly retryAfter: string | null;
  readonly code: unknown;
  readonly externalId?: string;
}

let applications = 0;

/** One request of the traffic mix, bounded: it either completes or is recorded as not completing. */
async function request(apiUrl: string, key: string, kind: Outcome['kind'], vacancyId: string): Promise<Outcome> {
  const externalId = kind === 'application' ? `outage-${++applications}` : undefined;
  const startedAt = Date.now();
  const init: RequestInit = {
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    signal: AbortSignal.timeout(COMPLETION_BOUND_MS),
    ...(kind === 'application' ? { method: 'POST', body: JSON.stringify({ externalId, vacancyId, candidate: { name: 'Гульнара Ибрагимова' } }) } : {}),
  };
  const path = kind === 'application' ? '/applications' : `/${kind}?limit=5`;
  try {
    const response = await fetch(`${apiUrl}${path}`, init);
    const text = await response.text();
    let code: unknown;
    try {
      code = (JSON.parse(text) as { code?: unknown }).code;
    } catch {
      code = undefined;
    }
    return {
      kind, startedAt, endedAt: Date.now(), status: response.status, code,
      contentType: response.headers.get('content-type'), retryAfter: response.headers.get('retry-after'),
      ...(externalId === undefined ? {} : { externalId }),
    };
  } catch (error) {
    return {
      kind, startedAt, endedAt: Date.now(), status: 0, failure: String(error), code: undefined, contentType: null, retryAfter: null,
      ...(externalId === undefined ? {} : { externalId }),
    };
  }
}

/** `workers` clients sending the mix one request after another until told to stop. */
function traffic(apiUrl: string, key: string, vacancyId: string, workers = 4) {
  const outcomes: Outcome[] = [];
  let running = true;
  const kinds: Outcome['kind'][] = ['vacancies', 'application', 'candidates'];
  const done = Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let i = worker; running; i++) {
        outcomes.push(await request(apiUrl, key, kinds[i % kinds.length]!, vacancyId));
        await sleep(20);
      }
    }),
  );
  return {
    outcomes,
    async stop(): Promise<Outcome[]> {
      running = false;
      await done;
      return outcomes;
    },
  };
}

describe('The service while its PostgreSQL stops and starts again (a real server process on a cluster the test owns)', function () {
  this.timeout(120_000);
  let postgres: OwnPostgres | undefined;
  let server: ServerProcess | undefined;
  let key: string;
  let vacancyId: string;

  before(async function () {
    this.timeout(120_000);
    postgres = await OwnPostgres.create();
    // Migrates the database and seeds a company, a key and a vacancy, as the admin CLI would.
    const admin = await adminContainer({ businessUrl: postgres.url });
    try {
      const companyId = await admin.company();
      key = (await admin.issueKey(companyId)).key;
      [vacancyId] = (await admin.vacancies(companyId, [{}])) as [string];
    } finally {
      await admin.dispose();
    }
    server = await startServerProcess({
      STORE: 'postgres',
      DATABASE_URL: postgres.url,
      RATE_LIMIT_STORE: 'memory',
      RATE_LIMIT_POINTS: '1000000',
      // Short, so that the outage reaches both the key registry (cache expired) and the business data (key still cached).
      KEY_CACHE_TTL_MS: '1000',
      DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
      DB_CONNECT_TIMEOUT_MS: String(CONNECT_MS),
      DB_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_MS),
    });
  });

  after(async function () {
    this.timeout(60_000);
    await server?.stop();
    await postgres?.destroy();
  });

  it('answers 503 service_unavailable with Retry-After while it is down, never hangs, and serves again by itself once it is back', async () => {
    const api = new ApiClient(server!.apiUrl, key);
    const probe = new ApiClient(server!.origin);
    expect((await probe.get('/readyz')).status).to.equal(200);
    // Warm up: the pool opens its connections before the traffic that is measured.
    for (let round = 0; round < 3; round++) {
      const warmUp = await Promise.all(Array.from({ length: 4 }, () => api.get('/vacancies')));
      expect(warmUp.map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
    }
    const load = traffic(server!.apiUrl, key, vacancyId);
    await sleep(1_000);

    const stopping = Date.now();
    await postgres!.stop();
    const stopped = Date.now();
    const notReady = await probe.get('/readyz');
    expect(notReady.status, 'not ready while the database is down').to.equal(503);
    expect(notReady.body).to.include({ code: 'not_ready' });
    await sleep(3_000);

    const restarting = Date.now();
    await postgres!.start();
    let attempts = 0;
    const recovered = await eventually(async () => {
      attempts += 1;
      return (await api.get('/vacancies')).status === 200;
    }, 15_000, 250);
    expect(recovered, `serving again after ${attempts} attempts`).to.equal(true);
    expect(attempts, 'recovered within a bounded number of retries').to.be.at.most(60);
    const servingAgain = Date.now();
    expect((await probe.get('/readyz')).status, 'ready again').to.equal(200);
    await sleep(1_000);
    const outcomes = await load.stop();

    expect(server!.child.exitCode, server!.output()).to.equal(null);
    const unfinished = outcomes.filter((o) => o.status === 0);
    expect(JSON.stringify(unfinished), 'every request completed within the bound').to.equal('[]');
    expect([...new Set(outcomes.map((o) => o.status))].filter((s) => ![200, 201, 503].includes(s)), 'no status but 200, 201 and 503').to.deep.equal([]);
    for (const outcome of outcomes.filter((o) => o.status === 503)) {
      expect(outcome.contentType).to.match(/^application\/problem\+json/);
      expect(outcome.code).to.equal('service_unavailable');
      expect(outcome.retryAfter).to.equal('5');
    }
    const before = outcomes.filter((o) => o.endedAt < stopping);
    const during = outcomes.filter((o) => o.startedAt > stopped && o.endedAt < restarting);
    const after = outcomes.filter((o) => o.startedAt > servingAgain);
    expect(before.length, 'traffic before the outage').to.be.greaterThan(10);
    expect(JSON.stringify(before.filter((o) => o.status >= 300)), 'before the outage: all served').to.equal('[]');
    expect(during.length, 'traffic during the outage').to.be.greaterThan(10);
    expect(JSON.stringify(during.filter((o) => o.status !== 503)), 'during the outage: all 503').to.equal('[]');
    expect(new Set(during.map((o) => o.kind)), 'every kind of request met the outage').to.have.property('size', 3);
    expect(after.length, 'traffic after the recovery').to.be.greaterThan(5);
    expect(JSON.stringify(after.filter((o) => o.status >= 300)), 'after the recovery: all served').to.equal('[]');
    expect(server!.logs().filter((line) => line.msg === 'unexpected error'), 'every failure was recognised as the outage').to.deep.equal([]);
    const plainText = server!.output().split('\n').filter((line) => line.trim() !== '' && !line.startsWith('{'));
    expect(plainText, 'nothing but JSON log lines, the database driver included').to.deep.equal([]);

    // Applications refused with 503 are safe to send again: each ends up exactly once.
    const refused = outcomes.filter((o) => o.kind === 'application' && o.status === 503).map((o) => o.externalId!);
    for (const externalId of refused) {
      const retried = await api.post('/applications', { externalId, vacancyId, candidate: { name: 'Гульнара Ибрагимова' } });
      expect(retried.status, retried.text).to.be.oneOf([200, 201]);
    }
    const sent = new Set(outcomes.filter((o) => o.kind === 'application').map((o) => o.externalId!));
    const { pages } = await pageThrough(api, '/candidates', { limit: 100 });
    const listed = pages.flat().map((card: { externalId: string }) => card.externalId);
    expect(listed.length, 'no card twice').to.equal(new Set(listed).size);
    expect(new Set(listed), 'every application sent, accepted at once or on the retry').to.deep.equal(sent);
  });
});
