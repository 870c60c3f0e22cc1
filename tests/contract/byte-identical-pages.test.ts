import { expect } from 'chai';
import { presentCandidate } from '../../adapters/presenters/candidate.presenter.js';
import { presentVacancy } from '../../adapters/presenters/vacancy.presenter.js';
import type { CandidateView, ListedCandidate } from '../../application/ports/candidate-repository.port.js';
import type { Clock } from '../../application/ports/clock.port.js';
import type { ListedVacancy, VacancyView } from '../../application/ports/vacancy-repository.port.js';
import { toCandidateView } from '../../application/views/candidate-view.js';
import { toVacancyView } from '../../application/views/vacancy-view.js';
import { VACANCY_STATUS_FILTERS, VACANCY_STATUSES } from '../../domain/vacancy/vacancy-status.js';
import { ManualClock } from '../support/manual-clock.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { SequentialIds } from '../support/sequential-ids.js';
import { startServiceOnAdapters, type ServiceOnAdapters, type WireResponse } from '../support/service-on-adapters.js';
import { inMemoryAdapters } from './in-memory-adapters.js';
import { writeListPageData, type ListPageData } from './list-page-data.js';
import type { PersistenceAdapters } from './persistence-adapters.js';

/** One side of the comparison: the service on a store, the data it was given, and the store's adapters. */
interface Side {
  readonly service: ServiceOnAdapters;
  readonly data: ListPageData;
  readonly adapters: PersistenceAdapters;
}

/** Where two bodies part, with the text around it on each side, escaped so that every byte shows. */
function expectSameBytes(what: string, [aName, a]: [string, Buffer], [bName, b]: [string, Buffer]): void {
  if (a.equals(b)) return;
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  const around = (body: Buffer) => JSON.stringify(body.subarray(Math.max(0, at - 80), at + 80).toString('utf8'));
  expect.fail(
    `${what}: the bodies part at byte ${at} (${aName} ${a.length} bytes, ${bName} ${b.length})\n` +
      `  ${aName}: ${around(a)}\n  ${bName}: ${around(b)}`,
  );
}

/**
 * The contract suite's rule for what the API writes (issue 13): the same data on the in-memory adapters and on
 * PostgreSQL gives the same list pages, byte for byte, cursors included, so that no faster way of making a page
 * (pre-rendered records, a streamed body, one statement per read) can drift from the presenters on one store.
 * The pages are read from the real Koa app on each store, with no compression; each page is also held against
 * what the presenters and JSON.stringify make of the stored records on the in-memory list use case's page.
 */
