import { expect } from 'chai';
import { presentCandidate, spliceCandidate } from '../../adapters/presenters/candidate.presenter.js';
import { idItemBytes } from '../../adapters/presenters/id-item.presenter.js';
import { PAST_BUDGET_BYTES } from '../../application/ports/candidate-repository.port.js';
import { toCandidateView } from '../../application/views/candidate-view.js';
import { CandidateCard } from '../../domain/candidate/candidate-card.js';
import { aManualCard, anApplicationCard, aPerson, aResume, aVacancy, at, nextId } from '../support/builders.js';
import { candidateJsonOf } from '../support/listed-records.js';
import { withAdapters, type AdapterFactory } from './persistence-adapters.js';

export function candidateRepositoryContract(factory: AdapterFactory): void {
  describe(`CandidateRepository (${factory.name})`, () => {
    const adapters = withAdapters(factory);

    async function aCompanyWithVacancy(title = 'Водитель-экспедитор') {
      const companyId = nextId('co');
      const vacancy = aVacancy({ companyId, input: { title } });
      await adapters().vacancies.insert(vacancy);
      return { companyId, vacancyId: vacancy.id };
    }

    it('returns a stored card field for field, and null for another company', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const card = anApplicationCard({ companyId, vacancyId, externalId: 'portal-1' });
      await adapters().candidates.insert(card);
      expect((await adapters().candidates.findById(companyId, card.id))?.toSnapshot()).to.deep.equal(card.toSnapshot());
      expect((await adapters().candidates.findByExternalId(companyId, 'portal-1'))?.id).to.equal(card.id);
      expect(await adapters().candidates.findById(nextId('co'), card.id)).to.equal(null);
      expect(await adapters().candidates.findByExternalId(nextId('co'), 'portal-1')).to.equal(null);
    });

    it('inserts an application once per externalId and company, and hands back the earlier one', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const first = anApplicationCard({ companyId, vacancyId, externalId: 'same', requestFingerprint: 'fp-first' });
      const second = anApplicationCard({ companyId, vacancyId, externalId: 'same', requestFingerprint: 'fp-second' });
      expect(await adapters().candidates.insertApplications([first])).to.deep.equal([null]);
      expect(await adapters().candidates.insertApplications([second])).to.deep.equal([{ externalId: 'same', id: first.id, requestFingerprint: 'fp-first' }]);
      const other = await aCompanyWithVacancy();
      expect(await adapters().candidates.insertApplications([anApplicationCard({ ...other, externalId: 'same' })])).to.deep.equal([null]);
      const listed = await adapters().candidates.list({ companyId, since: null, vacancyId: null, after: null, limit: 10 });
      expect(listed.map((c) => c.id)).to.deep.equal([first.id]);
    });

    it('inserts a batch of applications, answering each with null or the earlier application of its externalId', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const stored = anApplicationCard({ companyId, vacancyId, externalId: 'stored', requestFingerprint: 'fp-stored' });
      await adapters().candidates.insertApplications([stored]);
      const batch = [
        anApplicationCard({ companyId, vacancyId, externalId: 'new-1', requestFingerprint: 'fp-new-1' }),
        anApplicationCard({ companyId, vacancyId, externalId: 'stored', requestFingerprint: 'fp-other' }),
        anApplicationCard({ companyId, vacancyId, externalId: 'new-2' }),
        anApplicationCard({ companyId, vacancyId, externalId: 'new-1', requestFingerprint: 'fp-later' }),
        anApplicationCard({ companyId, vacancyId, externalId: "o'; drop table candidates; --\\\"{}" }),
      ];
      const results = await adapters().candidates.insertApplications(batch);
      expect(results).to.deep.equal([
        null,
        { externalId: 'stored', id: stored.id, requestFingerprint: 'fp-stored' },
        null,
        { externalId: 'new-1', id: batch[0]?.id, requestFingerprint: 'fp-new-1' },
        null,
      ]);
      const listed = await adapters().candidates.list({ companyId, since: null, vacancyId: null, after: null, limit: 10 });
      expect(listed.map((c) => candidateJsonOf(c).externalId).sort()).to.deep.equal(["o'; drop table candidates; --\\\"{}", 'new-1', 'new-2', 'stored'].sort());
      expect((await adapters().candidates.insertApplications([batch[4] as CandidateCard])).map((earlier) => earlier?.id)).to.deep.equal([batch[4]?.id]);
    });

    it('inserts an application card without a vacancy (its vacancy deleted since: the platform feed) field for field, once', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const card = anApplicationCard({ companyId, vacancyId, externalId: 'late' });
      card.detachFromVacancy(at(60_000));
      expect(await adapters().candidates.insertApplications([card])).to.deep.equal([null]);
      expect((await adapters().candidates.findById(companyId, card.id))?.toSnapshot()).to.deep.equal(card.toSnapshot());
      const again = anApplicationCard({ companyId, vacancyId, externalId: 'late' });
      expect((await adapters().candidates.insertApplications([again])).map((earlier) => earlier?.id)).to.deep.equal([card.id]);
    });

    it('finds the stored applications of many externalIds in one call, of the company only', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const cards = ['x-1', 'x-2', "x'3\\"].map((externalId) => anApplicationCard({ companyId, vacancyId, externalId }));
      await adapters().candidates.insertApplications(cards);
      const other = await aCompanyWithVacancy();
      await adapters().candidates.insertApplications([anApplicationCard({ ...other, externalId: 'x-4' })]);
      // A card whose vacancy was deleted still answers its repeats.
      const detached = anApplicationCard({ companyId, vacancyId, externalId: 'x-5' });
      detached.detachFromVacancy(at(60_000));
      await adapters().candidates.insertApplications([detached]);
      const found = await adapters().candidates.findStoredApplications(companyId, ['x-1', "x'3\\", 'x-4', 'x-5', 'absent']);
      expect([...found].sort((a, b) => (a.externalId < b.externalId ? -1 : 1))).to.deep.equal([
        { externalId: "x'3\\", id: cards[2]?.id, requestFingerprint: "fp-x'3\\" },
        { externalId: 'x-1', id: cards[0]?.id, requestFingerprint: 'fp-x-1' },
        { externalId: 'x-5', id: detached.id, requestFingerprint: 'fp-x-5' },
      ]);
      expect(await adapters().candidates.findStoredApplications(companyId, [])).to.deep.equal([]);
    });

    it('never inserts two cards for concurrent applications with one externalId', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const cards = Array.from({ length: 10 }, () => anApplicationCard({ companyId, vacancyId, externalId: 'race' }));
      const results = (await Promise.all(cards.map((card) => adapters().candidates.insertApplications([card])))).map(([result]) => result);
      expect(results.filter((r) => r === null)).to.have.length(1);
      const winner = cards[results.indexOf(null)] as CandidateCard;
      expect(results.filter((r) => r !== null).every((r) => r?.id === winner.id)).to.equal(true);
    });

    it('inserts one technical card per card and vacancy, and hands back the earlier one unchanged', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const target = aVacancy({ companyId });
      await adapters().vacancies.insert(target);
      const card = aManualCard({ companyId, vacancyId });
      await adapters().candidates.insert(card);
      const first = card.technicalCopy({ id: nextId('tech'), vacancyId: target.id, stage: 'NEW', now: at(1) });
      const repeat = card.technicalCopy({ id: nextId('tech'), vacancyId: target.id, stage: 'OFFER', now: at(2) });
      expect(await adapters().candidates.insertTechnicalCard(first)).to.equal(null);
      expect((await adapters().candidates.insertTechnicalCard(repeat))?.toSnapshot()).to.deep.equal(first.toSnapshot());
      expect(await adapters().candidates.findById(companyId, repeat.id)).to.equal(null);
      expect(await adapters().candidates.stagesInUse(companyId, target.id)).to.deep.equal(['NEW']);
      // Another card, or the same card to another vacancy, is another transfer.
      const other = aManualCard({ companyId, vacancyId });
      await adapters().candidates.insert(other);
      expect(await adapters().candidates.insertTechnicalCard(other.technicalCopy({ id: nextId('tech'), vacancyId: target.id, stage: 'NEW', now: at(3) }))).to.equal(null);
      expect(await adapters().candidates.insertTechnicalCard(card.technicalCopy({ id: nextId('tech'), vacancyId, stage: 'NEW', now: at(4) }))).to.equal(null);
      // A plain insert of a repeat breaks the same rule.
      const failure = await adapters().candidates.insert(repeat).then(() => null, (error: unknown) => error);
      expect(failure, 'insert of a second technical card of one card on one vacancy').to.be.instanceOf(Error);
    });

    it('never inserts two technical cards for concurrent transfers of one card to one vacancy', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const target = aVacancy({ companyId });
      await adapters().vacancies.insert(target);
      const card = aManualCard({ companyId, vacancyId });
      await adapters().candidates.insert(card);
      const copies = Array.from({ length: 10 }, (_, i) => card.technicalCopy({ id: nextId('tech'), vacancyId: target.id, stage: 'NEW', now: at(i) }));
      const results = await Promise.all(copies.map((copy) => adapters().candidates.insertTechnicalCard(copy)));
      expect(results.filter((r) => r === null)).to.have.length(1);
      const winner = copies[results.indexOf(null)] as CandidateCard;
      expect(results.filter((r) => r !== null).map((r) => r?.id)).to.deep.equal(Array.from({ length: 9 }, () => winner.id));
      const stored = await Promise.all(copies.map((copy) => adapters().candidates.findById(companyId, copy.id)));
      expect(stored.filter((found) => found !== null).map((found) => found?.id)).to.deep.equal([winner.id]);
    });

    it('lists with the vacancy title at read time, the later of card and resume times, and never technical cards', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy('Повар');
      const card = aManualCard({ companyId, vacancyId, now: at(0) });
      await adapters().candidates.insert(card);
      card.replaceResume(aResume({ summary: 'Обновлённое резюме' }), at(500));
      await adapters().candidates.update(card);
      await adapters().candidates.insert(card.technicalCopy({ id: nextId('tech'), vacancyId, stage: 'NEW', now: at(900) }));
      const rows = await adapters().candidates.list({ companyId, since: null, vacancyId: null, after: null, limit: 10 });
      expect(rows).to.have.length(1);
      expect(rows[0]?.vacancyTitle).to.equal('Повар');
      expect(rows[0]?.updatedAt.toISOString()).to.equal(at(500).toISOString());
      expect(candidateJsonOf(rows[0]!).resume.summary).to.equal('Обновлённое резюме');
      expect(candidateJsonOf(rows[0]!).updatedAt).to.equal(at(500).toISOString());
      const since = await adapters().candidates.list({ companyId, since: at(499), vacancyId: null, after: null, limit: 10 });
      expect(since.map((c) => c.id)).to.deep.equal([card.id]);
      expect(await adapters().candidates.list({ companyId, since: at(500), vacancyId: null, after: null, limit: 10 })).to.deep.equal([]);
    });

    it('lists in (modification time, id) order, after a position, by vacancy, up to a limit', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const other = aVacancy({ companyId });
      await adapters().vacancies.insert(other);
      const cards = [
        aManualCard({ companyId, vacancyId, id: 'b', now: at(10) }),
        aManualCard({ companyId, vacancyId, id: 'a', now: at(10) }),
        aManualCard({ companyId, vacancyId: other.id, id: 'c', now: at(5) }),
        aManualCard({ companyId, vacancyId, id: 'd', now: at(20) }),
      ];
      for (const card of cards) await adapters().candidates.insert(card);
      const ids = async (q: { vacancyId?: string; after?: { modifiedAt: Date; id: string }; limit?: number }) =>
        (await adapters().candidates.list({ companyId, since: null, vacancyId: q.vacancyId ?? null, after: q.after ?? null, limit: q.limit ?? 10 })).map((c) => c.id);
      expect(await ids({})).to.deep.equal(['c', 'a', 'b', 'd']);
      expect(await ids({ vacancyId })).to.deep.equal(['a', 'b', 'd']);
      expect(await ids({ after: { modifiedAt: at(10), id: 'a' } })).to.deep.equal(['b', 'd']);
      expect(await ids({ limit: 1 })).to.deep.equal(['c']);
    });

    it('lists ids only as list lists cards: the same order, filters and places, never technical cards, each measured as its item', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const other = aVacancy({ companyId });
      await adapters().vacancies.insert(other);
      const resumed = aManualCard({ companyId, vacancyId, id: 'a', now: at(10) });
      for (const card of [resumed, aManualCard({ companyId, vacancyId, id: 'b', now: at(10) }), aManualCard({ companyId, vacancyId: other.id, id: 'c', now: at(5) })]) {
        await adapters().candidates.insert(card);
      }
      resumed.replaceResume(aResume({ summary: 'Позже' }), at(30));
      await adapters().candidates.update(resumed);
      await adapters().candidates.insert(resumed.technicalCopy({ id: nextId('tech'), vacancyId: other.id, stage: 'NEW', now: at(40) }));
      const elsewhere = await aCompanyWithVacancy();
      await adapters().candidates.insert(aManualCard({ ...elsewhere, id: 'z', now: at(1) }));
      const queries = [
        {},
        { vacancyId },
        { since: at(5) },
        { after: { modifiedAt: at(10), id: 'b' } },
        { limit: 2 },
      ];
      for (const q of queries) {
        const query = { companyId, since: null, vacancyId: null, after: null, limit: 10, ...q };
        const expected = (await adapters().candidates.list(query)).map(({ id, updatedAt }) => ({ id, updatedAt, bytes: idItemBytes(id, updatedAt) }));
        expect(await adapters().candidates.listIds(query), JSON.stringify(q)).to.deep.equal(expected);
      }
      expect((await adapters().candidates.listIds({ companyId, since: null, vacancyId: null, after: null, limit: 10 })).map((c) => c.id)).to.deep.equal(['c', 'b', 'a']);
    });

    it('ends a list by maxBytes after the first card past it, the first two always, and measures each card as a page item', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy('Повар «Шеф»');
      const summaries = [3_000, 100, 1_000, 2_000, 100];
      for (const [n, length] of summaries.entries()) {
        await adapters().candidates.insert(aManualCard({ companyId, vacancyId, id: `card-${n}`, now: at(n), resume: aResume({ summary: 'ж'.repeat(length) }) }));
      }
      const list = (maxBytes?: number) => adapters().candidates.list({ companyId, since: null, vacancyId: null, after: null, limit: 10, ...(maxBytes === undefined ? {} : { maxBytes }) });
      const all = await list();
      for (const c of all) expect(c.bytes).to.equal(Buffer.byteLength(spliceCandidate(c.id, c.vacancyId, c.vacancyTitle, c.rendering)));
      const renderingBytes = all.map((c) => Buffer.byteLength(c.rendering));
      const through = (n: number) => renderingBytes.slice(0, n + 1).reduce((sum, bytes) => sum + bytes, 0);
      const ids = async (maxBytes: number) => (await list(maxBytes)).map((c) => c.id);
      expect(await ids(1)).to.deep.equal(['card-0', 'card-1']);
      expect(await ids(through(1))).to.deep.equal(['card-0', 'card-1', 'card-2']);
      expect(await ids(through(2) - 1)).to.deep.equal(['card-0', 'card-1', 'card-2']);
      expect(await ids(through(2))).to.deep.equal(['card-0', 'card-1', 'card-2', 'card-3']);
      expect(await ids(through(4))).to.deep.equal(all.map((c) => c.id));
      // The last card, past the budget, only says that more exist: no page can take it, and its rendering is not read.
      expect(await list(through(2))).to.deep.equal([...all.slice(0, 3), { ...all[3], rendering: '', bytes: PAST_BUDGET_BYTES }]);
      expect(await list(through(3))).to.deep.equal([...all.slice(0, 4), { ...all[4], rendering: '', bytes: PAST_BUDGET_BYTES }]);
      expect(await list(1)).to.deep.equal([all[0], { ...all[1], rendering: '', bytes: PAST_BUDGET_BYTES }]);
      expect(await list(through(4))).to.deep.equal(all);
    });

    it('detaches the cards of a deleted vacancy and bumps their modification time', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const card = aManualCard({ companyId, vacancyId, now: at(0) });
      await adapters().candidates.insert(card);
      expect(await adapters().candidates.detachVacancy(companyId, vacancyId, at(7_000))).to.equal(1);
      await adapters().vacancies.delete(companyId, vacancyId);
      const [row] = await adapters().candidates.list({ companyId, since: null, vacancyId: null, after: null, limit: 10 });
      expect(row).to.include({ id: card.id, vacancyId: null, vacancyTitle: null });
      expect(candidateJsonOf(row!)).to.include({ id: card.id, vacancyId: null, vacancyTitle: null, stage: null, updatedAt: at(7_000).toISOString() });
      expect(row?.updatedAt.toISOString()).to.equal(at(7_000).toISOString());
    });

    it('detaches only the cards given of a deleted vacancy, passing over ids of cards elsewhere or of none', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const other = aVacancy({ companyId });
      await adapters().vacancies.insert(other);
      const [gone, kept, elsewhere] = [vacancyId, vacancyId, other.id].map((id) => aManualCard({ companyId, vacancyId: id, now: at(0) })) as [CandidateCard, CandidateCard, CandidateCard];
      for (const card of [gone, kept, elsewhere]) await adapters().candidates.insert(card);
      const technical = elsewhere.technicalCopy({ id: nextId('tech'), vacancyId, stage: 'NEW', now: at(1) });
      await adapters().candidates.insertTechnicalCard(technical);
      const c = adapters().candidates;
      expect(await c.detachVacancy(companyId, vacancyId, at(5), [])).to.equal(0);
      expect(await c.detachVacancy(companyId, vacancyId, at(5), [gone.id, technical.id, elsewhere.id, nextId('none'), gone.id])).to.equal(2);
      gone.detachFromVacancy(at(5));
      const snapshot = async (id: string) => (await c.findById(companyId, id))?.toSnapshot();
      expect(await snapshot(gone.id)).to.deep.equal(gone.toSnapshot());
      expect(await snapshot(technical.id)).to.include({ vacancyId: null, stage: null });
      expect(await snapshot(kept.id), 'not given').to.deep.equal(kept.toSnapshot());
      expect(await snapshot(elsewhere.id), 'on another vacancy').to.deep.equal(elsewhere.toSnapshot());
      const listed = await c.list({ companyId, since: at(4), vacancyId: null, after: null, limit: 10 });
      expect(listed.map((row) => [row.id, row.vacancyId])).to.deep.equal([[gone.id, null]]);
    });

    it('detaches only the cards given however many they are (more than one statement\'s worth)', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const cards = Array.from({ length: 1_205 }, () => aManualCard({ companyId, vacancyId, now: at(0) }));
      await adapters().candidates.insertMany(cards);
      const given = cards.slice(0, 1_203).map((card) => card.id);
      expect(await adapters().candidates.detachVacancy(companyId, vacancyId, at(5), [...given, ...given.slice(0, 10)])).to.equal(1_203);
      const left = await adapters().candidates.cardsOnVacancy(companyId, vacancyId);
      expect(left.map((card) => card.id).sort()).to.deep.equal(cards.slice(1_203).map((card) => card.id).sort());
    });

    it('names every card standing on a vacancy, technical ones with the card they were transferred from', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const other = aVacancy({ companyId });
      await adapters().vacancies.insert(other);
      const manual = aManualCard({ companyId, vacancyId });
      const applied = anApplicationCard({ companyId, vacancyId, externalId: 'on-it' });
      const elsewhere = aManualCard({ companyId, vacancyId: other.id });
      const detached = aManualCard({ companyId, vacancyId: other.id });
      for (const card of [manual, applied, elsewhere, detached]) await adapters().candidates.insert(card);
      const technical = elsewhere.technicalCopy({ id: nextId('tech'), vacancyId, stage: 'NEW', now: at(1) });
      await adapters().candidates.insertTechnicalCard(technical);
      await adapters().candidates.detachVacancy(companyId, other.id, at(2), [detached.id]);
      const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
      expect((await adapters().candidates.cardsOnVacancy(companyId, vacancyId)).sort(byId)).to.deep.equal(
        [{ id: manual.id, originCardId: null }, { id: applied.id, originCardId: null }, { id: technical.id, originCardId: elsewhere.id }].sort(byId),
      );
      expect(await adapters().candidates.cardsOnVacancy(companyId, other.id)).to.deep.equal([{ id: elsewhere.id, originCardId: null }]);
      expect(await adapters().candidates.cardsOnVacancy(nextId('co'), vacancyId), 'another company').to.deep.equal([]);
    });

    it('lists every card as the presenters render it now, after every kind of write', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy('Кассир «Ночной» \\ 24/7');
      const doomed = aVacancy({ companyId, input: { title: 'Удаляется' } });
      await adapters().vacancies.insert(doomed);
      const inserted = aManualCard({ companyId, vacancyId, now: at(1), person: aPerson({ name: 'Ёжик "в тумане" \u0001 😀' }) });
      await adapters().candidates.insert(inserted);
      const many = [aManualCard({ companyId, vacancyId, now: at(2) }), aManualCard({ companyId, vacancyId: doomed.id, now: at(3) })];
      await adapters().candidates.insertMany(many);
      const applied = anApplicationCard({ companyId, vacancyId, externalId: 'rendered', now: at(4) });
      await adapters().candidates.insertApplications([applied]);
      const moved = aManualCard({ companyId, vacancyId, now: at(5) });
      await adapters().candidates.insert(moved);
      moved.moveTo('INTERVIEW', at(6));
      await adapters().candidates.update(moved);
      applied.replaceResume(aResume({ summary: 'Новое "резюме"\n', skills: ['C\\C++', ''] }), at(7));
      await adapters().candidates.update(applied);
      expect(await adapters().candidates.insertTechnicalCard(inserted.technicalCopy({ id: nextId('tech'), vacancyId: doomed.id, stage: 'NEW', now: at(8) }))).to.equal(null);
      const detached = many[1] as CandidateCard;
      await adapters().candidates.detachVacancy(companyId, doomed.id, at(9));
      detached.detachFromVacancy(at(9));
      await adapters().vacancies.delete(companyId, doomed.id);

      const listed = await adapters().candidates.list({ companyId, since: null, vacancyId: null, after: null, limit: 10 });
      const expected = [inserted, many[0] as CandidateCard, applied, moved, detached]
        .map((card) => toCandidateView(card, card.vacancyId === null ? null : 'Кассир «Ночной» \\ 24/7'))
        .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime());
      expect(listed.map((c) => spliceCandidate(c.id, c.vacancyId, c.vacancyTitle, c.rendering))).to.deep.equal(
        expected.map((view) => JSON.stringify(presentCandidate(view))),
      );
      expect(listed.map((c) => c.updatedAt.toISOString())).to.deep.equal(expected.map((view) => view.updatedAt.toISOString()));
    });

    it('shows a renamed vacancy\'s title on its cards as read, without touching the cards', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy('До');
      const card = anApplicationCard({ companyId, vacancyId, externalId: 'renamed', now: at(1) });
      card.replaceResume(aResume({ summary: 'Резюме' }), at(2));
      await adapters().candidates.insertApplications([card]);
      const [before] = await adapters().candidates.list({ companyId, since: null, vacancyId: null, after: null, limit: 10 });
      const vacancy = (await adapters().vacancies.findById(companyId, vacancyId))!;
      vacancy.replace({ ...vacancy.toSnapshot(), title: 'После «переименования» 😀' }, at(3));
      await adapters().vacancies.update(vacancy);
      const [after] = await adapters().candidates.list({ companyId, since: null, vacancyId: null, after: null, limit: 10 });
      const json = JSON.stringify(presentCandidate(toCandidateView(card, 'После «переименования» 😀')));
      expect(after).to.deep.equal({ ...before, vacancyTitle: 'После «переименования» 😀', bytes: Buffer.byteLength(json) });
      expect(spliceCandidate(after!.id, after!.vacancyId, after!.vacancyTitle, after!.rendering)).to.equal(json);
    });

    it('answers findById after preloadByIds in a write unit of work as without it, after every kind of write in that unit of work', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const target = aVacancy({ companyId });
      await adapters().vacancies.insert(target);
      const moved = aManualCard({ companyId, vacancyId, now: at(0) });
      const [deleted, detached] = [0, 1].map(() => aManualCard({ companyId, vacancyId: target.id, now: at(0) }));
      const kept = aManualCard({ companyId, vacancyId, now: at(0) });
      for (const card of [moved, deleted, detached, kept] as CandidateCard[]) await adapters().candidates.insert(card);
      const technical = (deleted as CandidateCard).technicalCopy({ id: nextId('tech'), vacancyId, stage: 'NEW', now: at(1) });
      await adapters().candidates.insertTechnicalCard(technical);
      const later = aManualCard({ companyId, vacancyId, now: at(2) });
      const snapshot = async (id: string) => (await adapters().candidates.findById(companyId, id))?.toSnapshot() ?? null;
      await adapters().unitOfWork.run(companyId, 'write', async () => {
        const c = adapters().candidates;
        await c.preloadByIds(companyId, [moved.id, deleted!.id, detached!.id, kept.id, technical.id, later.id, later.id]);
        expect(await snapshot(kept.id)).to.deep.equal(kept.toSnapshot());
        expect(await snapshot(later.id), 'absent').to.equal(null);
        moved.moveTo('OFFER', at(3));
        await c.update(moved!);
        expect(await snapshot(moved.id), 'after update').to.deep.equal(moved.toSnapshot());
        await c.insert(later);
        expect(await snapshot(later.id), 'after insert').to.deep.equal(later.toSnapshot());
        await c.delete(companyId, deleted!.id);
        expect(await snapshot(deleted!.id), 'after delete').to.equal(null);
        expect(await snapshot(technical.id), 'a technical copy of the deleted card').to.equal(null);
        await c.detachVacancy(companyId, target.id, at(4));
        detached!.detachFromVacancy(at(4));
        expect(await snapshot(detached!.id), 'after the detachment of its vacancy').to.deep.equal(detached!.toSnapshot());
        expect(await c.findById(nextId('co'), kept.id), 'another company').to.equal(null);
      });
      expect(await snapshot(moved.id), 'committed').to.deep.equal(moved.toSnapshot());
      await adapters().candidates.preloadByIds(companyId, [kept.id]);
      const outside = aManualCard({ companyId, vacancyId });
      await adapters().candidates.preloadByIds(companyId, [outside.id]);
      await adapters().candidates.insert(outside);
      expect(await snapshot(outside.id), 'outside a unit of work nothing is kept').to.deep.equal(outside.toSnapshot());
    });

    it('deletes a card with its technical copies, and reports the stages in use', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const card = aManualCard({ companyId, vacancyId, stage: 'INTERVIEW' });
      await adapters().candidates.insert(card);
      await adapters().candidates.insert(aManualCard({ companyId, vacancyId, stage: 'NEW' }));
      const technical = card.technicalCopy({ id: nextId('tech'), vacancyId, stage: 'OFFER', now: at(1) });
      await adapters().candidates.insert(technical);
      expect(await adapters().candidates.stagesInUse(companyId, vacancyId)).to.have.members(['INTERVIEW', 'NEW', 'OFFER']);
      expect(await adapters().candidates.delete(companyId, card.id)).to.equal(true);
      expect(await adapters().candidates.findById(companyId, technical.id)).to.equal(null);
      expect(await adapters().candidates.delete(companyId, card.id)).to.equal(false);
    });

    it('finds an imported card by its source reference', async () => {
      const { companyId, vacancyId } = await aCompanyWithVacancy();
      const card = CandidateCard.imported({ ...aManualCard({ companyId, vacancyId }).toSnapshot(), id: nextId('card'), companyId, vacancyId, stage: 'NEW', now: at(0), source: 'hh', sourceRef: 'hh:f3a1' });
      await adapters().candidates.insert(card);
      expect((await adapters().candidates.findBySourceRef(companyId, 'hh:f3a1'))?.id).to.equal(card.id);
    });
  });
}
