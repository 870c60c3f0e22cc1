import { expect } from 'chai';
import { IntegrationClient, MemorySyncStateStore, MemorySyncTarget, type Candidate, type Vacancy } from '../../clients/typescript/src/index.js';
import { PAGE_TEXT } from '../../domain/paging/page-budget.js';
import type { ApiResponse } from '../support/api-client.js';
import { aMinimalApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

/** The budget of these tests' server (LIST_PAGE_MAX_BYTES): 64 KiB. */
const MAX_BYTES = 64 * 1024;
/** The body of a page of these items with nextCursor null: the shortest any page holding them can be. */
const shortestBody = (items: readonly unknown[]) =>
  PAGE_TEXT.open.length + items.reduce<number>((sum, item, n) => sum + (n === 0 ? 0 : 1) + Buffer.byteLength(JSON.stringify(item)), 0) +
  PAGE_TEXT.close.length + 'null'.length + PAGE_TEXT.end.length;

interface ReadPage {
  readonly bytes: number;
  readonly items: { id: string }[];
  readonly nextCursor: string | null;
}

describe('list pages bounded in bytes (LIST_PAGE_MAX_BYTES)', () => {
  let server: TestServer;
  let tenant: Tenant;
  let vacancyId: string;

  beforeEach(async () => {
    server = await startTestServer({ config: { listPageMaxBytes: MAX_BYTES } });
    tenant = await aTenant(server);
    vacancyId = (await tenant.addVacancy({ id: 'main', title: 'Бухгалтер' })).id;
  });
  afterEach(() => server.close());

  /** A card of about `kilobytes` KB of JSON (Cyrillic, two bytes a letter): its cover letter, then its resume's summary (80 at most). */
  const apply = async (kilobytes: number) => {
    const letters = (kb: number) => 'ж'.repeat(Math.max(0, kb) * 500);
    const body = aMinimalApplicationBody(vacancyId, { coverLetter: letters(Math.min(kilobytes, 40)), resume: { summary: letters(kilobytes - 40) } });
    const response = await tenant.api.post('/applications', body);
    expect(response.status, response.text.slice(0, 300)).to.equal(201);
    return response.body.id as string;
  };

  /** Every page of a list at `limit=500`, each held to the budget (a page of one item may pass it). */
  const pagesOf = async (path: string, query = '') => {
    const pages: ReadPage[] = [];
    let cursor: string | null = null;
    do {
      const response: ApiResponse = await tenant.api.get(`${path}?limit=500${query}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      expect(response.status, response.text.slice(0, 300)).to.equal(200);
      const bytes = Buffer.byteLength(response.text);
      if (response.body.items.length > 1) expect(bytes, 'a page of more than one item is within the budget').to.be.at.most(MAX_BYTES);
      pages.push({ bytes, items: response.body.items, nextCursor: response.body.nextCursor });
      cursor = response.body.nextCursor;
    } while (cursor !== null);
    return pages;
  };

  /** Every page but the last ended only because the next item would not have fitted, whatever its cursor. */
  const expectEachPageFull = (pages: readonly ReadPage[]) => {
    pages.slice(0, -1).forEach((page, n) => {
      const next = (pages[n + 1] as ReadPage).items[0];
      expect(shortestBody([...page.items, next]), `page ${n + 1} could not take the next item`).to.be.above(MAX_BYTES);
    });
  };

  it('GET /candidates ends a page before the card that would take its body past the budget, and its cursor goes on from there', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 10; n++) ids.push(await apply(20));
    const pages = await pagesOf('/candidates');
    expect(pages.map((p) => p.items.length)).to.deep.equal([3, 3, 3, 1]);
    expect(pages.flatMap((p) => p.items.map((c) => c.id))).to.deep.equal(ids);
    expectEachPageFull(pages);
    expect(pages.at(-1)?.nextCursor).to.equal(null);
  });

  it('sends a card larger than the budget alone on its page, and the pages before and after it go on as usual', async () => {
    const ids = [await apply(5), await apply(80), await apply(5), await apply(5)];
    const pages = await pagesOf('/candidates', `&vacancyId=${vacancyId}`);
    expect(pages.map((p) => p.items.map((c) => c.id))).to.deep.equal([[ids[0]], [ids[1]], [ids[2], ids[3]]]);
    expect(pages[1]?.bytes).to.be.above(MAX_BYTES);
    expectEachPageFull(pages);
  });

  it('GET /vacancies ends its pages by the same budget', async () => {
    const ids = [vacancyId];
    for (let n = 0; n < 5; n++) ids.push((await tenant.addVacancy({ id: `v${n}`, description: 'д'.repeat(4_000) })).id);
    const pages = await pagesOf('/vacancies', '&status=all');
    expect(pages.map((p) => p.items.length)).to.deep.equal([4, 2]);
    expect(pages.flatMap((p) => p.items.map((v) => v.id))).to.deep.equal(ids);
    expectEachPageFull(pages);
  });

  it('leaves the client and its sync unchanged: they follow the shorter pages to every record', async () => {
    const ids = new Set<string>();
    for (let n = 0; n < 6; n++) ids.add(await apply(30));
    const client = new IntegrationClient({ baseUrl: server.baseUrl, apiKey: tenant.key });
    const listed: string[] = [];
    for await (const card of client.candidates({ limit: 500 })) listed.push(card.id);
    expect(new Set(listed)).to.deep.equal(ids);
    const candidates = new MemorySyncTarget<Candidate>();
    const report = await client.sync({ state: new MemorySyncStateStore(), vacancies: new MemorySyncTarget<Vacancy>(), candidates });
    expect(report.candidates?.mode).to.equal('full');
    expect(new Set(candidates.records.keys())).to.deep.equal(ids);
  });
});
