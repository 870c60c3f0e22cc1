import { expect } from 'chai';
import { BOARD_REPOSITORY } from '../../application/ports/board-repository.port.js';
import { FEED_LEDGER } from '../../application/ports/feed-ledger.port.js';
import { ChangeNotYetApplicableError, type PlatformChange, type PlatformEventOutcome } from '../../application/use-cases/platform-change.js';
import { NotFoundError, ValidationError } from '../../domain/shared/domain-error.js';
import { resolve } from '../../infrastructure/container/typed-binding.js';
import { aPerson, aResume, aVacancyInput, anApplication, nextId } from '../support/builders.js';
import { rejectionOf } from '../support/catching.js';
import { withWorld } from '../support/use-case-world.js';

const SOURCE = 'urn:platform:recruiting';

describe('ApplyPlatformEvent (the platform feed)', () => {
  const world = withWorld();

  /** Applies one event; its id is new unless given (a redelivery repeats one). */
  function feed(companyId: string, subject: string, version: number, change: PlatformChange, eventId = nextId('ev')): Promise<PlatformEventOutcome> {
    return world().use('applyPlatformEvent').execute({ source: SOURCE, eventId, companyId, subject, version, change });
  }
  const upserted = (title: string): PlatformChange => ({ type: 'vacancy.upserted', vacancy: aVacancyInput({ title }) });
  const added = (vacancyId: string, extra: { stage?: string; name?: string } = {}): PlatformChange => ({
    type: 'candidate.added',
    card: { vacancyId, candidate: aPerson({ name: extra.name ?? 'Ержан Сапаров' }), resume: aResume(), referral: null, ...(extra.stage === undefined ? {} : { stage: extra.stage }) },
  });
  const vacancyTitles = async (companyId: string) => (await world().allVacancies(companyId)).map((v) => [v.id, v.title]);
  const columnsOf = async (companyId: string, vacancyId: string) => (await resolve(world().container, BOARD_REPOSITORY).find(companyId, vacancyId))?.columns ?? null;
  const technicalCardsOf = (id: string) => [...world().database.candidates.values()].filter((card) => card.originCardId === id);
  const versionsOf = async (companyId: string, kind: 'vacancy' | 'candidate', id: string) => {
    const versions = await resolve(world().container, FEED_LEDGER).versionsOf({ companyId, kind, id });
    return { aspects: Object.fromEntries(versions.aspects), deletedAt: versions.deletedAt };
  };

  /** A company with a vacancy `vac-1` (version 1) and a card `card-1` on it (version 1). */
  async function aCompanyWithACard(): Promise<string> {
    const companyId = await world().company();
    expect(await feed(companyId, 'vac-1', 1, upserted('Бэкенд'))).to.equal('applied');
    expect(await feed(companyId, 'card-1', 1, added('vac-1'))).to.equal('applied');
    return companyId;
  }

  describe('the effect of each type', () => {
    it('vacancy.upserted creates the vacancy under the subject id, then replaces it', async () => {
      const companyId = await world().company();
      expect(await feed(companyId, 'vac-1', 1, upserted('Бэкенд'))).to.equal('applied');
      expect(await vacancyTitles(companyId)).to.deep.equal([['vac-1', 'Бэкенд']]);
      expect(await feed(companyId, 'vac-1', 2, upserted('Фронтенд'))).to.equal('applied');
      expect(await vacancyTitles(companyId)).to.deep.equal([['vac-1', 'Фронтенд']]);
    });

    it('board.columns-set sets the board, and a card added without a column enters the first one', async () => {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
      expect(await feed(companyId, 'vac-1', 2, { type: 'board.columns-set', columns: ['Отклик', 'Интервью'] })).to.equal('applied');
      expect(await columnsOf(companyId, 'vac-1')).to.deep.equal(['Отклик', 'Интервью']);
      await feed(companyId, 'card-1', 1, added('vac-1'));
      expect((await world().candidate(companyId, 'card-1'))?.stage).to.equal('Отклик');
    });

    it('candidate.added makes a manual card with the platform\'s id in the column it names', async () => {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
      expect(await feed(companyId, 'card-1', 1, added('vac-1', { stage: 'INTERVIEW', name: 'Айгерим' }))).to.equal('applied');
      expect(await world().candidate(companyId, 'card-1')).to.deep.include({ vacancyId: 'vac-1', vacancyTitle: 'Бэкенд', stage: 'INTERVIEW', source: 'manual' });
      expect((await world().candidate(companyId, 'card-1'))?.person.name).to.equal('Айгерим');
    });

    it('candidate.moved, candidate.resume-updated and candidate.transferred change the card as the API would', async () => {
      const companyId = await aCompanyWithACard();
      await feed(companyId, 'vac-2', 1, upserted('Другая'));
      expect(await feed(companyId, 'card-1', 2, { type: 'candidate.moved', stage: 'OFFER' })).to.equal('applied');
      expect(await feed(companyId, 'card-1', 3, { type: 'candidate.resume-updated', resume: aResume({ role: 'Team lead' }) })).to.equal('applied');
      expect(await feed(companyId, 'card-1', 4, { type: 'candidate.transferred', vacancyId: 'vac-2' })).to.equal('applied');
      const card = await world().candidate(companyId, 'card-1');
      expect(card).to.deep.include({ stage: 'OFFER', vacancyId: 'vac-1' });
      expect(card?.resume.role).to.equal('Team lead');
      expect(technicalCardsOf('card-1').map((t) => [t.vacancyId, t.stage])).to.deep.equal([['vac-2', 'NEW']]);
    });

    it('candidate.deleted removes the card', async () => {
      const companyId = await aCompanyWithACard();
      expect(await feed(companyId, 'card-1', 2, { type: 'candidate.deleted' })).to.equal('applied');
      expect(await world().allCandidates(companyId)).to.deep.equal([]);
    });

    it('vacancy.deleted removes the vacancy and detaches the cards the platform does not version; the platform\'s cards go by their own candidate.detached', async () => {
      const companyId = await aCompanyWithACard();
      const application = anApplication({ vacancyId: 'vac-1' });
      await feed(companyId, application.externalId, 0, { type: 'application.submitted', application });
      expect(await feed(companyId, 'vac-1', 2, { type: 'vacancy.deleted' })).to.equal('applied');
      expect(await world().allVacancies(companyId)).to.deep.equal([]);
      const applied = (await world().allCandidates(companyId)).find((card) => card.externalId === application.externalId);
      expect(applied).to.deep.include({ vacancyId: null, stage: null });
      expect(await world().candidate(companyId, 'card-1')).to.deep.include({ vacancyId: 'vac-1', vacancyTitle: null, stage: 'NEW' });
      expect(await feed(companyId, 'card-1', 2, { type: 'candidate.detached', vacancyId: 'vac-1' })).to.equal('applied');
      expect(await world().candidate(companyId, 'card-1')).to.deep.include({ vacancyId: null, vacancyTitle: null, stage: null });
    });

    it('application.submitted makes a card as POST /applications does', async () => {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
      const application = anApplication({ vacancyId: 'vac-1', source: 'hh.kz' });
      expect(await feed(companyId, application.externalId, 0, { type: 'application.submitted', application })).to.equal('applied');
      const cards = await world().allCandidates(companyId);
      expect(cards.map((c) => [c.externalId, c.vacancyId, c.stage, c.source])).to.deep.equal([[application.externalId, 'vac-1', 'NEW', 'hh.kz']]);
    });

    it('application.submitted with a source the platform gives its own cards is refused, as POST /applications refuses it', async () => {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
      for (const source of ['manual', 'Manual ', 'HH']) {
        const application = anApplication({ vacancyId: 'vac-1', source });
        const error = await rejectionOf(feed(companyId, application.externalId, 0, { type: 'application.submitted', application }));
        expect(error, source).to.be.instanceOf(ValidationError);
        expect((error as ValidationError).problems.map((problem) => problem.pointer)).to.deep.equal(['/source']);
      }
      expect(await world().allCandidates(companyId)).to.deep.equal([]);
    });
  });

  describe('exactly once', () => {
    it('applies an event delivered twice once: the second is a duplicate and changes nothing', async () => {
      const companyId = await aCompanyWithACard();
      const eventId = nextId('ev');
      expect(await feed(companyId, 'card-1', 2, { type: 'candidate.moved', stage: 'OFFER' }, eventId)).to.equal('applied');
      const before = await world().candidate(companyId, 'card-1');
      world().clock.advance(60_000);
      expect(await feed(companyId, 'card-1', 2, { type: 'candidate.moved', stage: 'OFFER' }, eventId)).to.equal('duplicate');
      expect(await world().candidate(companyId, 'card-1')).to.deep.equal(before);
    });

    it('knows an event by its id alone: a repeat carrying another change is still a duplicate', async () => {
      const companyId = await world().company();
      const eventId = nextId('ev');
      expect(await feed(companyId, 'vac-1', 1, upserted('Бэкенд'), eventId)).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 2, upserted('Фронтенд'), eventId)).to.equal('duplicate');
      expect(await vacancyTitles(companyId)).to.deep.equal([['vac-1', 'Бэкенд']]);
    });
  });

  describe('in any order', () => {
    it('keeps version 2 when version 1 comes after it, and calls 1 stale', async () => {
      const companyId = await world().company();
      expect(await feed(companyId, 'vac-1', 2, upserted('Вторая'))).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 1, upserted('Первая'))).to.equal('stale');
      expect(await feed(companyId, 'vac-1', 2, upserted('Снова вторая'))).to.equal('stale');
      expect(await vacancyTitles(companyId)).to.deep.equal([['vac-1', 'Вторая']]);
    });

    it('keeps a deleted vacancy deleted when an older upsert comes late, and lets a newer one bring it back', async () => {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Первая'));
      expect(await feed(companyId, 'vac-1', 3, { type: 'vacancy.deleted' })).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 2, upserted('Поздняя'))).to.equal('stale');
      expect(await world().allVacancies(companyId)).to.deep.equal([]);
      expect(await feed(companyId, 'vac-1', 4, upserted('Новая'))).to.equal('applied');
      expect(await vacancyTitles(companyId)).to.deep.equal([['vac-1', 'Новая']]);
    });

    it('leaves a tombstone for the deletion of something it never saw, so the older events that made it are stale', async () => {
      const companyId = await world().company();
      expect(await feed(companyId, 'card-9', 5, { type: 'candidate.deleted' })).to.equal('applied');
      expect(await versionsOf(companyId, 'candidate', 'card-9')).to.deep.equal({ aspects: {}, deletedAt: 5 });
      await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
      expect(await feed(companyId, 'card-9', 1, added('vac-1'))).to.equal('stale');
      expect(await feed(companyId, 'card-9', 3, { type: 'candidate.moved', stage: 'OFFER' })).to.equal('stale');
      expect(await world().allCandidates(companyId)).to.deep.equal([]);
    });

    it('calls a deletion older than the card\'s present life (made again, the re-add first) stale, and deletes nothing', async () => {
      const companyId = await aCompanyWithACard();
      await feed(companyId, 'card-1', 4, added('vac-1', { stage: 'OFFER' }));
      expect(await feed(companyId, 'card-1', 3, { type: 'candidate.deleted' })).to.equal('stale');
      expect((await world().candidate(companyId, 'card-1'))?.stage).to.equal('OFFER');
    });

    it('keeps the changes made before a deletion stale after the entity lives again (a board set before the vacancy was deleted)', async () => {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Первая'));
      await feed(companyId, 'vac-1', 2, { type: 'board.columns-set', columns: ['Отклик', 'Интервью'] });
      await feed(companyId, 'vac-1', 5, { type: 'vacancy.deleted' });
      expect(await feed(companyId, 'vac-1', 6, upserted('Снова'))).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 3, { type: 'board.columns-set', columns: ['Поздняя'] }), 'set before the deletion').to.equal('stale');
      expect(await columnsOf(companyId, 'vac-1')).to.deep.equal(['NEW', 'AI_DIALOG', 'INTERVIEW', 'OFFER', 'ONBOARDING', 'REJECTION']);
      expect(await feed(companyId, 'vac-1', 7, { type: 'board.columns-set', columns: ['Новая'] })).to.equal('applied');
      expect(await columnsOf(companyId, 'vac-1')).to.deep.equal(['Новая']);
    });

    it('keeps a transfer made before a card\'s deletion stale after the card is added again', async () => {
      const companyId = await aCompanyWithACard();
      await feed(companyId, 'vac-2', 1, upserted('Другая'));
      await feed(companyId, 'card-1', 5, { type: 'candidate.deleted' });
      expect(await feed(companyId, 'card-1', 6, added('vac-1'))).to.equal('applied');
      expect(await feed(companyId, 'card-1', 3, { type: 'candidate.transferred', vacancyId: 'vac-2' })).to.equal('stale');
      expect(technicalCardsOf('card-1')).to.deep.equal([]);
    });

    it('places a card in the column the platform names even when the board here lacks it: a removal that came first waits for no event', async () => {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
      // On the platform: the card entered NEW (card v1), moved to OFFER (card v2), then NEW was removed (board v2).
      expect(await feed(companyId, 'vac-1', 2, { type: 'board.columns-set', columns: ['OFFER', 'REJECTION'] })).to.equal('applied');
      expect(await feed(companyId, 'card-1', 1, added('vac-1', { stage: 'NEW' }))).to.equal('applied');
      expect((await world().candidate(companyId, 'card-1'))?.stage).to.equal('NEW');
      expect(await feed(companyId, 'card-1', 2, { type: 'candidate.moved', stage: 'OFFER' })).to.equal('applied');
      expect((await world().candidate(companyId, 'card-1'))?.stage).to.equal('OFFER');
    });

    it('places a card in a column that a board change still on its way adds, and that change then applies', async () => {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
      expect(await feed(companyId, 'card-1', 1, added('vac-1', { stage: 'Скрининг' }))).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 2, { type: 'board.columns-set', columns: ['NEW', 'Скрининг'] })).to.equal('applied');
      expect((await world().candidate(companyId, 'card-1'))?.stage).to.equal('Скрининг');
    });

    it('refuses a board change that removes a column a card still stands in as not yet applicable (the card\'s move is on its way)', async () => {
      const companyId = await aCompanyWithACard();
      const columns: PlatformChange = { type: 'board.columns-set', columns: ['OFFER'] };
      const eventId = nextId('ev');
      expect(await rejectionOf(feed(companyId, 'vac-1', 2, columns, eventId))).to.be.instanceOf(ChangeNotYetApplicableError);
      await feed(companyId, 'card-1', 2, { type: 'candidate.moved', stage: 'OFFER' });
      expect(await feed(companyId, 'vac-1', 2, columns, eventId)).to.equal('applied');
    });

    for (const order of ['move first', 'resume first'] as const) {
      it(`applies a move and a resume update of one card, whichever comes first (${order})`, async () => {
        const companyId = await aCompanyWithACard();
        const move = () => feed(companyId, 'card-1', 2, { type: 'candidate.moved', stage: 'INTERVIEW' });
        const resume = () => feed(companyId, 'card-1', 3, { type: 'candidate.resume-updated', resume: aResume({ role: 'Architect' }) });
        const outcomes = order === 'move first' ? [await move(), await resume()] : [await resume(), await move()];
        expect(outcomes).to.deep.equal(['applied', 'applied']);
        const card = await world().candidate(companyId, 'card-1');
        expect(card?.stage).to.equal('INTERVIEW');
        expect(card?.resume.role).to.equal('Architect');
      });
    }

    it('refuses a move that comes before its card as not yet applicable, records nothing, and applies the same event once the card is there', async () => {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
      const eventId = nextId('ev');
      const early = await rejectionOf(feed(companyId, 'card-1', 2, { type: 'candidate.moved', stage: 'OFFER' }, eventId));
      expect(early).to.be.instanceOf(ChangeNotYetApplicableError);
      expect(await versionsOf(companyId, 'candidate', 'card-1')).to.deep.equal({ aspects: {}, deletedAt: null });
      expect(await feed(companyId, 'card-1', 1, added('vac-1'))).to.equal('applied');
      expect(await feed(companyId, 'card-1', 2, { type: 'candidate.moved', stage: 'OFFER' }, eventId)).to.equal('applied');
      expect((await world().candidate(companyId, 'card-1'))?.stage).to.equal('OFFER');
    });

    it('places a card added after its vacancy\'s deletion was applied as the platform placed it: its own detach event takes it off', async () => {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
      await feed(companyId, 'vac-1', 2, { type: 'vacancy.deleted' });
      expect(await feed(companyId, 'card-1', 1, added('vac-1', { stage: 'OFFER' }))).to.equal('applied');
      expect(await world().candidate(companyId, 'card-1')).to.deep.include({ vacancyId: 'vac-1', stage: 'OFFER' });
      expect(await feed(companyId, 'card-1', 2, { type: 'candidate.detached', vacancyId: 'vac-1' })).to.equal('applied');
      expect(await world().candidate(companyId, 'card-1')).to.deep.include({ vacancyId: null, stage: null });
      expect(await feed(companyId, 'card-1', 2, { type: 'candidate.moved', stage: 'INTERVIEW' })).to.equal('stale');
    });

    it('places a card whose vacancy it has not seen yet where the platform placed it, without waiting for the vacancy', async () => {
      const companyId = await world().company();
      expect(await feed(companyId, 'card-1', 1, added('vac-later', { stage: 'NEW' }))).to.equal('applied');
      expect((await world().allCandidates(companyId)).map((card) => [card.id, card.vacancyId])).to.deep.equal([['card-1', 'vac-later']]);
    });

    it('refuses a board change that comes before its vacancy as not yet applicable, and applies it after', async () => {
      const companyId = await world().company();
      const eventId = nextId('ev');
      const columns: PlatformChange = { type: 'board.columns-set', columns: ['Отклик'] };
      expect(await rejectionOf(feed(companyId, 'vac-1', 2, columns, eventId))).to.be.instanceOf(ChangeNotYetApplicableError);
      await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
      expect(await feed(companyId, 'vac-1', 2, columns, eventId)).to.equal('applied');
      expect(await columnsOf(companyId, 'vac-1')).to.deep.equal(['Отклик']);
    });
  });

  describe('applications', () => {
    for (const first of ['the feed', 'POST /applications'] as const) {
      it(`makes one card of an application.submitted and a POST /applications with one externalId (${first} first)`, async () => {
        const companyId = await world().company();
        await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
        const application = anApplication({ vacancyId: 'vac-1' });
        const viaFeed = () => feed(companyId, application.externalId, 0, { type: 'application.submitted', application });
        const viaApi = () => world().use('submitApplication').execute({ companyId, application });
        if (first === 'the feed') {
          expect(await viaFeed()).to.equal('applied');
          expect((await viaApi()).status).to.equal('duplicate');
        } else {
          expect((await viaApi()).status).to.equal('created');
          expect(await viaFeed()).to.equal('duplicate');
        }
        expect((await world().allCandidates(companyId)).map((c) => c.externalId)).to.deep.equal([application.externalId]);
      });
    }

    it('answers a redelivered application.submitted as a duplicate', async () => {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
      const application = anApplication({ vacancyId: 'vac-1' });
      const eventId = nextId('ev');
      expect(await feed(companyId, application.externalId, 0, { type: 'application.submitted', application }, eventId)).to.equal('applied');
      expect(await feed(companyId, application.externalId, 0, { type: 'application.submitted', application }, eventId)).to.equal('duplicate');
      expect(await world().allCandidates(companyId)).to.have.length(1);
    });

    it('refuses an application to a vacancy it has not seen as not yet applicable, and applies the same event after', async () => {
      const companyId = await world().company();
      const application = anApplication({ vacancyId: 'vac-1' });
      const eventId = nextId('ev');
      const submitted: PlatformChange = { type: 'application.submitted', application };
      expect(await rejectionOf(feed(companyId, application.externalId, 0, submitted, eventId))).to.be.instanceOf(ChangeNotYetApplicableError);
      await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
      expect(await feed(companyId, application.externalId, 0, submitted, eventId)).to.equal('applied');
    });
  });

  describe('PurgeFeedRecords', () => {
    it('forgets the event ids and tombstones older than the retention, so a redelivery after it applies again', async () => {
      const companyId = await world().company();
      const eventId = nextId('ev');
      await feed(companyId, 'vac-1', 1, upserted('Первая'), eventId);
      await feed(companyId, 'vac-2', 4, { type: 'vacancy.deleted' });
      world().clock.advance(7 * 86_400_000);
      const recent = nextId('ev');
      await feed(companyId, 'vac-3', 1, upserted('Третья'), recent);
      world().clock.advance(1000);
      expect(await world().use('purgeFeedRecords').execute({ retentionDays: 7 })).to.deep.equal({ events: 2, tombstones: 1 });
      expect(await versionsOf(companyId, 'vacancy', 'vac-2')).to.deep.equal({ aspects: {}, deletedAt: null });
      expect(await feed(companyId, 'vac-3', 1, upserted('Третья'), recent), 'kept').to.equal('duplicate');
      expect(await feed(companyId, 'vac-1', 1, upserted('Первая'), eventId), 'forgotten, and stale by its version').to.equal('stale');
    });

    it('refuses a retention that is not a whole number of days, at least one, and purges nothing', async () => {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Первая'));
      world().clock.advance(86_400_000);
      for (const retentionDays of [0, 0.5, -1, Number.NaN]) {
        expect(await rejectionOf(world().use('purgeFeedRecords').execute({ retentionDays })), String(retentionDays)).to.be.instanceOf(RangeError);
      }
      expect(await world().use('purgeFeedRecords').execute({ retentionDays: 1 })).to.deep.equal({ events: 0, tombstones: 0 });
    });
  });

  describe('events that can never apply', () => {
    it('refuses an unknown company with NotFoundError(company)', async () => {
      const error = await rejectionOf(feed('no-such-company', 'vac-1', 1, upserted('Бэкенд')));
      expect(error).to.be.instanceOf(NotFoundError).and.include({ resource: 'company' });
    });

    it('lets a change that breaks a rule fail as itself, and records nothing of it', async () => {
      const companyId = await world().company();
      const eventId = nextId('ev');
      const invalid: PlatformChange = { type: 'vacancy.upserted', vacancy: aVacancyInput({ title: '' }) };
      expect(await rejectionOf(feed(companyId, 'vac-1', 1, invalid, eventId))).to.be.instanceOf(ValidationError);
      expect(await versionsOf(companyId, 'vacancy', 'vac-1')).to.deep.equal({ aspects: {}, deletedAt: null });
      expect(await feed(companyId, 'vac-1', 1, upserted('Исправлено'), eventId), 'its id was not kept').to.equal('applied');
    });
  });
});
