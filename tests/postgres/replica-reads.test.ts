import { expect } from 'chai';
import pg from 'pg';
import type { ApiClient, ApiResponse } from '../support/api-client.js';
import { aVacancyInput } from '../support/builders.js';
import { startReplicaCluster, type ReplicaCluster } from './support/replica-cluster.js';
import { startServiceOn, type ServiceOnPostgres } from './support/service-on-postgres.js';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
/** How long a completed read barrier serves later reads of the company (PgUnitOfWork's default). */
const BARRIER_REUSE_MS = 100;

interface SyncState {
  /** What the client holds of each vacancy: its title. */
  readonly held: Map<string, string>;
  since: string | null;
}

/** One pass by the sync rules through HTTP: since the last watermark, page by page, the first page's watermark kept. */
async function syncPass(api: ApiClient, state: SyncState): Promise<void> {
  let cursor: string | null = null;
  let watermark: string | null = null;
  do {
    const query: string[] = [state.since === null ? '' : `since=${encodeURIComponent(state.since)}`, 'limit=50', cursor === null ? '' : `cursor=${encodeURIComponent(cursor)}`];
    const response: ApiResponse = await api.get(`/vacancies?${query.filter((part) => part !== '').join('&')}`);
    expect(response.status, response.text.slice(0, 300)).to.equal(200);
    watermark ??= response.headers.get('x-sync-watermark');
    for (const item of response.body.items as { id: string; title: string }[]) state.held.set(item.id, item.title);
    cursor = response.body.nextCursor;
  } while (cursor !== null);
  state.since = watermark;
}

/** Every vacancy of the company on the primary: id and title. */
async function onPrimary(url: string, companyId: string): Promise<Map<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = (await client.query<{ id: string; title: string }>('select id, title from vacancies where company_id = $1', [companyId])).rows;
    return new Map(rows.map((row) => [row.id, row.title]));
  } finally {
    await client.end();
  }
}

