import { expect } from 'chai';
import { ChangeNotYetApplicableError, type PlatformChange, type PlatformEventOutcome } from '../../application/use-cases/platform-change.js';
import { rejectionOf } from '../support/catching.js';
import { anApplication, aPerson, aResume, aVacancyInput, nextId } from '../support/builders.js';
import { withWorld } from '../support/use-case-world.js';

const SOURCE = 'urn:platform:recruiting';

describe('ApplyPlatformEvent: deletions, and a card made again, its events in either order', () => {
  const world = withWorld();
  const feed = (companyId: string, subject: string, version: number, change: PlatformChange): Promise<PlatformEventOutcome> =>
    world().use('applyPlatformEvent').execute({ source: SOURCE, eventId: nextId('ev'), companyId, subject, version, change });
  const added = (vacancyId: string, stage: string, role: string): PlatformChange => ({
    type: 'candidate.added',
    card: { vacancyId, candidate: aPerson({ name: 'Ержан Сапаров' }), resume: aResume({ role }), referral: null, stage },
  });
  const deleted: PlatformChange = { type: 'candidate.deleted' };

  async function aCompanyWithTwoVacanciesAndACard(): Promise<string> {
    const companyId = await world().company();
    await feed(companyId, 'vac-1', 1, { type: 'vacancy.upserted', vacancy: aVacancyInput({ title: 'Бэкенд' }) });
    await feed(companyId, 'vac-2', 1, { type: 'vacancy.upserted', vacancy: aVacancyInput({ title: 'Фронтенд' }) });
    expect(await feed(companyId, 'card-1', 1, added('vac-1', 'NEW', 'Первая'))).to.equal('applied');
    return companyId;
  }
  const cardOf = async (companyId: string) => {
    const card = await world().candidate(companyId, 'card-1');
    return card === null || card === undefined ? null : { vacancyId: card.vacancyId, stage: card.stage, role: card.resume.role };
  };

  it('ends with the card made again when the new card comes before the late deletion', async () => {
    const companyId = await aCompanyWithTwoVacanciesAndACard();
    expect(await feed(companyId, 'card-1', 4, added('vac-2', 'INTERVIEW', 'Вторая'))).to.equal('applied');
    expect(await feed(companyId, 'card-1', 3, deleted)).to.equal('stale');
    expect(await cardOf(companyId)).to.deep.equal({ vacancyId: 'vac-2', stage: 'INTERVIEW', role: 'Вторая' });
  });

  it('ends in the same state when the deletion comes first', async () => {
    const companyId = await aCompanyWithTwoVacanciesAndACard();
    expect(await feed(companyId, 'card-1', 3, deleted)).to.equal('applied');
    expect(await feed(companyId, 'card-1', 4, added('vac-2', 'INTERVIEW', 'Вторая'))).to.equal('applied');
    expect(await cardOf(companyId)).to.deep.equal({ vacancyId: 'vac-2', stage: 'INTERVIEW', role: 'Вторая' });
  });

  it('calls a repeat of the first card under a new event id stale, and leaves the card as it is', async () => {
    const companyId = await aCompanyWithTwoVacanciesAndACard();
    await feed(companyId, 'card-1', 2, { type: 'candidate.moved', stage: 'OFFER' });
    expect(await feed(companyId, 'card-1', 1, added('vac-1', 'NEW', 'Первая'))).to.equal('stale');
    expect(await cardOf(companyId)).to.deep.equal({ vacancyId: 'vac-1', stage: 'OFFER', role: 'Первая' });
  });

  it('calls a move of a card whose vacancy was deleted stale (the deletion undid it) and leaves the card without a vacancy', async () => {
    const companyId = await aCompanyWithTwoVacanciesAndACard();
    expect(await feed(companyId, 'vac-1', 2, { type: 'vacancy.deleted' })).to.equal('applied');
    expect(await feed(companyId, 'card-1', 5, { type: 'candidate.moved', stage: 'OFFER' })).to.equal('stale');
    expect(await cardOf(companyId)).to.deep.equal({ vacancyId: null, stage: null, role: 'Первая' });
  });

  it('attaches an application to a vacancy made again after its deletion, when the new upsert comes before its wait is over', async () => {
    const companyId = await aCompanyWithTwoVacanciesAndACard();
    expect(await feed(companyId, 'vac-1', 2, { type: 'vacancy.deleted' })).to.equal('applied');
    const application = anApplication({ vacancyId: 'vac-1' });
    const eventId = nextId('ev');
    const take = () => world().use('applyPlatformEvent').execute({ source: SOURCE, eventId, companyId, subject: application.externalId, version: 0, change: { type: 'application.submitted', application } });
    expect(await rejectionOf(take())).to.be.instanceOf(ChangeNotYetApplicableError);
    expect(await feed(companyId, 'vac-1', 3, { type: 'vacancy.upserted', vacancy: aVacancyInput({ title: 'Снова' }) })).to.equal('applied');
    expect(await take()).to.equal('applied');
    const stored = (await world().allCandidates(companyId)).filter((card) => card.externalId === application.externalId);
    expect(stored.map((card) => [card.vacancyId, card.vacancyTitle])).to.deep.equal([['vac-1', 'Снова']]);
  });

  for (const over of [false, true]) {
    it(`${over ? 'calls a transfer to a vacancy deleted since stale once its wait is over' : 'waits with a transfer to a vacancy deleted since, and applies it once a newer upsert makes the vacancy again'}`, async () => {
      const companyId = await aCompanyWithTwoVacanciesAndACard();
      expect(await feed(companyId, 'vac-2', 2, { type: 'vacancy.deleted' })).to.equal('applied');
      const eventId = nextId('ev');
      const take = (revivalWaitOver: boolean) =>
        world().use('applyPlatformEvent').execute({ source: SOURCE, eventId, companyId, subject: 'card-1', version: 2, change: { type: 'candidate.transferred', vacancyId: 'vac-2' }, revivalWaitOver });
      if (over) {
        expect(await take(true)).to.equal('stale');
        expect(await cardOf(companyId)).to.deep.equal({ vacancyId: 'vac-1', stage: 'NEW', role: 'Первая' });
        return;
      }
      expect(await rejectionOf(take(false))).to.be.instanceOf(ChangeNotYetApplicableError);
      expect(await feed(companyId, 'vac-2', 3, { type: 'vacancy.upserted', vacancy: aVacancyInput({ title: 'Снова' }) })).to.equal('applied');
      expect(await take(false)).to.equal('applied');
      const technical = [...world().database.candidates.values()].filter((card) => card.originCardId === 'card-1');
      expect(technical.map((card) => [card.vacancyId, card.stage])).to.deep.equal([['vac-2', 'NEW']]);
    });
  }

  it('waits with a card added to a vacancy deleted since, and places it there once a newer upsert makes the vacancy again', async () => {
    const companyId = await aCompanyWithTwoVacanciesAndACard();
    expect(await feed(companyId, 'vac-2', 2, { type: 'vacancy.deleted' })).to.equal('applied');
    const eventId = nextId('ev');
    const take = () => world().use('applyPlatformEvent').execute({ source: SOURCE, eventId, companyId, subject: 'card-2', version: 1, change: added('vac-2', 'NEW', 'Вторая') });
    expect(await rejectionOf(take())).to.be.instanceOf(ChangeNotYetApplicableError);
    expect(await feed(companyId, 'vac-2', 3, { type: 'vacancy.upserted', vacancy: aVacancyInput({ title: 'Снова' }) })).to.equal('applied');
    expect(await take()).to.equal('applied');
    const card = await world().candidate(companyId, 'card-2');
    expect([card?.vacancyId, card?.vacancyTitle, card?.stage]).to.deep.equal(['vac-2', 'Снова', 'NEW']);
  });

  it('deletes nothing and leaves a tombstone for a card or vacancy it never saw, so the late event that made it is stale', async () => {
    const companyId = await aCompanyWithTwoVacanciesAndACard();
    expect(await feed(companyId, 'card-9', 2, deleted)).to.equal('applied');
    expect(await feed(companyId, 'vac-9', 2, { type: 'vacancy.deleted' })).to.equal('applied');
    expect(await feed(companyId, 'card-9', 1, added('vac-2', 'NEW', 'Поздняя'))).to.equal('stale');
    expect(await feed(companyId, 'vac-9', 1, { type: 'vacancy.upserted', vacancy: aVacancyInput({ title: 'Поздняя' }) })).to.equal('stale');
    expect(await cardOf(companyId)).to.deep.equal({ vacancyId: 'vac-1', stage: 'NEW', role: 'Первая' });
  });

  it('waits with an application to a vacancy deleted since, then, its wait over, stores it without a vacancy, once per externalId', async () => {
    const companyId = await aCompanyWithTwoVacanciesAndACard();
    expect(await feed(companyId, 'vac-1', 2, { type: 'vacancy.deleted' })).to.equal('applied');
    const application = anApplication({ vacancyId: 'vac-1' });
    const submitted: PlatformChange = { type: 'application.submitted', application };
    const overTake = (eventId: string) =>
      world().use('applyPlatformEvent').execute({ source: SOURCE, eventId, companyId, subject: application.externalId, version: 0, change: submitted, revivalWaitOver: true });
    // The vacancy may come back (a newer upsert on its way, the application taken after it): not yet.
    expect(await rejectionOf(feed(companyId, application.externalId, 0, submitted))).to.be.instanceOf(ChangeNotYetApplicableError);
    expect(await overTake(nextId('ev'))).to.equal('applied');
    expect(await overTake(nextId('ev')), 'the same application under another event id').to.equal('duplicate');
    expect((await world().use('submitApplication').execute({ companyId, application })).status).to.equal('duplicate');
    const stored = (await world().allCandidates(companyId)).filter((card) => card.externalId === application.externalId);
    expect(stored.map((card) => ({ vacancyId: card.vacancyId, stage: card.stage, name: card.person.name }))).to.deep.equal([
      { vacancyId: null, stage: null, name: application.candidate.name },
    ]);
  });
});

