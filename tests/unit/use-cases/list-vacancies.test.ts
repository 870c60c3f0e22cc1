import { expect } from 'chai';
import { InvalidCursorError } from '../../../domain/paging/cursor.js';
import { aVacancyInput, T0 } from '../../support/builders.js';
import { rejectionOf } from '../../support/catching.js';
import { vacancyJsonOf } from '../../support/listed-records.js';
import { withWorld } from '../../support/use-case-world.js';

describe('ListVacancies (GET /vacancies)', () => {
  const world = withWorld();

  async function companyWithVacancies(count: number, stepMs = 1): Promise<{ companyId: string; ids: string[] }> {
    const companyId = await world().company();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      ids.push((await world().vacancy(companyId, { title: `Вакансия ${i}` })).id);
      world().clock.advance(stepMs);
    }
    return { companyId, ids };
  }

  async function collect(companyId: string, start: string | null, limit: number, status: 'all' | 'open' = 'all', since: Date | null = null): Promise<string[]> {
    const out: string[] = [];
    let cursor = start;
    while (cursor !== null) {
      const { page } = await world().use('listVacancies').execute({ companyId, since, status, limit, cursor });
      out.push(...page.items.map((v) => v.id));
      cursor = page.nextCursor;
    }
    return out;
  }

  it('returns only the requested status, and every status with all', async () => {
    const companyId = await world().company();
    const byStatus: Record<string, string> = {};
    for (const status of ['open', 'paused', 'closed', 'archived', 'draft'] as const) {
      byStatus[status] = (await world().vacancy(companyId, { status })).id;
    }
    const list = (status: 'open' | 'archived' | 'all') =>
      world().use('listVacancies').execute({ companyId, since: null, status, limit: 100, cursor: null });
    expect((await list('open')).page.items.map((v) => v.id)).to.deep.equal([byStatus.open]);
    expect((await list('archived')).page.items.map((v) => [v.id, vacancyJsonOf(v).status])).to.deep.equal([[byStatus.archived, 'archived']]);
    expect((await list('all')).page.items).to.have.length(5);
  });

  it('returns only the calling company\'s vacancies', async () => {
    const { companyId, ids } = await companyWithVacancies(2);
    await companyWithVacancies(3);
    expect((await world().allVacancies(companyId)).map((v) => v.id)).to.deep.equal(ids);
  });

  it('pages through every vacancy once, in modification order, with nextCursor null exactly on the last page', async () => {
    const { companyId, ids } = await companyWithVacancies(7);
    const pages: { ids: string[]; nextCursor: string | null }[] = [];
    let cursor: string | null = null;
    do {
      const { page } = await world().use('listVacancies').execute({ companyId, since: null, status: 'all', limit: 3, cursor });
      pages.push({ ids: page.items.map((v) => v.id), nextCursor: page.nextCursor });
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(pages.map((p) => p.ids.length)).to.deep.equal([3, 3, 1]);
    expect(pages.map((p) => p.nextCursor === null)).to.deep.equal([false, false, true]);
    expect(pages.flatMap((p) => p.ids)).to.deep.equal(ids);
  });

  it('gives a null nextCursor when the last page is exactly full', async () => {
    const { companyId } = await companyWithVacancies(4);
    const first = await world().use('listVacancies').execute({ companyId, since: null, status: 'all', limit: 2, cursor: null });
    const second = await world().use('listVacancies').execute({ companyId, since: null, status: 'all', limit: 2, cursor: first.page.nextCursor });
    expect(second.page.items).to.have.length(2);
    expect(second.page.nextCursor).to.equal(null);
  });

  it('neither repeats nor skips vacancies that share one modification millisecond', async () => {
    const companyId = await world().company();
    const created = await world().use('upsertVacancies').execute({ companyId, vacancies: Array.from({ length: 9 }, () => aVacancyInput()) });
    const seen = await world().allVacancies(companyId, { limit: 2 });
    expect(new Set(created.map((v) => v.updatedAt.getTime())).size).to.equal(1);
    expect(seen.map((v) => v.id)).to.have.members(created.map((v) => v.id));
    expect(seen).to.have.length(9);
  });

  it('neither repeats nor skips when vacancies are added between pages; the new ones come last', async () => {
    const { companyId, ids } = await companyWithVacancies(5);
    const first = await world().use('listVacancies').execute({ companyId, since: null, status: 'all', limit: 2, cursor: null });
    const added = [(await world().vacancy(companyId)).id, (await world().vacancy(companyId)).id];
    const rest = await collect(companyId, first.page.nextCursor, 2);
    expect([...first.page.items.map((v) => v.id), ...rest]).to.deep.equal([...ids, ...added]);
  });

  it('lets the page size change from page to page', async () => {
    const { companyId, ids } = await companyWithVacancies(6);
    const first = await world().use('listVacancies').execute({ companyId, since: null, status: 'all', limit: 1, cursor: null });
    expect([first.page.items[0]?.id, ...(await collect(companyId, first.page.nextCursor, 4))]).to.deep.equal(ids);
  });

  it('returns only vacancies modified strictly later than since, including a change of status or salary', async () => {
    const { companyId, ids } = await companyWithVacancies(3, 1000);
    const changeAt = world().clock.advance(5000);
    await world().use('upsertVacancies').execute({ companyId, vacancies: [{ ...aVacancyInput({ title: 'Вакансия 0', salaryTo: 1_000_000 }), id: ids[0] }] });
    const since = (at: Date) => world().allVacancies(companyId, { since: at });
    expect((await since(new Date(changeAt.getTime() - 1))).map((v) => v.id)).to.deep.equal([ids[0]]);
    expect(await since(changeAt)).to.deep.equal([]);
    expect((await since(new Date(T0.getTime() + 999))).map((v) => v.id)).to.deep.equal([ids[1], ids[2], ids[0]]);
  });

  it('refuses a cursor used with another status, since or company, with InvalidCursorError', async () => {
    const { companyId } = await companyWithVacancies(3);
    const other = await world().company();
    const { page } = await world().use('listVacancies').execute({ companyId, since: null, status: 'open', limit: 1, cursor: null });
    const cursor = page.nextCursor;
    expect(cursor).to.be.a('string');
    const list = (query: { companyId?: string; since?: Date | null; status?: 'open' | 'all' }) =>
      world().use('listVacancies').execute({ companyId: query.companyId ?? companyId, since: query.since ?? null, status: query.status ?? 'open', limit: 1, cursor });
    expect(await rejectionOf(list({ status: 'all' }))).to.be.instanceOf(InvalidCursorError);
    expect(await rejectionOf(list({ since: T0 }))).to.be.instanceOf(InvalidCursorError);
    expect(await rejectionOf(list({ companyId: other }))).to.be.instanceOf(InvalidCursorError);
    expect((await list({})).page.items).to.have.length(1);
  });

  it('refuses a malformed cursor with InvalidCursorError', async () => {
    const companyId = await world().company();
    const error = await rejectionOf(world().use('listVacancies').execute({ companyId, since: null, status: 'open', limit: 1, cursor: 'not-a-cursor' }));
    expect(error).to.be.instanceOf(InvalidCursorError);
  });

  it('gives as watermark the clock read under the lock, less one millisecond', async () => {
    const companyId = await world().company();
    const now = world().clock.advance(12_345);
    const { watermark } = await world().use('listVacancies').execute({ companyId, since: null, status: 'open', limit: 1, cursor: null });
    expect(watermark.toISOString()).to.equal(new Date(now.getTime() - 1).toISOString());
  });

  it('lists the public fields of a vacancy only', async () => {
    const companyId = await world().company();
    await world().vacancy(companyId, { recruiter: 'Айдана', sourceRef: 'hh:1' });
    const [vacancy] = await world().allVacancies(companyId);
    expect(vacancy).to.not.have.any.keys('companyId', 'recruiter', 'sourceRef');
    expect(vacancy).to.include.keys('id', 'title', 'status', 'workFormat', 'workFormats', 'responsibilities', 'createdAt', 'updatedAt');
  });
});