describe('List pages on a streaming replica (DATABASE_REPLICA_URLS, ADR 26)', function () {
  this.timeout(180_000);
  let cluster: ReplicaCluster;
  let service: ServiceOnPostgres;
  const pages = (copy: string) => service.replicaReads?.pages.get(copy) ?? 0;
  const fallbacks = (reason: string) => service.replicaReads?.fallbacks.get(reason) ?? 0;

  before(async () => {
    cluster = await startReplicaCluster();
    service = await startServiceOn(cluster.primaryUrl, { databaseReplicaUrls: [cluster.replicaUrl], dbReplicaWaitMs: 200 });
  });
  after(async () => {
    await service?.close();
    await cluster?.stop();
  });

  /** Lists until a page is read on the replica (it is used again once it has caught up); fails after 30 s. */
  async function untilServedByReplica(): Promise<void> {
    await cluster.caughtUp();
    for (let attempt = 0; attempt < 300; attempt++) {
      const before = pages('replica-1');
      expect((await service.api.get('/vacancies?limit=10')).status).to.equal(200);
      if (pages('replica-1') > before) return;
      await sleep(100);
    }
    expect.fail('No page was read on the replica again within 30 s of it catching up.');
  }

  /** The watermark of a page now: a `since` from which every later change is listed. */
  async function watermark(): Promise<string> {
    return (await service.api.get('/vacancies?limit=1')).headers.get('x-sync-watermark') as string;
  }

  it('answers a page from the replica, byte for byte what the primary answers', async () => {
    await service.upsertVacancies([aVacancyInput({ title: 'Кассир' }), aVacancyInput({ title: 'Повар', skills: ['Ёлка', '"кавычки"', '\\'] })]);
    await untilServedByReplica();
    const path = '/vacancies?limit=2';
    let before = pages('replica-1');
    const fromReplica = await service.api.get(path);
    expect(pages('replica-1')).to.equal(before + 1);
    await cluster.stopReplica();
    try {
      before = pages('primary');
      const fromPrimary = await service.api.get(path);
      expect(pages('primary')).to.equal(before + 1);
      expect(fromReplica.status).to.equal(200);
      expect(fromReplica.body.items).to.have.length(2);
      expect(fromPrimary.text).to.equal(fromReplica.text);
    } finally {
      await cluster.startReplica();
    }
  });

  it('loses no change with writers going on and a client syncing through the replica while its replay stops and goes', async () => {
    const ids = await service.upsertVacancies(Array.from({ length: 60 }, (_, i) => aVacancyInput({ title: `v${i}-0` })));
    const state: SyncState = { held: new Map(), since: null };
    let writing = true;
    let version = 0;
    const writer = async (w: number) => {
      while (writing) {
        version += 1;
        const id = ids[(version * 7 + w) % ids.length] as string;
        await service.upsertVacancies([{ ...aVacancyInput({ title: `${id}-${version}` }), id }]);
      }
    };
    const pauser = async () => {
      while (writing) {
        // Paused longer than the wait's bound (200 ms): pages then go to the primary, as well as to the replica between.
        await cluster.pauseReplay();
        await sleep(500);
        await cluster.resumeReplay();
        await sleep(200);
      }
    };
    const replicaBefore = pages('replica-1');
    const laggingBefore = fallbacks('lagging');
    const syncing = (async () => {
      while (writing) await syncPass(service.api, state);
    })();
    const writers = Promise.all([writer(1), writer(2), writer(3), writer(4), pauser()]);
    await sleep(6_000);
    writing = false;
    await writers;
    await syncing;
    await cluster.resumeReplay();
    await syncPass(service.api, state);
    await syncPass(service.api, state);

    const stored = await onPrimary(cluster.primaryUrl, service.companyId);
    const lost = [...stored].filter(([id, title]) => state.held.get(id) !== title);
    expect(version, 'writes made').to.be.above(100);
    expect(lost, 'changes the client never received').to.deep.equal([]);
    expect(pages('replica-1') - replicaBefore, 'pages read on the replica').to.be.above(0);
    expect(fallbacks('lagging') - laggingBefore, 'pages read on the primary while the replica lagged').to.be.above(0);
  });

  it('reads the pages on the primary, complete, while the replica\'s replay is paused and writes go on', async () => {
    await untilServedByReplica();
    const since = await watermark();
    await cluster.pauseReplay();
    try {
      const replicaBefore = pages('replica-1');
      const primaryBefore = pages('primary');
      for (let i = 0; i < 5; i++) {
        const [id] = await service.upsertVacancies([aVacancyInput({ title: `paused-${i}` })]);
        // Past the time a read barrier serves later reads (ADR 9): the page's barrier comes after the write.
        await sleep(BARRIER_REUSE_MS + 50);
        const listed = await service.api.get(`/vacancies?limit=100&since=${encodeURIComponent(since)}`);
        expect(listed.status).to.equal(200);
        expect((listed.body.items as { id: string; title: string }[]).find((item) => item.id === id)?.title).to.equal(`paused-${i}`);
      }
      expect(pages('replica-1')).to.equal(replicaBefore);
      expect(pages('primary') - primaryBefore).to.equal(5);
    } finally {
      await cluster.resumeReplay();
    }
    await untilServedByReplica();
  });

  it('reads the pages on the primary while the replica is stopped, stays ready, and uses it again once it is back', async () => {
    const since = await watermark();
    await cluster.stopReplica();
    try {
      const primaryBefore = pages('primary');
      for (let i = 0; i < 5; i++) {
        const [id] = await service.upsertVacancies([aVacancyInput({ title: `stopped-${i}` })]);
        const listed = await service.api.get(`/vacancies?limit=100&since=${encodeURIComponent(since)}`);
        expect(listed.status, listed.text.slice(0, 300)).to.equal(200);
        expect((listed.body.items as { id: string }[]).some((item) => item.id === id)).to.equal(true);
      }
      expect(pages('primary') - primaryBefore).to.equal(5);
      expect(fallbacks('unavailable') + fallbacks('error')).to.be.above(0);
      expect((await fetch(`${service.origin}/readyz`)).status).to.equal(200);
    } finally {
      await cluster.startReplica();
    }
    await untilServedByReplica();
  });
});
