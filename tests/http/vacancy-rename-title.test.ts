import { expect } from 'chai';
import { aVacancyInput } from '../support/builders.js';
import { aMinimalApplicationBody, aTenant, type Tenant } from '../support/http-fixtures.js';
import { startTestServer, type TestServer } from '../support/http-test-server.js';

/**
 * A card's `vacancyTitle` is its vacancy's title now, while its `updatedAt` is the card's own (spec 2.2): a
 * rename of the vacancy is no change of its cards, and a sync by `since` does not fetch them again. With the
 * cards' JSON rendered when they are written (ADR 18), the title is the one field joined when a page is read.
 */
/** JSON escapes some of it (a quote, a backslash); the rest goes as it is. */
const TITLE = 'Главный бухгалтер «Шёлк» "КЗ" \\ 😀';

describe('GET /candidates after a vacancy is renamed', () => {
  let server: TestServer;
  let tenant: Tenant;

  beforeEach(async () => {
    server = await startTestServer();
    tenant = await aTenant(server);
  });
  afterEach(() => server.close());

  const candidates = async (query = '') => {
    const response = await tenant.api.get(`/candidates${query}`);
    expect(response.status, response.text.slice(0, 300)).to.equal(200);
    return response.body.items as { id: string; vacancyId: string | null; vacancyTitle: string | null; updatedAt: string }[];
  };

  it('shows the new vacancyTitle on its candidates, each with the updatedAt it had, and nothing else changed', async () => {
    const input = aVacancyInput({ title: 'Бухгалтер', recruiter: 'Айдана Касымова' });
    const renamed = await tenant.addVacancy({ ...input, id: 'renamed' });
    const other = await tenant.addVacancy({ id: 'other', title: 'Юрист' });
    const applied = (await tenant.api.post('/applications', aMinimalApplicationBody(renamed.id))).body.id as string;
    const manual = (await tenant.addManualCandidate(renamed.id)).id;
    await server.seed.moveCandidate.execute({ companyId: tenant.companyId, id: manual, stage: 'INTERVIEW' });
    const elsewhere = (await tenant.api.post('/applications', aMinimalApplicationBody(other.id))).body.id as string;
    const before = await candidates();
    expect(before.map((c) => [c.id, c.vacancyTitle])).to.have.deep.members([
      [applied, 'Бухгалтер'],
      [manual, 'Бухгалтер'],
      [elsewhere, 'Юрист'],
    ]);
    const watermark = (await tenant.api.get('/candidates')).headers.get('x-sync-watermark') as string;

    server.clock.advance(60_000);
    // An upsert replaces the whole vacancy: everything as it was but the title.
    await server.seed.upsertVacancies.execute({ companyId: tenant.companyId, vacancies: [{ ...input, id: renamed.id, title: TITLE }] });
    expect((await tenant.api.get('/vacancies')).body.items.find((v: { id: string }) => v.id === renamed.id)?.title).to.equal(TITLE);

    const after = await candidates();
    const expected = before.map((c) => (c.vacancyId === renamed.id ? { ...c, vacancyTitle: TITLE } : c));
    expect(after, 'the same cards in the same order, the title alone changed').to.deep.equal(expected);
    expect(await candidates(`?vacancyId=${renamed.id}`)).to.deep.equal(expected.filter((c) => c.vacancyId === renamed.id));
    expect(await candidates(`?since=${encodeURIComponent(watermark)}`), 'no card counts as changed since').to.deep.equal([]);
  });
});
