import { idItemBytes } from '../../adapters/presenters/id-item.presenter.js';
import { expect } from 'chai';
import { presentVacancy, renderVacancy } from '../../adapters/presenters/vacancy.presenter.js';
import { toVacancyView } from '../../application/views/vacancy-view.js';
import { Board } from '../../domain/board/board.js';
import { aVacancy, at, nextId } from '../support/builders.js';
import { vacancyJsonOf } from '../support/listed-records.js';
import { withAdapters, type AdapterFactory } from './persistence-adapters.js';
import { PAST_BUDGET_BYTES } from '../../application/ports/candidate-repository.port.js';

export function vacancyRepositoryContract(factory: AdapterFactory): void {
  describe(`VacancyRepository and BoardRepository (${factory.name})`, () => {
    const adapters = withAdapters(factory);

    it('returns a stored vacancy field for field, and null for another company', async () => {
      const companyId = nextId('co');
      const vacancy = aVacancy({ companyId, input: { publishedAt: new Date('2026-10-03T04:41:12.123Z'), officeAddress: 'Алматы, Абая 52' } });
      await adapters().vacancies.insert(vacancy);
      expect((await adapters().vacancies.findById(companyId, vacancy.id))?.toSnapshot()).to.deep.equal(vacancy.toSnapshot());
      expect(await adapters().vacancies.findById(nextId('co'), vacancy.id)).to.equal(null);
    });

    it('finds an imported vacancy by its source reference within its company', async () => {
      const companyId = nextId('co');
      const vacancy = aVacancy({ companyId, input: { sourceRef: 'hh:118204771' } });
      await adapters().vacancies.insert(vacancy);
      expect((await adapters().vacancies.findBySourceRef(companyId, 'hh:118204771'))?.id).to.equal(vacancy.id);
      expect(await adapters().vacancies.findBySourceRef(nextId('co'), 'hh:118204771')).to.equal(null);
    });

    it('updates and deletes', async () => {
      const companyId = nextId('co');
      const vacancy = aVacancy({ companyId });
      await adapters().vacancies.insert(vacancy);
      vacancy.replace({ ...vacancy.toSnapshot(), status: 'closed', title: 'Новое название' }, at(1_000));
      await adapters().vacancies.update(vacancy);
      const stored = await adapters().vacancies.findById(companyId, vacancy.id);
      expect(stored?.toSnapshot().status).to.equal('closed');
      expect(stored?.updatedAt.toISOString()).to.equal(at(1_000).toISOString());
      expect(await adapters().vacancies.delete(companyId, vacancy.id)).to.equal(true);
      expect(await adapters().vacancies.delete(companyId, vacancy.id)).to.equal(false);
      expect(await adapters().vacancies.findById(companyId, vacancy.id)).to.equal(null);
    });

    it('lists in (updatedAt, id) order, after a position, since a moment, by status, up to a limit', async () => {
      const companyId = nextId('co');
      const made = [
        aVacancy({ companyId, id: 'b', now: at(10) }),
        aVacancy({ companyId, id: 'a', now: at(10) }),
        aVacancy({ companyId, id: 'c', now: at(5), input: { status: 'archived' } }),
        aVacancy({ companyId, id: 'd', now: at(20) }),
        aVacancy({ companyId: nextId('co'), id: 'e', now: at(1) }),
      ];
      for (const vacancy of made) await adapters().vacancies.insert(vacancy);
      const ids = async (query: { since?: Date | null; status?: 'all' | 'open' | 'archived'; after?: { modifiedAt: Date; id: string } | null; limit?: number }) =>
        (
          await adapters().vacancies.list({
            companyId,
            since: query.since ?? null,
            status: query.status ?? 'all',
            after: query.after ?? null,
            limit: query.limit ?? 100,
          })
        ).map((v) => v.id);
      expect(await ids({})).to.deep.equal(['c', 'a', 'b', 'd']);
      expect(await ids({ status: 'open' })).to.deep.equal(['a', 'b', 'd']);
      expect(await ids({ status: 'archived' })).to.deep.equal(['c']);
      expect(await ids({ since: at(5) })).to.deep.equal(['a', 'b', 'd']);
      expect(await ids({ after: { modifiedAt: at(10), id: 'a' } })).to.deep.equal(['b', 'd']);
      expect(await ids({ limit: 2 })).to.deep.equal(['c', 'a']);
    });

    it('lists ids only as list lists vacancies: the same order, filters and places, each measured as its item', async () => {
      const companyId = nextId('co');
      const made = [
        aVacancy({ companyId, id: 'b', now: at(10) }),
        aVacancy({ companyId, id: 'a', now: at(10) }),
        aVacancy({ companyId, id: 'c', now: at(5), input: { status: 'archived' } }),
        aVacancy({ companyId: nextId('co'), id: 'e', now: at(1) }),
      ];
      for (const vacancy of made) await adapters().vacancies.insert(vacancy);
      const queries = [{}, { status: 'open' as const }, { status: 'archived' as const }, { since: at(5) }, { after: { modifiedAt: at(5), id: 'c' } }, { limit: 1 }];
      for (const q of queries) {
        const query = { companyId, since: null, status: 'all' as const, after: null, limit: 10, ...q };
        const expected = (await adapters().vacancies.list(query)).map(({ id, updatedAt }) => ({ id, updatedAt, bytes: idItemBytes(id, updatedAt) }));
        expect(await adapters().vacancies.listIds(query), JSON.stringify(q)).to.deep.equal(expected);
      }
      expect((await adapters().vacancies.listIds({ companyId, since: null, status: 'all', after: null, limit: 10 })).map((v) => v.id)).to.deep.equal(['c', 'a', 'b']);
    });

    it('ends a list by maxBytes after the first vacancy past it, the first two always', async () => {
      const companyId = nextId('co');
      for (const [n, length] of [3_000, 100, 1_000, 2_000].entries()) {
        await adapters().vacancies.insert(aVacancy({ companyId, id: `v${n}`, now: at(n), input: { description: 'д'.repeat(length) } }));
      }
      const list = (maxBytes?: number) => adapters().vacancies.list({ companyId, since: null, status: 'all', after: null, limit: 10, ...(maxBytes === undefined ? {} : { maxBytes }) });
      const all = await list();
      for (const v of all) expect(v.bytes).to.equal(Buffer.byteLength(v.rendering));
      const through = (n: number) => all.slice(0, n + 1).reduce((sum, v) => sum + v.bytes, 0);
      const ids = async (maxBytes: number) => (await list(maxBytes)).map((v) => v.id);
      expect(await ids(1)).to.deep.equal(['v0', 'v1']);
      expect(await ids(through(1))).to.deep.equal(['v0', 'v1', 'v2']);
      expect(await ids(through(2) - 1)).to.deep.equal(['v0', 'v1', 'v2']);
      expect(await ids(through(2))).to.deep.equal(['v0', 'v1', 'v2', 'v3']);
      // The last vacancy, past the budget, only says that more exist: its rendering is not read.
      expect(await list(through(1))).to.deep.equal([...all.slice(0, 2), { ...all[2], rendering: '', bytes: PAST_BUDGET_BYTES }]);
      expect(await list(through(3))).to.deep.equal(all);
    });

    it('orders ids by code unit, like a "C" collation', async () => {
      const companyId = nextId('co');
      for (const id of ['a', 'B', 'Z', '_', '1']) await adapters().vacancies.insert(aVacancy({ companyId, id, now: at(0) }));
      const rows = await adapters().vacancies.list({ companyId, since: null, status: 'all', after: null, limit: 10 });
      expect(rows.map((v) => v.id)).to.deep.equal(['1', 'B', 'Z', '_', 'a']);
    });

    it('returns list rows with every public field and no internal one', async () => {
      const companyId = nextId('co');
      const vacancy = aVacancy({ companyId, input: { recruiter: 'Рекрутер', sourceRef: 'hh:1' } });
      await adapters().vacancies.insert(vacancy);
      const [row] = await adapters().vacancies.list({ companyId, since: null, status: 'all', after: null, limit: 1 });
      const { companyId: _c, recruiter: _r, sourceRef: _s, ...expected } = vacancy.toSnapshot();
      const rendering = renderVacancy(expected);
      expect(row).to.deep.equal({ id: vacancy.id, updatedAt: vacancy.updatedAt, rendering, bytes: Buffer.byteLength(rendering) });
      expect(vacancyJsonOf(row!)).to.deep.equal(JSON.parse(JSON.stringify(presentVacancy(expected))));
      expect(Object.keys(vacancyJsonOf(row!))).to.have.members(Object.keys(expected)).and.not.include.members(['companyId', 'recruiter', 'sourceRef']);
      expect(row?.rendering).to.not.include('Рекрутер').and.not.include('hh:1');
    });

    it('lists every vacancy as the presenters render it now, after an insert and an update', async () => {
      const companyId = nextId('co');
      const awkward = ['"quoted"', 'back\\slash', 'Алматы', '😀', '\u0007', ''];
      const kept = aVacancy({ companyId, id: 'kept', now: at(1), input: { skills: awkward, city: null, salaryFrom: 0.1, salaryTo: 1e21 } });
      const changed = aVacancy({ companyId, id: 'changed', now: at(2), input: { publishedAt: new Date('0001-01-01T00:00:00.000Z') } });
      for (const vacancy of [kept, changed]) await adapters().vacancies.insert(vacancy);
      changed.replace({ ...changed.toSnapshot(), title: 'Новое "название" \\', status: 'paused', workSchedule: awkward }, at(3));
      await adapters().vacancies.update(changed);
      const rows = await adapters().vacancies.list({ companyId, since: null, status: 'all', after: null, limit: 10 });
      expect(rows.map((v) => v.rendering)).to.deep.equal([kept, changed].map((v) => JSON.stringify(presentVacancy(toVacancyView(v)))));
      expect(rows.map((v) => v.updatedAt.toISOString())).to.deep.equal([at(1).toISOString(), at(3).toISOString()]);
    });

    it('saves, replaces and deletes a board', async () => {
      const companyId = nextId('co');
      const board = Board.create(companyId, 'v1');
      await adapters().boards.save(board);
      board.setColumns(['Новые', 'Интервью'], []);
      await adapters().boards.save(board);
      expect((await adapters().boards.find(companyId, 'v1'))?.columns).to.deep.equal(['Новые', 'Интервью']);
      expect(await adapters().boards.find(nextId('co'), 'v1')).to.equal(null);
      await adapters().boards.delete(companyId, 'v1');
      expect(await adapters().boards.find(companyId, 'v1')).to.equal(null);
    });
  });
}
