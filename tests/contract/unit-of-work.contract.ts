import { expect } from 'chai';
import { Board } from '../../domain/board/board.js';
import { aManualCard, anApplicationCard, aVacancy, nextId } from '../support/builders.js';
import { withAdapters, type AdapterFactory } from './persistence-adapters.js';

/** A promise the test resolves by hand, to hold a transaction open. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

export function unitOfWorkContract(factory: AdapterFactory): void {
  describe(`UnitOfWork (${factory.name})`, () => {
    const adapters = withAdapters(factory);

    it('commits the writes of work that succeeds', async () => {
      const companyId = nextId('co');
      const vacancy = aVacancy({ companyId });
      await adapters().unitOfWork.run(companyId, 'write', async () => adapters().vacancies.insert(vacancy));
      expect(await adapters().vacancies.findById(companyId, vacancy.id)).to.not.equal(null);
    });

    it('undoes every write of work that throws', async () => {
      const companyId = nextId('co');
      const kept = aVacancy({ companyId });
      await adapters().vacancies.insert(kept);
      const lost = aVacancy({ companyId });
      const failure = adapters().unitOfWork.run(companyId, 'write', async ({ now }) => {
        await adapters().vacancies.insert(lost);
        kept.replace({ ...kept.toSnapshot(), title: 'Изменено' }, now);
        await adapters().vacancies.update(kept);
        throw new Error('boom');
      });
      await failure.then(
        () => expect.fail('the work should have failed'),
        (error: Error) => expect(error.message).to.equal('boom'),
      );
      expect(await adapters().vacancies.findById(companyId, lost.id)).to.equal(null);
      expect((await adapters().vacancies.findById(companyId, kept.id))?.title).to.equal('Бэкенд-разработчик');
    });

    it('undoes the writes of every repository and of the feed ledger in work that throws, each seen by the work before', async () => {
      const a = adapters();
      const companyId = nextId('co');
      const vacancy = aVacancy({ companyId });
      const other = aVacancy({ companyId });
      await a.vacancies.insert(vacancy);
      await a.vacancies.insert(other);
      await a.boards.save(Board.create(companyId, vacancy.id));
      await a.boards.save(Board.create(companyId, other.id));
      const kept = aManualCard({ companyId, vacancyId: vacancy.id });
      const doomed = aManualCard({ companyId, vacancyId: vacancy.id });
      const onOther = aManualCard({ companyId, vacancyId: other.id });
      await a.candidates.insertMany([kept, doomed, onOther]);
      const entity = { companyId, kind: 'candidate' as const, id: kept.id };
      const claim = { source: 'test', eventId: nextId('ev'), companyId, entity };
      const stageBefore = kept.stage;
      const inserted = aManualCard({ companyId, vacancyId: vacancy.id });
      const many = [aManualCard({ companyId, vacancyId: vacancy.id }), aManualCard({ companyId, vacancyId: vacancy.id })];
      const application = anApplicationCard({ companyId, vacancyId: vacancy.id, externalId: nextId('ext') });
      const technical = kept.technicalCopy({ id: nextId('tc'), vacancyId: other.id, stage: 'NEW', now: new Date() });
      const failure = a.unitOfWork.run(companyId, 'write', async ({ now }) => {
        expect(await a.feedLedger.claimEvents([claim], now)).to.not.deep.equal([null]);
        await a.feedLedger.recordAll([{ type: 'versions', entity, aspects: ['stage'], version: 7 }], now);
        await a.candidates.insert(inserted);
        await a.candidates.insertMany(many);
        expect(await a.candidates.insertApplications([application])).to.deep.equal([null]);
        expect(await a.candidates.insertTechnicalCard(technical)).to.equal(null);
        kept.moveTo('INTERVIEW', now);
        await a.candidates.update(kept);
        expect(await a.candidates.delete(companyId, doomed.id)).to.equal(true);
        await a.boards.save(Board.create(companyId, vacancy.id, ['A', 'B']));
        await a.boards.delete(companyId, other.id);
        expect(await a.candidates.detachVacancy(companyId, other.id, now)).to.equal(2);
        expect(await a.vacancies.delete(companyId, other.id)).to.equal(true);
        // Each write seen inside the unit of work, before it is undone.
        expect((await a.candidates.findById(companyId, inserted.id))?.id).to.equal(inserted.id);
        expect((await a.candidates.findById(companyId, kept.id))?.stage).to.equal('INTERVIEW');
        expect(await a.vacancies.findById(companyId, other.id)).to.equal(null);
        expect((await a.feedLedger.versionsOf(entity)).aspects.get('stage')).to.equal(7);
        expect((await a.boards.find(companyId, vacancy.id))?.columns).to.deep.equal(['A', 'B']);
        expect(await a.boards.find(companyId, other.id)).to.equal(null);
        expect((await a.candidates.findStoredApplications(companyId, [application.externalId as string])).map((stored) => stored.id)).to.deep.equal([application.id]);
        expect((await a.candidates.findByExternalId(companyId, application.externalId as string))?.id).to.equal(application.id);
        expect(await a.candidates.stagesInUse(companyId, vacancy.id)).to.include('INTERVIEW');
        throw new Error('boom');
      });
      await failure.then(
        () => expect.fail('the work should have failed'),
        (error: Error) => expect(error.message).to.equal('boom'),
      );
      for (const card of [inserted, ...many, application, technical]) expect(await a.candidates.findById(companyId, card.id), card.id).to.equal(null);
      expect((await a.candidates.findById(companyId, kept.id))?.stage).to.equal(stageBefore);
      expect(await a.candidates.findById(companyId, doomed.id)).to.not.equal(null);
      expect((await a.candidates.findById(companyId, onOther.id))?.vacancyId).to.equal(other.id);
      expect(await a.vacancies.findById(companyId, other.id)).to.not.equal(null);
      expect((await a.boards.find(companyId, vacancy.id))?.columns).to.deep.equal(Board.create(companyId, vacancy.id).columns);
      expect(await a.boards.find(companyId, other.id)).to.not.equal(null);
      expect((await a.feedLedger.versionsOf(entity)).aspects.size).to.equal(0);
      // The event's claim is undone too: claimed again, it is no duplicate.
      expect(await a.feedLedger.claimEvents([claim], new Date())).to.not.deep.equal([null]);
    });

    it('makes a reader of the company wait for an open write, and stamps the reader later', async () => {
      const companyId = nextId('co');
      const hold = gate();
      const events: string[] = [];
      let writerNow = 0;
      const writer = adapters().unitOfWork.run(companyId, 'write', async ({ now }) => {
        writerNow = now.getTime();
        events.push('write started');
        await hold.opened;
        events.push('write done');
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const reader = adapters().unitOfWork.run(companyId, 'read', async ({ now }) => {
        events.push('read');
        return now.getTime();
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      events.push('gate opened');
      hold.open();
      const readerNow = await reader;
      await writer;
      expect(events).to.deep.equal(['write started', 'gate opened', 'write done', 'read']);
      expect(readerNow).to.be.at.least(writerNow);
    });

    it('lets readers of one company run together, and writers of other companies run freely', async () => {
      const companyId = nextId('co');
      const hold = gate();
      let readersInside = 0;
      let most = 0;
      const reader = () =>
        adapters().unitOfWork.run(companyId, 'read', async () => {
          readersInside++;
          most = Math.max(most, readersInside);
          await hold.opened;
          readersInside--;
        });
      const readers = [reader(), reader()];
      await new Promise((resolve) => setTimeout(resolve, 50));
      const otherCompany = nextId('co');
      await adapters().unitOfWork.run(otherCompany, 'write', async () => adapters().vacancies.insert(aVacancy({ companyId: otherCompany })));
      hold.open();
      await Promise.all(readers);
      expect(most).to.equal(2);
    });

    it('lets appends of one company run together, and keeps its readers and writes waiting until they end', async () => {
      const companyId = nextId('co');
      const hold = gate();
      const events: string[] = [];
      let appendsInside = 0;
      let most = 0;
      let latestAppendNow = 0;
      const append = () =>
        adapters().unitOfWork.run(companyId, 'append', async ({ now }) => {
          latestAppendNow = Math.max(latestAppendNow, now.getTime());
          appendsInside++;
          most = Math.max(most, appendsInside);
          await hold.opened;
          appendsInside--;
          events.push('append done');
        });
      const appends = [append(), append()];
      await new Promise((resolve) => setTimeout(resolve, 50));
      const reader = adapters().unitOfWork.run(companyId, 'read', async ({ now }) => {
        events.push('read');
        return now.getTime();
      });
      const writer = adapters().unitOfWork.run(companyId, 'write', async () => {
        events.push('write');
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(most).to.equal(2);
      events.push('gate opened');
      hold.open();
      const readerNow = await reader;
      await Promise.all([...appends, writer]);
      expect(events.slice(0, 3)).to.deep.equal(['gate opened', 'append done', 'append done']);
      expect(events.slice(3).sort()).to.deep.equal(['read', 'write']);
      expect(readerNow).to.be.at.least(latestAppendNow);
    });

    it('makes an append wait for an open write of its company', async () => {
      const companyId = nextId('co');
      const hold = gate();
      const events: string[] = [];
      const writer = adapters().unitOfWork.run(companyId, 'write', async () => {
        await hold.opened;
        events.push('write done');
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const append = adapters().unitOfWork.run(companyId, 'append', async () => {
        events.push('append');
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      events.push('gate opened');
      hold.open();
      await Promise.all([writer, append]);
      expect(events).to.deep.equal(['gate opened', 'write done', 'append']);
    });

    it('joins a unit of work started inside another of the company: same clock, no wait for its own lock, undone with it', async () => {
      const companyId = nextId('co');
      const lost = aVacancy({ companyId });
      const nows: number[] = [];
      const failure = adapters().unitOfWork.run(companyId, 'write', async ({ now }) => {
        nows.push(now.getTime());
        await adapters().unitOfWork.run(companyId, 'write', async (inner) => {
          nows.push(inner.now.getTime());
          await adapters().vacancies.insert(lost);
        });
        expect(await adapters().vacancies.findById(companyId, lost.id), 'seen by the outer work').to.not.equal(null);
        throw new Error('boom');
      });
      await failure.then(
        () => expect.fail('the work should have failed'),
        (error: Error) => expect(error.message).to.equal('boom'),
      );
      expect(nows).to.have.length(2);
      expect(nows[1]).to.equal(nows[0]);
      expect(await adapters().vacancies.findById(companyId, lost.id)).to.equal(null);
    });

    it('refuses a write inside an append, and a unit of work of another company inside one', async () => {
      const companyId = nextId('co');
      const refusals = await adapters().unitOfWork.run(companyId, 'append', async () => {
        const inWrite = await adapters().unitOfWork.run(companyId, 'write', async () => 'ran').catch((error: Error) => error.message);
        const inOther = await adapters().unitOfWork.run(nextId('co'), 'append', async () => 'ran').catch((error: Error) => error.message);
        return [inWrite, inOther];
      });
      expect(refusals).to.deep.equal(['A write unit of work cannot run inside an append one.', 'A unit of work cannot run inside one of another company.']);
    });

    it('undoes the writes of an append that throws', async () => {
      const companyId = nextId('co');
      const lost = aVacancy({ companyId });
      const failure = adapters().unitOfWork.run(companyId, 'append', async () => {
        await adapters().vacancies.insert(lost);
        throw new Error('boom');
      });
      await failure.then(
        () => expect.fail('the work should have failed'),
        (error: Error) => expect(error.message).to.equal('boom'),
      );
      expect(await adapters().vacancies.findById(companyId, lost.id)).to.equal(null);
    });
  });
}