describe('list pages of the in-memory and the PostgreSQL adapters, byte for byte', () => {
  const database = usePostgresTestDatabase();
  const services: ServiceOnAdapters[] = [];
  let memory: Side;
  let postgres: Side;

  /** The service on the adapters `makeAdapters` gives, its data written with the same clock readings and ids as the other's. */
  async function sideOn(makeAdapters: (clock: Clock) => PersistenceAdapters): Promise<Side> {
    const clock = new ManualClock();
    const adapters = makeAdapters(clock);
    const service = await startServiceOnAdapters(adapters, { clock, ids: new SequentialIds() });
    services.push(service);
    return { service, data: await writeListPageData(service, clock), adapters };
  }

  /**
   * The presenters' input for a listed record, made from the stored record (and a card's vacancy as stored
   * now), not from what the list rendered: the list's page gives the order and the cursors, the presenters
   * the bytes.
   */
  async function storedVacancy(listed: ListedVacancy): Promise<VacancyView> {
    const vacancy = await memory.adapters.vacancies.findById(memory.data.companyId, listed.id);
    if (vacancy === null) throw new Error(`listed vacancy ${listed.id} is not stored`);
    return toVacancyView(vacancy);
  }

  async function storedCandidate(listed: ListedCandidate): Promise<CandidateView> {
    const { companyId } = memory.data;
    const card = await memory.adapters.candidates.findById(companyId, listed.id);
    if (card === null) throw new Error(`listed card ${listed.id} is not stored`);
    const vacancy = card.vacancyId === null ? null : await memory.adapters.vacancies.findById(companyId, card.vacancyId);
    return toCandidateView(card, vacancy?.title ?? null);
  }

  const stored = <L, V>(items: readonly L[], view: (listed: L) => Promise<V>) => Promise.all(items.map(view));

  before(async function () {
    this.timeout(60_000);
    memory = await sideOn(inMemoryAdapters);
    postgres = await sideOn((clock) => database().adapters({ clock }));
  });

  after(async () => {
    for (const service of services) await service.close();
  });

  /**
   * Follows nextCursor from the first page to the last on both stores, comparing each page's bytes and the
   * headers that come with it; `presented` gives the presenters' rendering of the same page. Returns the items.
   */
  async function walk(query: string, presented: (cursor: string | null) => Promise<string>): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    for (let page = 1; ; page++) {
      const path = cursor === null ? query : `${query}&cursor=${encodeURIComponent(cursor)}`;
      const fromMemory: WireResponse = await memory.service.get(path, memory.data.key);
      const fromPostgres: WireResponse = await postgres.service.get(path, postgres.data.key);
      const what = `GET ${query}, page ${page}`;
      expect(fromMemory.status, `${what} on the in-memory adapters`).to.equal(200);
      expect(fromPostgres.status, `${what} on PostgreSQL`).to.equal(200);
      expectSameBytes(what, ['in-memory', fromMemory.body], ['PostgreSQL', fromPostgres.body]);
      expect(fromPostgres.headers['content-type'], what).to.equal(fromMemory.headers['content-type']);
      expect(fromPostgres.headers['x-sync-watermark'], what).to.equal(fromMemory.headers['x-sync-watermark']);
      expectSameBytes(what, ['the presenters', Buffer.from(await presented(cursor), 'utf8')], ['the in-memory adapters', fromMemory.body]);
      const body = JSON.parse(fromMemory.body.toString('utf8')) as { items: Record<string, unknown>[]; nextCursor: string | null };
      items.push(...body.items);
      cursor = body.nextCursor;
      if (cursor === null) return items;
      expect(page, `${what}: the walk never ends`).to.be.below(500);
    }
  }

  it('gives every vacancy in the same bytes, for each status filter, page size and since', async function () {
    this.timeout(60_000);
    const { companyId } = memory.data;
    const list = memory.service.use('listVacancies');
    const queries: { status: (typeof VACANCY_STATUS_FILTERS)[number]; limit: number; since: Date | null }[] = [
      ...VACANCY_STATUS_FILTERS.flatMap((status) => [1, 2, 7, 500].map((limit) => ({ status, limit, since: null }))),
      ...memory.data.sinces.map((since) => ({ status: 'all' as const, limit: 3, since })),
    ];
    for (const { status, limit, since } of queries) {
      const query = `/vacancies?status=${status}&limit=${limit}${since === null ? '' : `&since=${since.toISOString()}`}`;
      const items = await walk(query, async (cursor) => {
        const { page } = await list.execute({ companyId, status, limit, since, cursor });
        return JSON.stringify({ items: (await stored(page.items, storedVacancy)).map(presentVacancy), nextCursor: page.nextCursor });
      });
      if (status === 'all' && since === null) expect(items, query).to.have.length(memory.data.vacancies);
    }
  });

  it('gives every listed card in the same bytes, with and without vacancyId and since, at several page sizes', async function () {
    this.timeout(60_000);
    const { companyId } = memory.data;
    const list = memory.service.use('listCandidates');
    const queries: { vacancyId: string | null; limit: number; since: Date | null }[] = [
      ...[1, 2, 5, 500].map((limit) => ({ vacancyId: null, limit, since: null })),
      ...memory.data.sinces.map((since) => ({ vacancyId: null, limit: 4, since })),
      ...memory.data.candidateFilters.flatMap((vacancyId) => [1, 500].map((limit) => ({ vacancyId, limit, since: null }))),
      ...memory.data.candidateFilters.map((vacancyId) => ({ vacancyId, limit: 2, since: memory.data.sinces[3] as Date })),
    ];
    for (const { vacancyId, limit, since } of queries) {
      const filters = `${vacancyId === null ? '' : `&vacancyId=${encodeURIComponent(vacancyId)}`}${since === null ? '' : `&since=${since.toISOString()}`}`;
      const query = `/candidates?limit=${limit}${filters}`;
      const items = await walk(query, async (cursor) => {
        const { page } = await list.execute({ companyId, vacancyId, limit, since, cursor });
        return JSON.stringify({ items: (await stored(page.items, storedCandidate)).map(presentCandidate), nextCursor: page.nextCursor });
      });
      if (vacancyId === null && since === null) expect(items, query).to.have.length(memory.data.listedCards);
    }
  });

  it('holds the records it claims to: both stores made the same ids, and the pages show every origin and every kind of field', async () => {
    expect(postgres.data.companyId).to.equal(memory.data.companyId);
    const { page } = await memory.service.use('listCandidates').execute({ companyId: memory.data.companyId, vacancyId: null, limit: 500, since: null, cursor: null });
    const cards = (await stored(page.items, storedCandidate)).map(presentCandidate);
    expect(new Set(cards.map((c) => c.source))).to.deep.equal(new Set(['manual', 'api', 'career-portal', 'hh', 'batch']));
    expect(cards.some((c) => c.vacancyId === null && c.stage === null && c.vacancyTitle === null), 'a card of a deleted vacancy').to.equal(true);
    expect(cards.some((c) => c.vacancyTitle === 'Переименована ✏️'), 'a card of a renamed vacancy').to.equal(true);
    expect(cards.some((c) => c.stage === 'Offer ✅'), 'a card on a custom column').to.equal(true);
    expect(cards.some((c) => c.referral !== null) && cards.some((c) => c.referral === null), 'with and without a referral').to.equal(true);
    expect(cards.some((c) => c.resume.experience.some((item) => item.company === '')), 'an item with a text left out').to.equal(true);
    expect(new Set(cards.map((c) => c.updatedAt)).size, 'cards sharing an instant').to.be.below(cards.length);
    const listed = await memory.service.use('listVacancies').execute({ companyId: memory.data.companyId, status: 'all', limit: 500, since: null, cursor: null });
    const vacancies = (await stored(listed.page.items, storedVacancy)).map(presentVacancy);
    for (const status of VACANCY_STATUSES) {
      expect(vacancies.some((v) => v.status === status && v.city !== null && v.salaryTo !== null && v.publishedAt !== null), `a full ${status} vacancy`).to.equal(true);
      expect(vacancies.some((v) => v.status === status && v.city === null && v.skills.length === 0), `a bare ${status} vacancy`).to.equal(true);
    }
  });
});
