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