describe('ApplyPlatformEvent: a card, a transfer or an application to a deleted vacancy, told apart by the platform\'s times', () => {
  const world = withWorld();
  /** A platform time, `minutes` after nine. */
  const at = (minutes: number) => new Date(Date.UTC(2026, 10, 2, 9, minutes));
  const command = (companyId: string, subject: string, version: number, change: PlatformChange, time: Date | null, extra: { eventId?: string; revivalWaitOver?: boolean } = {}) => ({
    source: SOURCE,
    eventId: extra.eventId ?? nextId('ev'),
    companyId,
    subject,
    version,
    change,
    time,
    ...(extra.revivalWaitOver === undefined ? {} : { revivalWaitOver: extra.revivalWaitOver }),
  });
  const feed = (companyId: string, subject: string, version: number, change: PlatformChange, time: Date | null, extra: { eventId?: string; revivalWaitOver?: boolean } = {}) =>
    world().use('applyPlatformEvent').execute(command(companyId, subject, version, change, time, extra));
  const added = (vacancyId: string): PlatformChange => ({
    type: 'candidate.added',
    card: { vacancyId, candidate: aPerson({ name: 'Айгерим Касымова' }), resume: aResume({ role: 'Аналитик' }), referral: null, stage: 'NEW' },
  });
  const upserted = (title: string): PlatformChange => ({ type: 'vacancy.upserted', vacancy: aVacancyInput({ title }) });
  const vacancyDeleted: PlatformChange = { type: 'vacancy.deleted' };
  const placeOf = async (companyId: string, id: string) => {
    const card = await world().candidate(companyId, id);
    return card === null || card === undefined ? null : { vacancyId: card.vacancyId, stage: card.stage };
  };

  /** vac-1 made at 9:00 (version 1) and deleted at 9:10 (version 2), the deletion applied here. */
  async function aDeletedVacancy(): Promise<string> {
    const companyId = await world().company();
    await feed(companyId, 'vac-1', 1, upserted('Бэкенд'), at(0));
    expect(await feed(companyId, 'vac-1', 2, vacancyDeleted, at(10))).to.equal('applied');
    return companyId;
  }

  it('stores a card made before the deletion without a vacancy at once, without waiting for an upsert', async () => {
    const companyId = await aDeletedVacancy();
    expect(await feed(companyId, 'card-1', 1, added('vac-1'), at(5))).to.equal('applied');
    expect(await placeOf(companyId, 'card-1')).to.deep.equal({ vacancyId: null, stage: null });
    // Its own later events apply to it as to any card the deletion left.
    expect(await feed(companyId, 'card-1', 2, { type: 'candidate.resume-updated', resume: aResume({ role: 'Старший аналитик' }) }, at(6))).to.equal('applied');
    expect((await world().candidate(companyId, 'card-1'))?.resume.role).to.equal('Старший аналитик');
  });

  it('stores a card made before the deletion without a vacancy also when the vacancy, made again, came first', async () => {
    const companyId = await aDeletedVacancy();
    expect(await feed(companyId, 'vac-1', 3, upserted('Снова'), at(20))).to.equal('applied');
    expect(await feed(companyId, 'card-1', 1, added('vac-1'), at(5))).to.equal('applied');
    expect(await placeOf(companyId, 'card-1')).to.deep.equal({ vacancyId: null, stage: null });
  });

  it('waits with a card made after the deletion, and places it once the vacancy is made again; one made after, the vacancy back already, goes straight there', async () => {
    const companyId = await aDeletedVacancy();
    const eventId = nextId('ev');
    expect(await rejectionOf(feed(companyId, 'card-1', 1, added('vac-1'), at(25), { eventId }))).to.be.instanceOf(ChangeNotYetApplicableError);
    expect(await feed(companyId, 'vac-1', 3, upserted('Снова'), at(20))).to.equal('applied');
    expect(await feed(companyId, 'card-1', 1, added('vac-1'), at(25), { eventId })).to.equal('applied');
    expect(await feed(companyId, 'card-2', 1, added('vac-1'), at(30))).to.equal('applied');
    expect(await placeOf(companyId, 'card-1')).to.deep.equal({ vacancyId: 'vac-1', stage: 'NEW' });
    expect(await placeOf(companyId, 'card-2')).to.deep.equal({ vacancyId: 'vac-1', stage: 'NEW' });
  });

  it('goes by the latest deletion: made between two deletions, the card is left without a vacancy; made after the second, it is placed', async () => {
    const companyId = await aDeletedVacancy();
    await feed(companyId, 'vac-1', 3, upserted('Снова'), at(20));
    await feed(companyId, 'vac-1', 4, vacancyDeleted, at(30));
    await feed(companyId, 'vac-1', 5, upserted('И снова'), at(40));
    expect(await feed(companyId, 'card-1', 1, added('vac-1'), at(25))).to.equal('applied');
    expect(await feed(companyId, 'card-2', 1, added('vac-1'), at(45))).to.equal('applied');
    expect(await placeOf(companyId, 'card-1')).to.deep.equal({ vacancyId: null, stage: null });
    expect(await placeOf(companyId, 'card-2')).to.deep.equal({ vacancyId: 'vac-1', stage: 'NEW' });
  });

  it('calls a transfer made before the deletion of its target stale at once, whether the target lives again or not: no technical card', async () => {
    const companyId = await aDeletedVacancy();
    await feed(companyId, 'vac-2', 1, upserted('Фронтенд'), at(0));
    await feed(companyId, 'card-1', 1, added('vac-2'), at(1));
    const transfer: PlatformChange = { type: 'candidate.transferred', vacancyId: 'vac-1' };
    expect(await feed(companyId, 'card-1', 2, transfer, at(5))).to.equal('stale');
    await feed(companyId, 'vac-1', 3, upserted('Снова'), at(20));
    expect(await feed(companyId, 'card-1', 3, transfer, at(6))).to.equal('stale');
    expect([...world().database.candidates.values()].filter((card) => card.originCardId === 'card-1')).to.deep.equal([]);
  });

  it('stores an application made before the deletion without a vacancy at once, and also when the vacancy made again came first; once per externalId', async () => {
    const companyId = await aDeletedVacancy();
    const first = anApplication({ vacancyId: 'vac-1' });
    expect(await feed(companyId, first.externalId, 0, { type: 'application.submitted', application: first }, at(5))).to.equal('applied');
    await feed(companyId, 'vac-1', 3, upserted('Снова'), at(20));
    const second = anApplication({ vacancyId: 'vac-1' });
    expect(await feed(companyId, second.externalId, 0, { type: 'application.submitted', application: second }, at(6))).to.equal('applied');
    expect(await feed(companyId, second.externalId, 0, { type: 'application.submitted', application: second }, at(6)), 'another event id').to.equal('duplicate');
    const third = anApplication({ vacancyId: 'vac-1' });
    expect(await feed(companyId, third.externalId, 0, { type: 'application.submitted', application: third }, at(21))).to.equal('applied');
    const stored = (await world().allCandidates(companyId)).map((card) => [card.externalId, card.vacancyId]);
    expect(stored).to.have.deep.members([[first.externalId, null], [second.externalId, null], [third.externalId, 'vac-1']]);
  });

  it('waits as before when the times cannot tell: the card\'s time or the deletion\'s missing, or both alike', async () => {
    const companyId = await aDeletedVacancy();
    expect(await rejectionOf(feed(companyId, 'card-1', 1, added('vac-1'), null))).to.be.instanceOf(ChangeNotYetApplicableError);
    expect(await rejectionOf(feed(companyId, 'card-2', 1, added('vac-1'), at(10)))).to.be.instanceOf(ChangeNotYetApplicableError);
    await feed(companyId, 'vac-2', 1, upserted('Фронтенд'), at(0));
    await feed(companyId, 'vac-2', 2, vacancyDeleted, null);
    expect(await rejectionOf(feed(companyId, 'card-3', 1, added('vac-2'), at(5)))).to.be.instanceOf(ChangeNotYetApplicableError);
    // Its wait over, the deletion's way, as before.
    expect(await feed(companyId, 'card-3', 1, added('vac-2'), at(5), { revivalWaitOver: true })).to.equal('applied');
    expect(await placeOf(companyId, 'card-3')).to.deep.equal({ vacancyId: null, stage: null });
  });

  it('tells by a deletion applied earlier in the same batch, and keeps its time for the next batch', async () => {
    const companyId = await world().company();
    await feed(companyId, 'vac-1', 1, upserted('Бэкенд'), at(0));
    const outcomes = await world().use('applyPlatformEvent').executeAll([
      command(companyId, 'vac-1', 2, vacancyDeleted, at(10)),
      command(companyId, 'card-1', 1, added('vac-1'), at(5)),
      command(companyId, 'vac-1', 3, upserted('Снова'), at(20)),
      command(companyId, 'card-2', 1, added('vac-1'), at(7)),
    ]);
    expect(outcomes.map((outcome) => ('value' in outcome ? outcome.value : outcome.error))).to.deep.equal(['applied', 'applied', 'applied', 'applied']);
    expect(await feed(companyId, 'card-3', 1, added('vac-1'), at(8))).to.equal('applied');
    expect(await placeOf(companyId, 'card-1')).to.deep.equal({ vacancyId: null, stage: null });
    expect(await placeOf(companyId, 'card-2')).to.deep.equal({ vacancyId: null, stage: null });
    expect(await placeOf(companyId, 'card-3')).to.deep.equal({ vacancyId: null, stage: null });
  });

  describe('a deletion that comes after cards placed on the vacancy after it, or after the vacancy was made again', () => {
    /** vac-1 made at 9:00 (version 1) with card-old placed at 9:05; on the platform deleted at 9:10 (version 2) and made again at 9:20 (version 3). */
    async function aVacancyWithACard(): Promise<string> {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Бэкенд'), at(0));
      expect(await feed(companyId, 'card-old', 1, added('vac-1'), at(5))).to.equal('applied');
      return companyId;
    }
    const vacancyOf = async (companyId: string) => (await world().allVacancies(companyId)).map((vacancy) => vacancy.title);

    it('waits while the vacancy holds a card placed after the deletion, then, the vacancy made again, takes off only the cards placed before it', async () => {
      const companyId = await aVacancyWithACard();
      expect(await feed(companyId, 'card-new', 1, added('vac-1'), at(25))).to.equal('applied');
      const eventId = nextId('ev');
      expect(await rejectionOf(feed(companyId, 'vac-1', 2, vacancyDeleted, at(10), { eventId }))).to.be.instanceOf(ChangeNotYetApplicableError);
      expect(await placeOf(companyId, 'card-old'), 'nothing changed while it waits').to.deep.equal({ vacancyId: 'vac-1', stage: 'NEW' });
      expect(await feed(companyId, 'vac-1', 3, upserted('Снова'), at(20))).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 2, vacancyDeleted, at(10), { eventId })).to.equal('applied');
      expect(await placeOf(companyId, 'card-old')).to.deep.equal({ vacancyId: null, stage: null });
      expect(await placeOf(companyId, 'card-new')).to.deep.equal({ vacancyId: 'vac-1', stage: 'NEW' });
      expect(await vacancyOf(companyId)).to.deep.equal(['Снова']);
    });

    it('is applied as it comes once its wait is over: the vacancy deleted, every card without it', async () => {
      const companyId = await aVacancyWithACard();
      await feed(companyId, 'card-new', 1, added('vac-1'), at(25));
      expect(await feed(companyId, 'vac-1', 2, vacancyDeleted, at(10), { revivalWaitOver: true })).to.equal('applied');
      expect([await placeOf(companyId, 'card-old'), await placeOf(companyId, 'card-new')]).to.deep.equal([{ vacancyId: null, stage: null }, { vacancyId: null, stage: null }]);
      expect(await vacancyOf(companyId)).to.deep.equal([]);
    });

    it('does not wait for cards placed before it, at its time, or without a time', async () => {
      const companyId = await aVacancyWithACard();
      await feed(companyId, 'card-same', 1, added('vac-1'), at(10));
      await feed(companyId, 'card-untimed', 1, added('vac-1'), null);
      await world().use('submitApplication').execute({ companyId, application: anApplication({ vacancyId: 'vac-1' }) });
      expect(await feed(companyId, 'vac-1', 2, vacancyDeleted, at(10))).to.equal('applied');
      expect((await world().allCandidates(companyId)).map((card) => card.vacancyId)).to.deep.equal([null, null, null, null]);
    });

    it('takes off, when it comes after the upsert that made the vacancy again, the cards placed before it and keeps those placed after it', async () => {
      const companyId = await aVacancyWithACard();
      expect(await feed(companyId, 'vac-1', 3, upserted('Снова'), at(20))).to.equal('applied');
      expect(await feed(companyId, 'card-new', 1, added('vac-1'), at(25))).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 2, vacancyDeleted, at(10))).to.equal('applied');
      expect(await placeOf(companyId, 'card-old')).to.deep.equal({ vacancyId: null, stage: null });
      expect(await placeOf(companyId, 'card-new')).to.deep.equal({ vacancyId: 'vac-1', stage: 'NEW' });
      expect(await vacancyOf(companyId)).to.deep.equal(['Снова']);
      // Its time is the vacancy's floor from now on: a card or an application made before it goes without a vacancy.
      expect(await feed(companyId, 'card-late', 1, added('vac-1'), at(7))).to.equal('applied');
      const application = anApplication({ vacancyId: 'vac-1' });
      expect(await feed(companyId, application.externalId, 0, { type: 'application.submitted', application }, at(8))).to.equal('applied');
      expect(await placeOf(companyId, 'card-late')).to.deep.equal({ vacancyId: null, stage: null });
      expect((await world().allCandidates(companyId)).find((card) => card.externalId === application.externalId)?.vacancyId).to.equal(null);
      // And its version: a change of the vacancy made before it stays stale.
      expect(await feed(companyId, 'vac-1', 2, { type: 'board.columns-set', columns: ['NEW', 'OLD'] }, at(9))).to.equal('stale');
    });

    it('gives the vacancy made again the board of a new vacancy, unless a board change newer than the deletion set it', async () => {
      const companyId = await world().company();
      const columnsOf = (vacancyId: string) => [...world().database.boards.values()].find((board) => board.companyId === companyId && board.vacancyId === vacancyId)?.columns;
      const defaults = ['NEW', 'AI_DIALOG', 'INTERVIEW', 'OFFER', 'ONBOARDING', 'REJECTION'];
      for (const id of ['vac-1', 'vac-2']) {
        await feed(companyId, id, 1, upserted('Бэкенд'), at(0));
        expect(await feed(companyId, id, 2, { type: 'board.columns-set', columns: [...defaults, 'Резерв'] }, at(2))).to.equal('applied');
        // On the platform: deleted at 9:10 (version 3), made again at 9:20 (version 4); the deletion comes last.
        expect(await feed(companyId, id, 4, upserted('Снова'), at(20))).to.equal('applied');
      }
      expect(await feed(companyId, 'vac-2', 5, { type: 'board.columns-set', columns: [...defaults, 'Новая'] }, at(25))).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 3, vacancyDeleted, at(10))).to.equal('applied');
      expect(await feed(companyId, 'vac-2', 3, vacancyDeleted, at(10)), 'nothing of the deleted vacancy left').to.equal('stale');
      expect(columnsOf('vac-1')).to.deep.equal(defaults);
      expect(columnsOf('vac-2')).to.deep.equal([...defaults, 'Новая']);
    });

    it('takes off the technical card of a transfer made before it, and keeps the one of a transfer made after it', async () => {
      const companyId = await aVacancyWithACard();
      await feed(companyId, 'vac-2', 1, upserted('Фронтенд'), at(0));
      await feed(companyId, 'card-a', 1, added('vac-2'), at(1));
      await feed(companyId, 'card-b', 1, added('vac-2'), at(1));
      expect(await feed(companyId, 'card-a', 2, { type: 'candidate.transferred', vacancyId: 'vac-1' }, at(6))).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 3, upserted('Снова'), at(20))).to.equal('applied');
      expect(await feed(companyId, 'card-b', 2, { type: 'candidate.transferred', vacancyId: 'vac-1' }, at(22))).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 2, vacancyDeleted, at(10))).to.equal('applied');
      const technical = [...world().database.candidates.values()].filter((card) => card.technical).map((card) => [card.originCardId, card.vacancyId]);
      expect(technical).to.have.deep.members([['card-a', null], ['card-b', 'vac-1']]);
    });

    it('changes nothing when the times cannot tell (its own missing; a card without one stays) or a later deletion took the cards off already', async () => {
      const companyId = await aVacancyWithACard();
      await feed(companyId, 'vac-1', 3, upserted('Снова'), at(20));
      await feed(companyId, 'card-untimed', 1, added('vac-1'), null);
      await world().use('submitApplication').execute({ companyId, application: anApplication({ vacancyId: 'vac-1' }) });
      expect(await feed(companyId, 'vac-1', 2, vacancyDeleted, null)).to.equal('stale');
      expect(await placeOf(companyId, 'card-old')).to.deep.equal({ vacancyId: 'vac-1', stage: 'NEW' });
      expect(await feed(companyId, 'vac-1', 2, vacancyDeleted, at(10))).to.equal('applied');
      expect((await world().allCandidates(companyId)).map((card) => [card.id === 'card-old', card.vacancyId])).to.have.deep.members([[true, null], [false, 'vac-1'], [false, 'vac-1']]);
      expect(await feed(companyId, 'vac-1', 4, vacancyDeleted, at(30))).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 2, vacancyDeleted, at(10)), 'after a later deletion').to.equal('stale');
    });

    it('is stale once a later deletion of the vacancy was applied, leaving what came after that one as it is', async () => {
      const companyId = await aVacancyWithACard();
      // On the platform: deleted at 9:10 (version 2), made again at 9:20 (3), deleted at 9:30 (4), made again at 9:40 (5).
      expect(await feed(companyId, 'vac-1', 4, vacancyDeleted, at(30))).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 5, upserted('В третий раз'), at(40))).to.equal('applied');
      const columns = ['NEW', 'AI_DIALOG', 'INTERVIEW', 'OFFER', 'ONBOARDING', 'REJECTION', 'API'];
      await world().use('setBoardColumns').execute({ companyId, vacancyId: 'vac-1', columns });
      expect(await feed(companyId, 'card-new', 1, added('vac-1'), at(45))).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 2, vacancyDeleted, at(10))).to.equal('stale');
      expect([...world().database.boards.values()].find((board) => board.companyId === companyId && board.vacancyId === 'vac-1')?.columns).to.deep.equal(columns);
      expect([await placeOf(companyId, 'card-old'), await placeOf(companyId, 'card-new')]).to.deep.equal([{ vacancyId: null, stage: null }, { vacancyId: 'vac-1', stage: 'NEW' }]);
    });

    it('takes a repeated transfer\'s technical card as placed by the first transfer: a late deletion between the two takes it off', async () => {
      const companyId = await aVacancyWithACard();
      await feed(companyId, 'vac-2', 1, upserted('Фронтенд'), at(0));
      await feed(companyId, 'card-a', 1, added('vac-2'), at(1));
      const transfer: PlatformChange = { type: 'candidate.transferred', vacancyId: 'vac-1' };
      expect(await feed(companyId, 'card-a', 2, transfer, at(6))).to.equal('applied');
      // Transferred again at 9:22, after the vacancy was made again; the store finds its technical card there.
      expect(await feed(companyId, 'card-a', 3, transfer, at(22))).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 3, upserted('Снова'), at(20))).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 2, vacancyDeleted, at(10))).to.equal('applied');
      const technical = [...world().database.candidates.values()].filter((card) => card.technical).map((card) => [card.originCardId, card.vacancyId]);
      expect(technical).to.deep.equal([['card-a', null]]);
    });

    it('waits also for a technical card placed after it, by a transfer made after the vacancy was made again', async () => {
      const companyId = await aVacancyWithACard();
      await feed(companyId, 'vac-2', 1, upserted('Фронтенд'), at(0));
      await feed(companyId, 'card-b', 1, added('vac-2'), at(1));
      expect(await feed(companyId, 'card-b', 2, { type: 'candidate.transferred', vacancyId: 'vac-1' }, at(22))).to.equal('applied');
      expect(await rejectionOf(feed(companyId, 'vac-1', 2, vacancyDeleted, at(10)))).to.be.instanceOf(ChangeNotYetApplicableError);
    });

    it('takes the cards off when it comes late in the same batch as the upsert that made the vacancy again', async () => {
      const companyId = await aVacancyWithACard();
      const outcomes = await world().use('applyPlatformEvent').executeAll([
        command(companyId, 'vac-1', 3, upserted('Снова'), at(20)),
        command(companyId, 'card-new', 1, added('vac-1'), at(25)),
        command(companyId, 'vac-1', 2, vacancyDeleted, at(10)),
      ]);
      expect(outcomes.map((outcome) => ('value' in outcome ? outcome.value : outcome.error))).to.deep.equal(['applied', 'applied', 'applied']);
      expect([await placeOf(companyId, 'card-old'), await placeOf(companyId, 'card-new')]).to.deep.equal([{ vacancyId: null, stage: null }, { vacancyId: 'vac-1', stage: 'NEW' }]);
      expect(await feed(companyId, 'card-late', 1, added('vac-1'), at(8)), 'the floor it recorded, read by the next batch').to.equal('applied');
      expect(await placeOf(companyId, 'card-late')).to.deep.equal({ vacancyId: null, stage: null });
    });

    it('tells an application\'s card by its event\'s time: one made before it is taken off late, one made after it makes it wait', async () => {
      const companyId = await aVacancyWithACard();
      const before = anApplication({ vacancyId: 'vac-1' });
      const after = anApplication({ vacancyId: 'vac-1' });
      const submit = (application: typeof before, minutes: number) => feed(companyId, application.externalId, 0, { type: 'application.submitted', application }, at(minutes));
      expect(await submit(before, 7)).to.equal('applied');
      expect(await submit(after, 25)).to.equal('applied');
      const eventId = nextId('ev');
      expect(await rejectionOf(feed(companyId, 'vac-1', 2, vacancyDeleted, at(10), { eventId }))).to.be.instanceOf(ChangeNotYetApplicableError);
      expect(await feed(companyId, 'vac-1', 3, upserted('Снова'), at(20))).to.equal('applied');
      expect(await feed(companyId, 'vac-1', 2, vacancyDeleted, at(10), { eventId })).to.equal('applied');
      const placed = (await world().allCandidates(companyId)).map((card) => [card.externalId ?? card.id, card.vacancyId]);
      expect(placed).to.have.deep.members([['card-old', null], [before.externalId, null], [after.externalId, 'vac-1']]);
    });

    it('tells by a card placed earlier in the same batch', async () => {
      const companyId = await aVacancyWithACard();
      const outcomes = await world().use('applyPlatformEvent').executeAll([
        command(companyId, 'card-new', 1, added('vac-1'), at(25)),
        command(companyId, 'vac-1', 2, vacancyDeleted, at(10)),
      ]);
      expect(outcomes.map((outcome) => ('value' in outcome ? outcome.value : (outcome.error as Error).constructor.name))).to.deep.equal(['applied', 'ChangeNotYetApplicableError']);
      expect(await placeOf(companyId, 'card-old')).to.deep.equal({ vacancyId: 'vac-1', stage: 'NEW' });
    });
  });
});
