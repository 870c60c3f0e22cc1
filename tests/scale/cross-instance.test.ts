import { expect } from 'chai';
import { ApiClient, type ApiResponse } from '../support/api-client.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { REDIS_URL, redisAnswers } from '../rate-limit/support/stores.js';
import { adminContainer, type AdminContainer } from './support/admin-container.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

/** Shared rate limits as production runs them: Redis when one answers here, otherwise the database. */
const RATE_LIMIT_STORE = (await redisAnswers()) ? 'redis' : 'postgres';

interface Card {
  readonly id: string;
  readonly externalId: string | null;
  readonly stage: string | null;
  readonly updatedAt: string;
}

const STAGES = ['NEW', 'AI_DIALOG', 'INTERVIEW', 'OFFER'];

/** (updatedAt, id) ascending, ids by code unit as the service orders them. */
function inListOrder(a: Card, b: Card): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function applicationBody(vacancyId: string, externalId: string) {
  return { externalId, vacancyId, candidate: { name: 'Дилноза Юсупова', email: `${externalId}@example.uz` } };
}

function expectPage(response: ApiResponse): { items: Card[]; nextCursor: string | null } {
  expect(response.status, response.text.slice(0, 300)).to.equal(200);
  return response.body;
}

describe(`Two instances on one PostgreSQL under concurrent traffic (RATE_LIMIT_STORE=${RATE_LIMIT_STORE})`, function () {
  this.timeout(120_000);
  const database = usePostgresTestDatabase();
  let instances: ServerProcess[] = [];
  let admin: AdminContainer;

  before(async function () {
    this.timeout(120_000);
    admin = await adminContainer({ businessUrl: database().businessUrl });
    const env = {
      STORE: 'postgres',
      DATABASE_URL: database().businessUrl,
      RATE_LIMIT_STORE,
      REDIS_URL,
      // The traffic here is the point, not the budget: one key sends a few hundred requests.
      RATE_LIMIT_POINTS: '1000000',
    };
    instances = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  });

  after(async function () {
    this.timeout(60_000);
    await Promise.all(instances.map((instance) => instance.stop()));
    await admin?.dispose();
    for (const instance of instances) {
      expect(instance.logs().filter((l) => Number(l.level) >= 50), `errors logged by an instance:\n${instance.output()}`).to.deep.equal([]);
    }
  });

  /** A company with a key and a vacancy, and a client of each instance with that key. */
  async function aTenantOnBoth() {
    const companyId = await admin.company();
    const { key } = await admin.issueKey(companyId);
    const [vacancyId] = (await admin.vacancies(companyId, [{}])) as [string];
    const [a, b] = instances.map((instance) => new ApiClient(instance.apiUrl, key)) as [ApiClient, ApiClient];
    return { companyId, vacancyId, a, b };
  }

  /** Every card of the company, read with nothing else going on. */
  async function allCards(api: ApiClient): Promise<Card[]> {
    const cards: Card[] = [];
    let cursor: string | null = null;
    do {
      const page = expectPage(await api.get(`/candidates?limit=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`));
      cards.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);
    return cards;
  }

  it('create exactly one card per externalId sent to both at once; every repeat carries the same id, replayed', async () => {
    const { vacancyId, a, b } = await aTenantOnBoth();
    const externalIds = Array.from({ length: 20 }, (_, i) => `overlap-${i}`);
    const sends = externalIds.flatMap((externalId) => [a, b, a, b].map((api) => ({ externalId, api })));
    const responses = await Promise.all(sends.map(async ({ externalId, api }) => ({ externalId, response: await api.post('/applications', applicationBody(vacancyId, externalId)) })));

    for (const externalId of externalIds) {
      const answers = responses.filter((r) => r.externalId === externalId).map((r) => r.response);
      expect(answers.map((r) => r.status).sort(), externalId).to.deep.equal([200, 200, 200, 201]);
      expect(new Set(answers.map((r) => r.body.id)).size, `${externalId}: one id`).to.equal(1);
      for (const repeat of answers.filter((r) => r.status === 200)) {
        expect(repeat.headers.get('idempotent-replayed')).to.equal('true');
        expect(repeat.headers.get('idempotency-conflict'), 'the same body each time').to.equal(null);
      }
    }
    const cards = await allCards(a);
    expect(cards.map((c) => c.externalId).sort()).to.deep.equal([...externalIds].sort());
    const created = new Map(responses.filter((r) => r.response.status === 201).map((r) => [r.externalId, r.response.body.id as string]));
    for (const card of cards) expect(card.id).to.equal(created.get(card.externalId!));
  });

  it('page without repeats or gaps when pages alternate between the instances while cards are inserted', async () => {
    const { vacancyId, a, b } = await aTenantOnBoth();
    for (let i = 0; i < 40; i++) expect((await [a, b][i % 2]!.post('/applications', applicationBody(vacancyId, `seed-${i}`))).status).to.equal(201);
    const before = await allCards(a);

    const seen: Card[] = [];
    const inserted: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; ; page++) {
      // The cursor of one instance, taken by the other: it is the client's to carry, not an instance's.
      const reader = [a, b][page % 2]!;
      const result = expectPage(await reader.get(`/candidates?limit=6${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`));
      seen.push(...result.items);
      cursor = result.nextCursor;
      if (cursor === null) break;
      for (let i = 0; i < 2; i++) {
        const externalId = `during-${page}-${i}`;
        const created = await [b, a][i]!.post('/applications', applicationBody(vacancyId, externalId));
        expect(created.status).to.equal(201);
        inserted.push(created.body.id);
      }
    }

    const ids = seen.map((card) => card.id);
    expect(ids.length, 'no card twice').to.equal(new Set(ids).size);
    expect([...seen].sort(inListOrder), 'in list order across pages').to.deep.equal(seen);
    // Every insert happened before some later page was read, and sorts after the cursor of that page.
    expect(new Set(ids), 'no card missed').to.deep.equal(new Set([...before.map((card) => card.id), ...inserted]));
    expect(inserted.length).to.be.greaterThan(10);
  });

  it('lose no change across instances: a reader syncing on one, writers on the other, one incremental pass catches up', async () => {
    const { companyId, vacancyId, a: writerApi, b: readerApi } = await aTenantOnBoth();
    const existing: string[] = [];
    for (let i = 0; i < 20; i++) existing.push((await writerApi.post('/applications', applicationBody(vacancyId, `base-${i}`))).body.id);

    // Writers: integrations posting applications through instance A, and a recruiter moving cards (the admin side).
    let writing = true;
    let writes = 0;
    const failures: unknown[] = [];
    const posters = Array.from({ length: 3 }, async (_, worker) => {
      for (let i = 0; writing; i++) {
        const response = await writerApi.post('/applications', applicationBody(vacancyId, `live-${worker}-${i}`));
        if (response.status !== 201) failures.push(response.text);
        else existing.push(response.body.id);
        writes += 1;
      }
    });
    const recruiter = (async () => {
      for (let i = 0; writing; i++) {
        await admin.moveCandidate(companyId, existing[i % existing.length]!, STAGES[i % STAGES.length]!).catch((error: unknown) => failures.push(error));
        writes += 1;
      }
    })();

    /** One pass by the sync rules on instance B; the watermark of its first page is the next run's since (rule 5). */
    const mirror = new Map<string, Card>();
    async function pass(since: string | null): Promise<{ watermark: string; pages: number }> {
      let cursor: string | null = null;
      let watermark: string | undefined;
      let pages = 0;
      do {
        const query = [since === null ? '' : `since=${encodeURIComponent(since)}`, 'limit=5', cursor === null ? '' : `cursor=${encodeURIComponent(cursor)}`];
        const response = await readerApi.get(`/candidates?${query.filter((q) => q !== '').join('&')}`);
        const page = expectPage(response);
        watermark ??= response.headers.get('x-sync-watermark') ?? undefined;
        for (const card of page.items) mirror.set(card.id, card);
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== null);
      expect(watermark, 'X-Sync-Watermark on every page').to.be.a('string');
      return { watermark: watermark!, pages };
    }

    // The pass starts once the writers are in full swing; how much they write during it depends on the
    // machine's speed (the pass must also outrun them to end), so the test asks only that they did.
    while (writes < 10 && failures.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const writesBefore = writes;
    const full = await pass(null);
    const writesDuring = writes - writesBefore;
    writing = false;
    await Promise.all([...posters, recruiter]);
    expect(failures).to.deep.equal([]);
    expect(full.pages, 'a pass of several pages').to.be.greaterThan(4);
    expect(writesDuring, 'the writers wrote while the pass ran').to.be.greaterThan(0);

    await pass(full.watermark);
    const truth = await allCards(writerApi);
    expect(truth.length).to.equal(existing.length);
    const missed = truth.filter((card) => {
      const mirrored = mirror.get(card.id);
      return mirrored === undefined || mirrored.updatedAt !== card.updatedAt || mirrored.stage !== card.stage;
    });
    expect(missed, 'changes the reader never saw').to.deep.equal([]);
  });
});
