import { expect } from 'chai';
import { InvalidCursorError } from '../../../domain/paging/cursor.js';
import { aResume, aVacancyInput, T0 } from '../../support/builders.js';
import { rejectionOf } from '../../support/catching.js';
import { withWorld } from '../../support/use-case-world.js';

describe('ListCandidates (GET /candidates)', () => {
  const world = withWorld();

  async function companyWithCandidates(count: number): Promise<{ companyId: string; vacancyId: string; ids: string[] }> {
    const companyId = await world().company();
    const vacancyId = (await world().vacancy(companyId)).id;
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      world().clock.advance(1);
      ids.push((await world().apply(companyId, { vacancyId })).id);
    }
    return { companyId, vacancyId, ids };
  }

  async function collect(companyId: string, start: string | null, limit: number): Promise<string[]> {
    const out: string[] = [];
    let cursor = start;
    while (cursor !== null) {
      const { page } = await world().use('listCandidates').execute({ companyId, since: null, vacancyId: null, limit, cursor });
      out.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor;
    }
    return out;
  }

  it('pages through every candidate once, in modification order, with nextCursor null exactly on the last page', async () => {
    const { companyId, ids } = await companyWithCandidates(5);
    const first = await world().use('listCandidates').execute({ companyId, since: null, vacancyId: null, limit: 2, cursor: null });
    expect(first.page.items).to.have.length(2);
    expect([...first.page.items.map((c) => c.id), ...(await collect(companyId, first.page.nextCursor, 2))]).to.deep.equal(ids);
    const whole = await world().use('listCandidates').execute({ companyId, since: null, vacancyId: null, limit: 5, cursor: null });
    expect(whole.page.nextCursor).to.equal(null);
  });

  it('neither repeats nor skips when applications arrive between pages; the new ones come last', async () => {
    const { companyId, vacancyId, ids } = await companyWithCandidates(4);
    const first = await world().use('listCandidates').execute({ companyId, since: null, vacancyId: null, limit: 3, cursor: null });
    const late = (await world().apply(companyId, { vacancyId })).id;
    expect([...first.page.items.map((c) => c.id), ...(await collect(companyId, first.page.nextCursor, 3))]).to.deep.equal([...ids, late]);
  });

  it('neither repeats nor skips candidates that share one modification millisecond', async () => {
    const companyId = await world().company();
    const vacancyId = (await world().vacancy(companyId)).id;
    const added = await world().use('addCandidates').execute({
      companyId,
      candidates: Array.from({ length: 7 }, (_, i) => ({ vacancyId, candidate: { name: `Кандидат ${i}`, email: null, phone: null, location: null, birthDate: null, gender: null, citizenship: [] }, resume: aResume(), referral: null })),
    });
    const seen = await world().allCandidates(companyId, { limit: 3 });
    expect(seen).to.have.length(7);
    expect(seen.map((c) => c.id)).to.have.members(added.map((c) => c.id));
  });

  it('filters by vacancy and keeps to the calling company', async () => {
    const { companyId, vacancyId, ids } = await companyWithCandidates(2);
    const otherVacancy = (await world().vacancy(companyId)).id;
    await world().apply(companyId, { vacancyId: otherVacancy });
    await companyWithCandidates(2);
    expect((await world().allCandidates(companyId, { vacancyId })).map((c) => c.id)).to.deep.equal(ids);
    expect(await world().allCandidates(companyId)).to.have.length(3);
  });

  it('matches since by the later of the card\'s and the resume\'s modification times', async () => {
    const { companyId, ids } = await companyWithCandidates(3);
    const cut = world().clock.advance(1000);
    world().clock.advance(1000);
    await world().use('updateResume').execute({ companyId, id: ids[0] as string, resume: aResume({ summary: 'Новое' }) });
    world().clock.advance(1000);
    await world().use('moveCandidate').execute({ companyId, id: ids[2] as string, stage: 'INTERVIEW' });
    expect((await world().allCandidates(companyId, { since: cut })).map((c) => c.id)).to.deep.equal([ids[0], ids[2]]);
  });

  it('shows the vacancy title at read time, and a rename alone does not make candidates match since', async () => {
    const { companyId, vacancyId, ids } = await companyWithCandidates(1);
    const cut = world().clock.advance(1000);
    world().clock.advance(1000);
    await world().use('upsertVacancies').execute({ companyId, vacancies: [{ ...aVacancyInput({ title: 'Новое название' }), id: vacancyId }] });
    expect(await world().allCandidates(companyId, { since: cut })).to.deep.equal([]);
    const [card] = await world().allCandidates(companyId);
    expect(card).to.deep.include({ id: ids[0], vacancyTitle: 'Новое название' });
  });

  it('refuses a cursor used with another vacancyId, since or company, with InvalidCursorError', async () => {
    const { companyId, vacancyId } = await companyWithCandidates(3);
    const other = await world().company();
    const { page } = await world().use('listCandidates').execute({ companyId, since: null, vacancyId: null, limit: 1, cursor: null });
    const list = (query: { companyId?: string; since?: Date | null; vacancyId?: string | null; limit?: number }) =>
      world().use('listCandidates').execute({
        companyId: query.companyId ?? companyId, since: query.since ?? null, vacancyId: query.vacancyId ?? null, limit: query.limit ?? 1, cursor: page.nextCursor,
      });
    expect(await rejectionOf(list({ vacancyId }))).to.be.instanceOf(InvalidCursorError);
    expect(await rejectionOf(list({ since: T0 }))).to.be.instanceOf(InvalidCursorError);
    expect(await rejectionOf(list({ companyId: other }))).to.be.instanceOf(InvalidCursorError);
    expect((await list({ limit: 50 })).page.items).to.have.length(2);
  });

  it('gives as watermark the clock read under the lock, less one millisecond', async () => {
    const companyId = await world().company();
    const now = world().clock.advance(777);
    const { watermark } = await world().use('listCandidates').execute({ companyId, since: null, vacancyId: null, limit: 10, cursor: null });
    expect(watermark.getTime()).to.equal(now.getTime() - 1);
  });

  it('makes a change written after a read, even in the same millisecond, match the read\'s watermark', async () => {
    const { companyId, vacancyId } = await companyWithCandidates(1);
    const { watermark } = await world().use('listCandidates').execute({ companyId, since: null, vacancyId: null, limit: 10, cursor: null });
    const { id } = await world().apply(companyId, { vacancyId });
    expect((await world().allCandidates(companyId, { since: watermark })).map((c) => c.id)).to.include(id);
  });
});
