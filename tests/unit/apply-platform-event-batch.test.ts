import { expect } from 'chai';
import type { UnitOfWork } from '../../application/ports/unit-of-work.port.js';
import { BOARD_REPOSITORY } from '../../application/ports/board-repository.port.js';
import { feedHandlerTable } from '../../application/use-cases/feed/feed-handler-table.js';
import type { PlatformChangeHandlers } from '../../application/use-cases/feed/feed-dependencies.js';
import { CANDIDATE_REPOSITORY } from '../../application/ports/candidate-repository.port.js';
import { COMPANY_REPOSITORY } from '../../application/ports/company-repository.port.js';
import { FEED_LEDGER, type FeedLedger } from '../../application/ports/feed-ledger.port.js';
import { UNIT_OF_WORK } from '../../application/ports/unit-of-work.port.js';
import { VACANCY_REPOSITORY } from '../../application/ports/vacancy-repository.port.js';
import { ApplyPlatformEvent } from '../../application/use-cases/apply-platform-event.use-case.js';
import { resolve } from '../../infrastructure/container/typed-binding.js';
import { ChangeNotYetApplicableError, type PlatformChange, type PlatformEventCommand } from '../../application/use-cases/platform-change.js';
import { StoreUnavailableError } from '../../application/ports/store-unavailable.error.js';
import { aPerson, aResume, aVacancyInput, anApplication, nextId } from '../support/builders.js';
import { withWorld } from '../support/use-case-world.js';

const SOURCE = 'urn:platform:recruiting';

/** The world's unit of work, counted: how many units of work the batch took, and in which modes. */
function countingUnitOfWork(inner: UnitOfWork, runs: string[]): UnitOfWork {
  return {
    run: (companyId, mode, work) => {
      runs.push(mode);
      return inner.run(companyId, mode, work);
    },
  } as UnitOfWork;
}

