import { expect } from 'chai';
import fc from 'fast-check';
import type { FeedClaimed, FeedEntityRef, FeedEntityVersions, FeedVersionRecord } from '../../application/ports/feed-ledger.port.js';
import { nextId, T0 } from '../support/builders.js';
import { rejectionOf } from '../support/catching.js';
import { withAdapters, type AdapterFactory } from './persistence-adapters.js';

const DAY_MS = 86_400_000;
const SOURCE = 'urn:platform:test';

/** A promise the test resolves by hand, to hold a transaction open. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Versions as plain data, for deep comparisons. */
function plain(versions: FeedEntityVersions): { aspects: Record<string, number>; deletedAt: number | null } {
  return { aspects: Object.fromEntries(versions.aspects), deletedAt: versions.deletedAt };
}


export function feedLedgerContract(factory: AdapterFactory): void {
  describe(`FeedLedger (${factory.name})`, () => {
    const adapters = withAdapters(factory);
    const ledger = () => adapters().feedLedger;
    const card = (companyId = nextId('co')): FeedEntityRef => ({ companyId, kind: 'candidate', id: nextId('card') });

    describe('claimEvent', () => {
      it('claims an event id once: the first claim is true, every later one false', async () => {
        const companyId = nextId('co');
        const eventId = nextId('ev');
        expect(await ledger().claimEvent(SOURCE, eventId, companyId, T0)).to.equal(true);
        expect(await ledger().claimEvent(SOURCE, eventId, companyId, T0)).to.equal(false);
        expect(await ledger().claimEvent(SOURCE, eventId, companyId, new Date(T0.getTime() + 1000))).to.equal(false);
      });

      it('tells events apart by source, id and company', async () => {
        const companyId = nextId('co');
        const eventId = nextId('ev');
        expect(await ledger().claimEvent(SOURCE, eventId, companyId, T0)).to.equal(true);
        expect(await ledger().claimEvent('urn:platform:other', eventId, companyId, T0)).to.equal(true);
        expect(await ledger().claimEvent(SOURCE, nextId('ev'), companyId, T0)).to.equal(true);
        expect(await ledger().claimEvent(SOURCE, eventId, nextId('co'), T0)).to.equal(true);
      });

      it('forgets a claim made inside a unit of work that throws, so the event can be claimed again', async () => {
        const companyId = nextId('co');
        const eventId = nextId('ev');
        const failure = adapters().unitOfWork.run(companyId, 'write', async () => {
          expect(await ledger().claimEvent(SOURCE, eventId, companyId, T0)).to.equal(true);
          expect(await ledger().claimEvent(SOURCE, eventId, companyId, T0), 'seen inside its own transaction').to.equal(false);
          throw new Error('boom');
        });
        expect(((await rejectionOf(failure)) as Error).message).to.equal('boom');
        expect(await ledger().claimEvent(SOURCE, eventId, companyId, T0)).to.equal(true);
      });

      it('keeps a claim made inside a unit of work that commits', async () => {
        const companyId = nextId('co');
        const eventId = nextId('ev');
        await adapters().unitOfWork.run(companyId, 'write', async () => ledger().claimEvent(SOURCE, eventId, companyId, T0));
        expect(await ledger().claimEvent(SOURCE, eventId, companyId, T0)).to.equal(false);
      });

      it('grants exactly one of two concurrent claims of one event', async () => {
        const companyId = nextId('co');
        const eventId = nextId('ev');
        const claim = () => adapters().unitOfWork.run(companyId, 'append', async () => ledger().claimEvent(SOURCE, eventId, companyId, T0));
        const answers = await Promise.all([claim(), claim()]);
        expect(answers.sort()).to.deep.equal([false, true]);
      });

      for (const ending of ['commits', 'rolls back'] as const) {
        it(`makes a concurrent claim wait for the transaction that claimed first, which ${ending}`, async () => {
          const companyId = nextId('co');
          const eventId = nextId('ev');
          const claimed = gate();
          const hold = gate();
          const events: string[] = [];
          const first = adapters().unitOfWork.run(companyId, 'append', async () => {
            events.push(`first: ${await ledger().claimEvent(SOURCE, eventId, companyId, T0)}`);
            claimed.open();
            await hold.opened;
            events.push('first ends');
            if (ending === 'rolls back') throw new Error('boom');
          });
          const firstSettled = first.catch((error: Error) => error.message);
          await claimed.opened;
          const second = adapters().unitOfWork.run(companyId, 'append', async () => {
            const answer = await ledger().claimEvent(SOURCE, eventId, companyId, T0);
            events.push(`second: ${answer}`);
            return answer;
          });
          await sleep(150);
          events.push('gate opened');
          hold.open();
          expect(await firstSettled).to.equal(ending === 'commits' ? undefined : 'boom');
          expect(await second).to.equal(ending === 'rolls back');
          expect(events).to.deep.equal(['first: true', 'gate opened', 'first ends', `second: ${ending === 'rolls back'}`]);
        });
      }
    });

    describe('claimEvents', () => {
      const claimOne = async (eventId: string, entity: FeedEntityRef) =>
        (await ledger().claimEvents([{ source: SOURCE, eventId, companyId: entity.companyId, entity }], T0))[0];

      it('claims like claimEvent and reads the versions of the entity: null once the event is recorded', async () => {
        const entity = card();
        await ledger().recordVersions(entity, ['card', 'stage'], 3, T0);
        await ledger().recordVersions({ ...entity, id: nextId('card') }, ['card'], 9, T0);
        const eventId = nextId('ev');
        const first = await claimOne(eventId, entity);
        expect(first === null || first === undefined ? first : plain(first.versions)).to.deep.equal({ aspects: { card: 3, stage: 3 }, deletedAt: null });
        expect(await claimOne(eventId, entity)).to.equal(null);
        expect(await ledger().claimEvent(SOURCE, eventId, entity.companyId, T0), 'one record for both ways of claiming').to.equal(false);
      });

      it('reads no versions of an untouched entity, and a tombstone as the deletion', async () => {
        const untouched = await claimOne(nextId('ev'), card());
        expect(untouched === null || untouched === undefined ? untouched : plain(untouched.versions)).to.deep.equal({ aspects: {}, deletedAt: null });
        const deleted = card();
        await ledger().recordVersions(deleted, ['card'], 2, T0);
        await ledger().recordDeletion(deleted, 4, T0);
        const read = await claimOne(nextId('ev'), deleted);
        expect(read === null || read === undefined ? read : plain(read.versions)).to.deep.equal({ aspects: {}, deletedAt: 4 });
      });

      it('answers a batch of one event id as a batch of several: without an entity, and repeated (sent once)', async () => {
        const entity = card();
        await ledger().recordVersions(entity, ['resume'], 5, T0);
        const alone = await ledger().claimEvents([{ source: SOURCE, eventId: nextId('ev'), companyId: entity.companyId, entity: null }], T0);
        expect(alone.map((answer) => (answer === null ? null : plain(answer.versions)))).to.deep.equal([{ aspects: {}, deletedAt: null }]);
        const repeated = nextId('ev');
        const twice = await ledger().claimEvents(
          [
            { source: SOURCE, eventId: repeated, companyId: entity.companyId, entity },
            { source: SOURCE, eventId: repeated, companyId: entity.companyId, entity },
          ],
          T0,
        );
        expect(twice.map((answer) => (answer === null ? null : plain(answer.versions)))).to.deep.equal([{ aspects: { resume: 5 }, deletedAt: null }, null]);
        expect(await ledger().claimEvents([{ source: SOURCE, eventId: repeated, companyId: entity.companyId, entity }], T0)).to.deep.equal([null]);
      });

      it('answers every claim of a batch in its order: versions of each entity, none without one, null for an id recorded before or earlier in the batch', async () => {
        const companyId = nextId('co');
        const first = card(companyId);
        const second = { companyId, kind: 'vacancy' as const, id: nextId('vac') };
        await ledger().recordVersions(first, ['card', 'stage'], 3, T0);
        await ledger().recordVersions(second, ['vacancy'], 7, T0);
        await ledger().recordDeletion(second, 8, T0);
        const known = nextId('ev');
        expect(await ledger().claimEvent(SOURCE, known, companyId, T0)).to.equal(true);
        const [a, b, c] = [nextId('ev'), nextId('ev'), nextId('ev')];
        const answers = await ledger().claimEvents(
          [
            { source: SOURCE, eventId: a, companyId, entity: first },
            { source: SOURCE, eventId: known, companyId, entity: first },
            { source: SOURCE, eventId: b, companyId, entity: null },
            { source: SOURCE, eventId: a, companyId, entity: first },
            { source: 'urn:platform:other', eventId: a, companyId, entity: second },
            { source: SOURCE, eventId: c, companyId, entity: first },
          ],
          T0,
        );
        expect(answers.map((answer) => (answer === null ? null : plain(answer.versions)))).to.deep.equal([
          { aspects: { card: 3, stage: 3 }, deletedAt: null },
          null,
          { aspects: {}, deletedAt: null },
          null,
          { aspects: {}, deletedAt: 8 },
          { aspects: { card: 3, stage: 3 }, deletedAt: null },
        ]);
        for (const [source, eventId] of [[SOURCE, a], [SOURCE, b], ['urn:platform:other', a], [SOURCE, c]] as const) {
          expect(await ledger().claimEvent(source, eventId, companyId, T0), `${source} ${eventId} recorded`).to.equal(false);
        }
        expect(await ledger().claimEvents([], T0)).to.deep.equal([]);
      });

      it('reads with a claim the versions of the vacancy it names, alone and in a batch: none when it names none, none for a duplicate', async () => {
        const companyId = nextId('co');
        const entity = card(companyId);
        const vacancy = { companyId, kind: 'vacancy' as const, id: nextId('vac') };
        const revived = { companyId, kind: 'vacancy' as const, id: nextId('vac') };
        await ledger().recordVersions(entity, ['card'], 2, T0);
        await ledger().recordVersions(vacancy, ['vacancy', 'board'], 4, T0);
        await ledger().recordDeletion(vacancy, 5, T0);
        await ledger().recordVersions(revived, ['revived-after'], 3, T0);
        await ledger().recordVersions(revived, ['vacancy'], 6, T0);
        const untouched = nextId('vac');
        const named = (answer: FeedClaimed | null | undefined) =>
          answer === null || answer === undefined ? answer : { versions: plain(answer.versions), vacancy: answer.vacancy === null ? null : plain(answer.vacancy) };
        const [alone] = await ledger().claimEvents([{ source: SOURCE, eventId: nextId('ev'), companyId, entity, vacancyId: vacancy.id }], T0);
        expect(named(alone)).to.deep.equal({ versions: { aspects: { card: 2 }, deletedAt: null }, vacancy: { aspects: {}, deletedAt: 5 } });
        const repeated = nextId('ev');
        const answers = await ledger().claimEvents(
          [
            { source: SOURCE, eventId: repeated, companyId, entity: null, vacancyId: revived.id },
            { source: SOURCE, eventId: nextId('ev'), companyId, entity, vacancyId: untouched },
            { source: SOURCE, eventId: nextId('ev'), companyId, entity, vacancyId: null },
            { source: SOURCE, eventId: repeated, companyId, entity: null, vacancyId: vacancy.id },
            { source: SOURCE, eventId: nextId('ev'), companyId, entity: vacancy, vacancyId: vacancy.id },
          ],
          T0,
        );
        expect(answers.map(named)).to.deep.equal([
          { versions: { aspects: {}, deletedAt: null }, vacancy: { aspects: { 'revived-after': 3, vacancy: 6 }, deletedAt: null } },
          { versions: { aspects: { card: 2 }, deletedAt: null }, vacancy: { aspects: {}, deletedAt: null } },
          { versions: { aspects: { card: 2 }, deletedAt: null }, vacancy: null },
          null,
          { versions: { aspects: {}, deletedAt: 5 }, vacancy: { aspects: {}, deletedAt: 5 } },
        ]);
      });

      it('refuses a batch in which a claim names an entity of another company, claiming none of it', async () => {
        const companyId = nextId('co');
        const first = nextId('ev');
        const failure = ledger().claimEvents(
          [
            { source: SOURCE, eventId: first, companyId, entity: card(companyId) },
            { source: SOURCE, eventId: nextId('ev'), companyId, entity: card(nextId('co')) },
          ],
          T0,
        );
        expect(((await rejectionOf(failure)) as Error).message).to.equal('A claim names an entity of another company than its own.');
        expect(await ledger().claimEvent(SOURCE, first, companyId, T0), 'the first claim was not made').to.equal(true);
      });

      it('forgets the claims with the unit of work that throws', async () => {
        const entity = card();
        const eventId = nextId('ev');
        const other = nextId('ev');
        const failed = await rejectionOf(
          adapters().unitOfWork.run(entity.companyId, 'write', async () => {
            const answers = await ledger().claimEvents(
              [
                { source: SOURCE, eventId, companyId: entity.companyId, entity },
                { source: SOURCE, eventId: other, companyId: entity.companyId, entity: null },
              ],
              T0,
            );
            expect(answers.every((answer) => answer !== null)).to.equal(true);
            throw new Error('boom');
          }),
        );
        expect((failed as Error).message).to.equal('boom');
        expect(await claimOne(eventId, entity)).to.not.equal(null);
        expect(await ledger().claimEvent(SOURCE, other, entity.companyId, T0)).to.equal(true);
      });

      it('grants each event of two concurrent batches that share ids to exactly one of them', async () => {
        const companyId = nextId('co');
        const ids = [nextId('ev'), nextId('ev'), nextId('ev'), nextId('ev')];
        const batch = (eventIds: readonly string[]) =>
          adapters().unitOfWork.run(companyId, 'append', async () =>
            ledger().claimEvents(eventIds.map((eventId) => ({ source: SOURCE, eventId, companyId, entity: null })), T0),
          );
        const [one, two] = await Promise.all([batch([ids[0], ids[1], ids[2]] as string[]), batch([ids[3], ids[2], ids[1]] as string[])]);
        const grantedTo = (eventId: string) => [one[[ids[0], ids[1], ids[2]].indexOf(eventId)] ?? null, two[[ids[3], ids[2], ids[1]].indexOf(eventId)] ?? null].filter((answer) => answer !== null).length;
        expect(ids.map(grantedTo)).to.deep.equal([1, 1, 1, 1]);
      });
    });

    describe('recordAll', () => {
      it('has the effect of recordVersions and recordDeletion called one after another, in order', async () => {
        const companyId = nextId('co');
        const [x, y] = [card(companyId), card(companyId)];
        const [x2, y2] = [card(companyId), card(companyId)];
        await ledger().recordVersions(x, ['card'], 1, T0);
        await ledger().recordVersions(x2, ['card'], 1, T0);
        const steps = (one: FeedEntityRef, two: FeedEntityRef): FeedVersionRecord[] => [
          { type: 'versions', entity: one, aspects: ['stage', 'resume'], version: 4 },
          { type: 'versions', entity: one, aspects: ['stage'], version: 2 },
          { type: 'deletion', entity: two, version: 5 },
          { type: 'deletion', entity: one, version: 6 },
          { type: 'versions', entity: one, aspects: ['revived-after'], version: 6 },
          { type: 'versions', entity: one, aspects: ['card', 'card'], version: 9 },
          { type: 'deletion', entity: two, version: 3 },
        ];
        await ledger().recordAll(steps(x, y), T0);
        for (const step of steps(x2, y2)) {
          if (step.type === 'versions') await ledger().recordVersions(step.entity, step.aspects, step.version, T0);
          else await ledger().recordDeletion(step.entity, step.version, T0);
        }
        expect(plain(await ledger().versionsOf(x))).to.deep.equal({ aspects: { 'revived-after': 6, card: 9 }, deletedAt: null });
        expect(plain(await ledger().versionsOf(y))).to.deep.equal({ aspects: {}, deletedAt: 5 });
        expect(plain(await ledger().versionsOf(x))).to.deep.equal(plain(await ledger().versionsOf(x2)));
        expect(plain(await ledger().versionsOf(y))).to.deep.equal(plain(await ledger().versionsOf(y2)));
        await ledger().recordAll([], T0);
      });

      it('leaves what the records applied one after another leave, whatever they are, on whatever was stored (property)', async () => {
        // The model: a versions record revives the entity and raises its aspects; a deletion forgets them and raises the
        // tombstone.
        type Model = { aspects: Record<string, number>; deletedAt: number | null };
        const apply = (model: Model, record: FeedVersionRecord): Model => {
          if (record.type === 'deletion') return { aspects: {}, deletedAt: Math.max(model.deletedAt ?? record.version, record.version) };
          const aspects = { ...model.aspects };
          for (const aspect of record.aspects) aspects[aspect] = Math.max(aspects[aspect] ?? record.version, record.version);
          return { aspects, deletedAt: null };
        };
        const step = fc.oneof(
          fc.record({ type: fc.constant('versions' as const), on: fc.nat(2), aspects: fc.subarray(['card', 'stage', 'resume']), version: fc.integer({ min: 1, max: 9 }) }),
          fc.record({ type: fc.constant('deletion' as const), on: fc.nat(2), version: fc.integer({ min: 1, max: 9 }) }),
        );
        await fc.assert(
          fc.asyncProperty(fc.array(step, { maxLength: 6 }), fc.array(step, { minLength: 1, maxLength: 12 }), async (stored, batch) => {
            const companyId = nextId('co');
            const entities = [card(companyId), card(companyId), { companyId, kind: 'vacancy' as const, id: nextId('vac') }];
            const recordOf = (s: (typeof stored)[number]): FeedVersionRecord => {
              const entity = entities[s.on] as FeedEntityRef;
              return s.type === 'deletion' ? { type: 'deletion', entity, version: s.version } : { type: 'versions', entity, aspects: s.aspects, version: s.version };
            };
            for (const record of stored.map(recordOf)) await ledger().recordAll([record], T0);
            // In a unit of work, as the feed records a batch.
            await adapters().unitOfWork.run(companyId, 'write', () => ledger().recordAll(batch.map(recordOf), T0));
            for (const [n, entity] of entities.entries()) {
              const mine = [...stored, ...batch].filter((s) => s.on === n).map(recordOf);
              const read = await ledger().versionsOf(entity);
              expect(plain(read)).to.deep.equal(mine.reduce(apply, { aspects: {}, deletedAt: null }));
            }
          }),
          { numRuns: 60 },
        );
      });

      it('refuses a batch with a version that is no safe integer, or a reserved aspect, recording none of it', async () => {
        const entity = card();
        const good: FeedVersionRecord = { type: 'versions', entity, aspects: ['card'], version: 2 };
        expect(await rejectionOf(ledger().recordAll([good, { type: 'deletion', entity, version: 2 ** 53 }], T0))).to.be.instanceOf(RangeError);
        expect(await rejectionOf(ledger().recordAll([good, { type: 'versions', entity, aspects: ['#deleted'], version: 3 }], T0))).to.be.instanceOf(Error);
        expect(plain(await ledger().versionsOf(entity))).to.deep.equal({ aspects: {}, deletedAt: null });
      });

      it('undoes its records with the unit of work that throws', async () => {
        const entity = card();
        await ledger().recordVersions(entity, ['card'], 1, T0);
        const failure = adapters().unitOfWork.run(entity.companyId, 'write', async () => {
          await ledger().recordAll([{ type: 'versions', entity, aspects: ['stage'], version: 2 }, { type: 'deletion', entity, version: 3 }], T0);
          expect(plain(await ledger().versionsOf(entity)), 'seen inside its own transaction').to.deep.equal({ aspects: {}, deletedAt: 3 });
          throw new Error('boom');
        });
        expect(((await rejectionOf(failure)) as Error).message).to.equal('boom');
        expect(plain(await ledger().versionsOf(entity))).to.deep.equal({ aspects: { card: 1 }, deletedAt: null });
      });
    });

    describe('versions', () => {
      it('has no aspects and no deletion for an entity the feed never touched', async () => {
        expect(plain(await ledger().versionsOf(card()))).to.deep.equal({ aspects: {}, deletedAt: null });
      });

      it('keeps a version per aspect, never lowering one', async () => {
        const entity = card();
        await ledger().recordVersions(entity, ['card', 'stage', 'resume'], 1, T0);
        await ledger().recordVersions(entity, ['stage'], 5, T0);
        await ledger().recordVersions(entity, ['resume'], 3, T0);
        await ledger().recordVersions(entity, ['stage', 'resume'], 4, T0);
        expect(plain(await ledger().versionsOf(entity))).to.deep.equal({ aspects: { card: 1, stage: 5, resume: 4 }, deletedAt: null });
      });

      it('keeps the versions of each entity apart: by company, kind and id', async () => {
        const entity = card();
        await ledger().recordVersions(entity, ['card'], 2, T0);
        await ledger().recordVersions({ ...entity, kind: 'vacancy' }, ['vacancy'], 7, T0);
        expect(plain(await ledger().versionsOf(entity))).to.deep.equal({ aspects: { card: 2 }, deletedAt: null });
        expect(plain(await ledger().versionsOf({ ...entity, kind: 'vacancy' }))).to.deep.equal({ aspects: { vacancy: 7 }, deletedAt: null });
        expect(plain(await ledger().versionsOf({ ...entity, companyId: nextId('co') }))).to.deep.equal({ aspects: {}, deletedAt: null });
        expect(plain(await ledger().versionsOf({ ...entity, id: nextId('card') }))).to.deep.equal({ aspects: {}, deletedAt: null });
      });

      it('holds versions up to Number.MAX_SAFE_INTEGER exactly', async () => {
        const entity = card();
        await ledger().recordVersions(entity, ['card'], Number.MAX_SAFE_INTEGER, T0);
        await ledger().recordVersions(entity, ['stage'], Number.MAX_SAFE_INTEGER - 1, T0);
        expect(plain(await ledger().versionsOf(entity)).aspects).to.deep.equal({ card: Number.MAX_SAFE_INTEGER, stage: Number.MAX_SAFE_INTEGER - 1 });
      });

      it('refuses a version that is no safe integer, recording nothing', async () => {
        const entity = card();
        expect(await rejectionOf(ledger().recordVersions(entity, ['card'], 1.5, T0))).to.be.instanceOf(RangeError);
        expect(await rejectionOf(ledger().recordDeletion(entity, 2 ** 53, T0))).to.be.instanceOf(RangeError);
        expect(plain(await ledger().versionsOf(entity))).to.deep.equal({ aspects: {}, deletedAt: null });
      });

      it('forgets the aspects of a deleted entity and keeps a tombstone with the deletion\'s version', async () => {
        const entity = card();
        await ledger().recordVersions(entity, ['card', 'stage'], 3, T0);
        await ledger().recordVersions(entity, ['resume'], 9, T0);
        await ledger().recordDeletion(entity, 6, T0);
        expect(plain(await ledger().versionsOf(entity))).to.deep.equal({ aspects: {}, deletedAt: 6 });
      });

      it('tells which of many entities it versions: those with an aspect recorded, of the kind and company asked, not a tombstone alone', async () => {
        const companyId = nextId('co');
        const [versioned, revived, deleted, never] = [0, 1, 2, 3].map(() => card(companyId)) as [FeedEntityRef, FeedEntityRef, FeedEntityRef, FeedEntityRef];
        await ledger().recordVersions(versioned, ['card', 'stage'], 1, T0);
        await ledger().recordDeletion(revived, 2, T0);
        await ledger().recordVersions(revived, ['card'], 3, T0);
        await ledger().recordVersions(deleted, ['card'], 1, T0);
        await ledger().recordDeletion(deleted, 2, T0);
        await ledger().recordVersions({ companyId, kind: 'vacancy', id: never.id }, ['vacancy'], 1, T0);
        const ids = [versioned, revived, deleted, never].map((entity) => entity.id);
        expect([...(await ledger().versionedAmong(companyId, 'candidate', [...ids, versioned.id]))].sort()).to.deep.equal([versioned.id, revived.id].sort());
        expect((await ledger().versionedAmong(nextId('co'), 'candidate', ids)).size, 'another company').to.equal(0);
        expect((await ledger().versionedAmong(companyId, 'candidate', [])).size).to.equal(0);
        await adapters().unitOfWork.run(companyId, 'write', async () => {
          expect([...(await ledger().versionedAmong(companyId, 'vacancy', ids))], 'in a unit of work, of the kind asked').to.deep.equal([never.id]);
        });
      });

      it('tells it of however many entities (more than one statement\'s worth)', async () => {
        const companyId = nextId('co');
        const entities = Array.from({ length: 1_205 }, () => card(companyId));
        await ledger().recordAll(entities.map((entity) => ({ type: 'versions', entity, aspects: ['card'], version: 1 })), T0);
        expect((await ledger().versionedAmong(companyId, 'candidate', entities.map((entity) => entity.id))).size).to.equal(1_205);
      });

      it('keeps the later of two deletions\' versions', async () => {
        const entity = card();
        await ledger().recordDeletion(entity, 8, T0);
        await ledger().recordDeletion(entity, 4, T0);
        expect(plain(await ledger().versionsOf(entity))).to.deep.equal({ aspects: {}, deletedAt: 8 });
      });

      it('clears the tombstone when versions are recorded after the deletion (the entity lives again)', async () => {
        const entity = card();
        await ledger().recordVersions(entity, ['card'], 1, T0);
        await ledger().recordDeletion(entity, 2, T0);
        await ledger().recordVersions(entity, ['card', 'stage'], 3, T0);
        expect(plain(await ledger().versionsOf(entity))).to.deep.equal({ aspects: { card: 3, stage: 3 }, deletedAt: null });
      });

      it('undoes the versions and the tombstone recorded in a unit of work that throws', async () => {
        const entity = card();
        const deleted = card(entity.companyId);
        await ledger().recordVersions(entity, ['card'], 1, T0);
        await ledger().recordVersions(deleted, ['card'], 1, T0);
        const failure = adapters().unitOfWork.run(entity.companyId, 'write', async () => {
          await ledger().recordVersions(entity, ['card', 'stage'], 2, T0);
          await ledger().recordDeletion(deleted, 2, T0);
          expect(plain(await ledger().versionsOf(deleted)), 'seen inside its own transaction').to.deep.equal({ aspects: {}, deletedAt: 2 });
          throw new Error('boom');
        });
        expect(((await rejectionOf(failure)) as Error).message).to.equal('boom');
        expect(plain(await ledger().versionsOf(entity))).to.deep.equal({ aspects: { card: 1 }, deletedAt: null });
        expect(plain(await ledger().versionsOf(deleted))).to.deep.equal({ aspects: { card: 1 }, deletedAt: null });
      });
    });

    describe('purge', () => {
      // Long before the other tests' T0, so that the counts are this test's rows only.
      const BASE = new Date('1999-03-01T00:00:00.000Z');
      const day = (n: number) => new Date(BASE.getTime() + n * DAY_MS);

      it('forgets the event ids and tombstones recorded before the date, keeps the rest and every live entity\'s versions, and counts what it forgot', async () => {
        const companyId = nextId('co');
        const [old, boundary, recent] = [nextId('ev'), nextId('ev'), nextId('ev')];
        await ledger().claimEvent(SOURCE, old, companyId, day(0));
        await ledger().claimEvent(SOURCE, boundary, companyId, day(2));
        await ledger().claimEvent(SOURCE, recent, nextId('co'), day(3));
        const [gone, kept, live] = [card(companyId), card(companyId), card(companyId)];
        await ledger().recordDeletion(gone, 4, day(1));
        await ledger().recordDeletion(kept, 5, day(2));
        await ledger().recordVersions(live, ['card'], 6, day(0));

        expect(await ledger().purge(day(2))).to.deep.equal({ events: 1, tombstones: 1 });

        expect(await ledger().claimEvent(SOURCE, old, companyId, day(4)), 'forgotten').to.equal(true);
        expect(await ledger().claimEvent(SOURCE, boundary, companyId, day(4)), 'recorded at the date: kept').to.equal(false);
        expect(plain(await ledger().versionsOf(gone))).to.deep.equal({ aspects: {}, deletedAt: null });
        expect(plain(await ledger().versionsOf(kept))).to.deep.equal({ aspects: {}, deletedAt: 5 });
        expect(plain(await ledger().versionsOf(live))).to.deep.equal({ aspects: { card: 6 }, deletedAt: null });
        expect(await ledger().purge(day(2)), 'nothing left to forget').to.deep.equal({ events: 0, tombstones: 0 });
      });
    });
  });
}
