import { expect } from 'chai';
import { IntegrationClient, MemorySyncStateStore, MemorySyncTarget, type Candidate, type Vacancy } from '../../clients/typescript/src/index.js';
import { aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

interface Seen {
  readonly url: URL;
  readonly status: number;
  readonly conditional: boolean;
  readonly rateLimit: string | null;
}

describe('IntegrationClient: polling and finding deletions cheaply', () => {
  let server: TestServer;
  let tenant: Tenant;
  let seen: Seen[];
  let client: IntegrationClient;

  beforeEach(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
    seen = [];
    client = new IntegrationClient({
      baseUrl: server.baseUrl,
      apiKey: tenant.key,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        const conditional = new Headers(init?.headers).has('if-none-match');
        seen.push({ url: new URL(String(input)), status: response.status, conditional, rateLimit: response.headers.get('ratelimit') });
        return response;
      },
    });
  });
  afterEach(() => server.close());

  it('answers an unchanged page NotModified, with a fresh watermark, and a changed one in full', async () => {
    const vacancy = await tenant.addVacancy();
    const page = await client.listVacancies({ status: 'all' });
    expect(page.etag).to.be.a('string');
    const same = await client.listVacanciesIfChanged({ status: 'all' }, page.etag as string);
    expect(same).to.include({ notModified: true, etag: page.etag });
    expect(same.watermark >= page.watermark).to.equal(true);
    await tenant.addManualCandidate(vacancy.id);
    const cards = await client.listCandidates();
    await tenant.addManualCandidate(vacancy.id, 'Другой Кандидат');
    const changed = await client.listCandidatesIfChanged({}, cards.etag as string);
    expect(changed.notModified).to.not.equal(true);
    expect(changed.notModified === true ? [] : changed.items.map((c) => c.candidate.name)).to.have.length(2);
  });

  it('lists identifiers only, page after page, as the records pass lists them', async () => {
    const vacancy = await tenant.addVacancy();
    for (let i = 0; i < 5; i++) await tenant.addManualCandidate(vacancy.id, `Кандидат ${i}`);
    const ids = [];
    for await (const item of client.candidateIds({ limit: 2 })) ids.push(item);
    const records = [];
    for await (const card of client.candidates({ limit: 2 })) records.push({ id: card.id, updatedAt: card.updatedAt });
    expect(ids).to.deep.equal(records);
    expect(seen.filter((s) => s.url.searchParams.get('fields') === 'id')).to.have.length(3);
  });

  it('costs one 304 per list for a run with nothing new, spending no request of the budget', async () => {
    const state = new MemorySyncStateStore();
    const [vacancies, candidates] = [new MemorySyncTarget<Vacancy>(), new MemorySyncTarget<Candidate>()];
    const vacancy = await tenant.addVacancy();
    await tenant.addManualCandidate(vacancy.id);
    const run = () => client.sync({ state, vacancies, candidates, fullPassEvery: 1000 });
    await run();
    // Incremental runs until one reads the empty pages whose tags the next one holds: a run may first see again a
    // record stamped in its watermark's last millisecond (ADR 2), and that page is not the empty one.
    for (let attempt = 0; attempt < 5; attempt++) {
      const caughtUp = await run();
      if (caughtUp.vacancies?.received === 0 && caughtUp.candidates?.received === 0) break;
    }
    seen = [];
    const quiet = await run();
    // The two lists' first pages go out together, in either order.
    expect(seen.map((s) => [s.url.pathname.split('/').pop(), s.status, s.conditional])).to.have.deep.members([
      ['vacancies', 304, true],
      ['candidates', 304, true],
    ]);
    expect(seen).to.have.length(2);
    expect(quiet.vacancies).to.include({ mode: 'incremental', notModified: true, received: 0 });
    // The watermark of this read: never behind (a read within the barrier's reuse window may share its clock).
    expect(quiet.candidates!.nextSince >= quiet.candidates!.since!).to.equal(true);
    const defaultRemaining = (s: Seen) => /"default";r=(\d+)/.exec(s.rateLimit ?? '')?.[1];
    const before = await client.listVacancies({ limit: 1 });
    expect(seen.slice(0, 2).map(defaultRemaining), 'no point spent by the 304s').to.deep.equal([String(before.rateLimit!.remaining + 1), String(before.rateLimit!.remaining + 1)]);

    // Something new: the next run reads it in full, then is quiet again.
    const added = await tenant.addManualCandidate(vacancy.id, 'Новый Кандидат');
    const changed = await run();
    expect(changed.candidates).to.include({ notModified: false, received: 1 });
    expect(candidates.records.has(added.id)).to.equal(true);
  });

  it('finds deletions with a pass that reads identifiers only, and removes them', async () => {
    const state = new MemorySyncStateStore();
    const [vacancies, candidates] = [new MemorySyncTarget<Vacancy>(), new MemorySyncTarget<Candidate>()];
    const vacancy = await tenant.addVacancy();
    const gone = await tenant.addManualCandidate(vacancy.id, 'Уволенный Кандидат');
    const kept = await tenant.addManualCandidate(vacancy.id, 'Оставшийся Кандидат');
    await client.sync({ state, vacancies, candidates, fullPassEvery: 1 });
    await server.seed.deleteCandidate.execute({ companyId: tenant.companyId, id: gone.id });
    seen = [];
    const report = await client.sync({ state, vacancies, candidates, fullPassEvery: 1 });
    expect(report.candidates).to.deep.include({ mode: 'incremental', deletionPass: { pages: 1, ids: 1 }, deleted: [gone.id] });
    expect([...candidates.records.keys()]).to.deep.equal([kept.id]);
    const passes = seen.filter((s) => s.url.searchParams.get('since') === null);
    expect(passes.map((s) => s.url.searchParams.get('fields')), 'every request without since reads ids only').to.deep.equal(['id', 'id']);
  });
});