describe('ApplyPlatformEvent.executeAll: one unit of work for the events of a company that queued together', () => {
  const world = withWorld();
  let runs: string[];

  /** ApplyPlatformEvent on the world's adapters and use cases, with its own unit of work `around` the world's. */
  function applierWith(
    unitOfWork: (inner: UnitOfWork) => UnitOfWork,
    replaced: Partial<PlatformChangeHandlers> = {},
    ledger: (inner: FeedLedger) => FeedLedger = (inner) => inner,
  ): ApplyPlatformEvent {
    const { container } = world();
    const handlers: PlatformChangeHandlers = {
      upsertVacancies: world().use('upsertVacancies'),
      setBoardColumns: world().use('setBoardColumns'),
      moveCandidate: world().use('moveCandidate'),
      transferCandidate: world().use('transferCandidate'),
      updateResume: world().use('updateResume'),
      deleteCandidate: world().use('deleteCandidate'),
      submitApplication: world().use('submitApplication'),
      ...replaced,
    };
    const candidates = resolve(container, CANDIDATE_REPOSITORY);
    return new ApplyPlatformEvent(
      resolve(container, COMPANY_REPOSITORY),
      candidates,
      ledger(resolve(container, FEED_LEDGER)),
      unitOfWork(resolve(container, UNIT_OF_WORK)),
      feedHandlerTable({ vacancies: resolve(container, VACANCY_REPOSITORY), boards: resolve(container, BOARD_REPOSITORY), candidates, useCases: handlers }),
    );
  }
  /** The units of work the batch takes are counted (the use cases it calls join them, uncounted). */
  function batchApplier(): ApplyPlatformEvent {
    runs = [];
    return applierWith((inner) => countingUnitOfWork(inner, runs));
  }
  const command = (companyId: string, subject: string, version: number, change: PlatformChange, eventId = nextId('ev')): PlatformEventCommand => ({
    source: SOURCE, eventId, companyId, subject, version, change,
  });
  const added = (vacancyId: string, stage: string): PlatformChange => ({
    type: 'candidate.added',
    card: { vacancyId, candidate: aPerson({ name: 'Айгерим Нурланова' }), resume: aResume({ role: 'Бэкенд' }), referral: null, stage },
  });

  it('applies the events in their order in one unit of work, each with its own outcome, a repeat within the batch a duplicate', async () => {
    const companyId = await world().company();
    const apply = batchApplier();
    const upsert = command(companyId, 'vac-1', 1, { type: 'vacancy.upserted', vacancy: aVacancyInput({ title: 'Бэкенд' }) });
    const application = anApplication({ vacancyId: 'vac-1' });
    const outcomes = await apply.executeAll([
      upsert,
      command(companyId, 'card-1', 1, added('vac-1', 'NEW')),
      command(companyId, 'card-1', 2, { type: 'candidate.moved', stage: 'OFFER' }),
      command(companyId, 'vac-1', 0, { type: 'vacancy.upserted', vacancy: aVacancyInput({ title: 'Старое' }) }),
      upsert,
      command(companyId, application.externalId, 0, { type: 'application.submitted', application }),
    ]);
    expect(outcomes).to.deep.equal([{ value: 'applied' }, { value: 'applied' }, { value: 'applied' }, { value: 'stale' }, { value: 'duplicate' }, { value: 'applied' }]);
    expect(runs).to.deep.equal(['write']);
    const cards = await world().allCandidates(companyId);
    expect(cards.map((card) => [card.vacancyTitle, card.stage]).sort()).to.deep.equal([['Бэкенд', 'NEW'], ['Бэкенд', 'OFFER']]);
  });

  it('claims every event of the batch in one call, checks each against the versions the batch recorded before it, and writes the versions once, at the end', async () => {
    const companyId = await world().company();
    const calls: string[] = [];
    const counted = (inner: FeedLedger): FeedLedger =>
      new Proxy(inner, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            calls.push(String(name));
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    const apply = applierWith((inner) => inner, {}, counted);
    const outcomes = await apply.executeAll([
      command(companyId, 'vac-1', 1, { type: 'vacancy.upserted', vacancy: aVacancyInput({ title: 'Бэкенд' }) }),
      command(companyId, 'card-1', 1, added('vac-1', 'NEW')),
      command(companyId, 'card-1', 3, { type: 'candidate.deleted' }),
      command(companyId, 'card-1', 2, { type: 'candidate.moved', stage: 'OFFER' }),
      command(companyId, 'card-1', 4, added('vac-1', 'INTERVIEW')),
      command(companyId, 'card-1', 3, { type: 'candidate.resume-updated', resume: aResume({ role: 'Старое' }) }),
      command(companyId, 'vac-2', 1, { type: 'vacancy.upserted', vacancy: aVacancyInput({ title: 'Фронтенд' }) }),
      command(companyId, 'vac-2', 2, { type: 'vacancy.deleted' }),
      // The platform took the card off the deleted vacancy it was transferred to: no technical card, the transfer stale when it comes.
      command(companyId, 'card-1', 6, { type: 'candidate.detached', vacancyId: 'vac-2' }),
      command(companyId, 'card-1', 5, { type: 'candidate.transferred', vacancyId: 'vac-2' }),
    ]);
    expect(outcomes.map((outcome) => ('value' in outcome ? outcome.value : outcome.error))).to.deep.equal([
      'applied', 'applied', 'applied', 'stale', 'applied', 'stale', 'applied', 'applied', 'applied', 'stale',
    ]);
    expect(calls, 'the target vacancy\'s deletion is known to the batch: no read of the ledger for it').to.deep.equal(['claimEvents', 'recordAll']);
    const ledger = resolve(world().container, FEED_LEDGER);
    const versions = await ledger.versionsOf({ companyId, kind: 'candidate', id: 'card-1' });
    expect({ aspects: Object.fromEntries(versions.aspects), deletedAt: versions.deletedAt }).to.deep.equal({
      aspects: { 'revived-after': 3, card: 4, stage: 4, resume: 4, vacancy: 4, 'transfer:vac-2': 6 },
      deletedAt: null,
    });
    expect((await ledger.versionsOf({ companyId, kind: 'vacancy', id: 'vac-2' })).deletedAt).to.equal(2);
    const cards = await world().allCandidates(companyId);
    expect(cards.map((card) => [card.id, card.vacancyTitle, card.stage])).to.deep.equal([['card-1', 'Бэкенд', 'INTERVIEW']]);
  });

  it('takes the company\'s lock exclusively for a batch of applications too (inserted one event after another, they could deadlock with a POST batch); one alone is an append', async () => {
    const companyId = await world().company();
    await world().use('applyPlatformEvent').execute(command(companyId, 'vac-1', 1, { type: 'vacancy.upserted', vacancy: aVacancyInput() }));
    const apply = batchApplier();
    const [a, b] = [anApplication({ vacancyId: 'vac-1' }), anApplication({ vacancyId: 'vac-1' })];
    const outcomes = await apply.executeAll([
      command(companyId, a.externalId, 0, { type: 'application.submitted', application: a }),
      command(companyId, b.externalId, 0, { type: 'application.submitted', application: b }),
    ]);
    expect(outcomes).to.deep.equal([{ value: 'applied' }, { value: 'applied' }]);
    expect(runs).to.deep.equal(['write']);
    const c = anApplication({ vacancyId: 'vac-1' });
    expect(await apply.executeAll([command(companyId, c.externalId, 0, { type: 'application.submitted', application: c })])).to.deep.equal([{ value: 'applied' }]);
    expect(runs).to.deep.equal(['write', 'append']);
  });

  it('undoes the batch when one event fails and splits it there: those before as a batch, the failing one alone, those after as a batch; nothing applied twice', async () => {
    const companyId = await world().company();
    const apply = batchApplier();
    const early = command(companyId, 'card-9', 2, { type: 'candidate.moved', stage: 'OFFER' });
    const batch = [
      command(companyId, 'vac-1', 1, { type: 'vacancy.upserted', vacancy: aVacancyInput({ title: 'Бэкенд' }) }),
      command(companyId, 'vac-2', 1, { type: 'vacancy.upserted', vacancy: aVacancyInput({ title: 'Фронтенд' }) }),
      early,
      command(companyId, 'card-1', 1, added('vac-1', 'NEW')),
      command(companyId, 'card-2', 1, added('vac-2', 'NEW')),
    ];
    const outcomes = await apply.executeAll(batch);
    expect(outcomes[0]).to.deep.equal({ value: 'applied' });
    expect(outcomes[1]).to.deep.equal({ value: 'applied' });
    expect((outcomes[2] as { error: unknown }).error).to.be.instanceOf(ChangeNotYetApplicableError);
    expect(outcomes.slice(3)).to.deep.equal([{ value: 'applied' }, { value: 'applied' }]);
    expect(runs, 'the batch; the two before it; the failing one; the two after it').to.deep.equal(['write', 'write', 'write', 'write']);
    // Undone, then applied once: a second delivery of each is a duplicate, and the early move applies once its card is there.
    expect(await apply.executeAll([batch[0] as PlatformEventCommand, batch[4] as PlatformEventCommand])).to.deep.equal([{ value: 'duplicate' }, { value: 'duplicate' }]);
    expect(await apply.executeAll([command(companyId, 'card-9', 1, added('vac-1', 'NEW')), early])).to.deep.equal([{ value: 'applied' }, { value: 'applied' }]);
    expect((await world().allCandidates(companyId)).map((card) => [card.id, card.stage]).sort()).to.deep.equal([['card-1', 'NEW'], ['card-2', 'NEW'], ['card-9', 'OFFER']]);
  });

  it('fails every event of the batch with the database away, without trying each alone', async () => {
    const companyId = await world().company();
    const away = new StoreUnavailableError('ECONNREFUSED');
    runs = [];
    const failing = applierWith(() => countingUnitOfWork({ run: async () => Promise.reject(away) } as unknown as UnitOfWork, runs));
    const changes = [1, 2, 3].map((version) => command(companyId, 'vac-1', version, { type: 'vacancy.upserted', vacancy: aVacancyInput() }));
    expect(await failing.executeAll(changes)).to.deep.equal([{ error: away }, { error: away }, { error: away }]);
    expect(runs, 'one unit of work, none for each alone').to.deep.equal(['write']);
  });

  it('fails every event of the batch with a timeout before any event (the company\'s lock held elsewhere), without trying each alone, which would wait for the lock again each', async () => {
    const companyId = await world().company();
    const lockTimedOut = new StoreUnavailableError('55P03', { workOnly: true });
    runs = [];
    const failing = applierWith(() => countingUnitOfWork({ run: async () => Promise.reject(lockTimedOut) } as unknown as UnitOfWork, runs));
    const changes = [1, 2, 3].map((version) => command(companyId, 'vac-1', version, { type: 'vacancy.upserted', vacancy: aVacancyInput() }));
    expect(await failing.executeAll(changes)).to.deep.equal([{ error: lockTimedOut }, { error: lockTimedOut }, { error: lockTimedOut }]);
    expect(runs, 'one unit of work, none for each alone').to.deep.equal(['write']);
  });

  it('splits the batch at a statement that timed out, which ends that work only: the events around it apply', async () => {
    const companyId = await world().company();
    const timedOut = new StoreUnavailableError('57014', { workOnly: true });
    const updateResume = world().use('updateResume');
    runs = [];
    const apply = applierWith(
      (inner) => countingUnitOfWork(inner, runs),
      { updateResume: { apply: async () => Promise.reject(timedOut) } as unknown as typeof updateResume },
    );
    const slow = command(companyId, 'card-1', 2, { type: 'candidate.resume-updated', resume: aResume({ role: 'Медленное' }) });
    const outcomes = await apply.executeAll([
      command(companyId, 'vac-1', 1, { type: 'vacancy.upserted', vacancy: aVacancyInput() }),
      slow,
      command(companyId, 'vac-2', 1, { type: 'vacancy.upserted', vacancy: aVacancyInput() }),
    ]);
    expect(outcomes).to.deep.equal([{ value: 'applied' }, { error: timedOut }, { value: 'applied' }]);
    expect(runs, 'the batch, then one for each part').to.deep.equal(['write', 'write', 'write', 'write']);
    expect((await world().allVacancies(companyId)).length).to.equal(2);
  });

  it('refuses a batch that mixes companies, and answers an empty one with nothing', async () => {
    const apply = batchApplier();
    const [one, other] = [await world().company(), await world().company()];
    const upsert = (companyId: string) => command(companyId, 'vac-1', 1, { type: 'vacancy.upserted', vacancy: aVacancyInput() });
    expect(await apply.executeAll([])).to.deep.equal([]);
    let refused: unknown;
    await apply.executeAll([upsert(one), upsert(other)]).catch((error: unknown) => (refused = error));
    expect((refused as Error).message).to.match(/one company/);
    expect(runs).to.deep.equal([]);
  });
});
