import { expect } from 'chai';
import { BOARD_REPOSITORY } from '../../application/ports/board-repository.port.js';
import type { PlatformChange, PlatformEventOutcome } from '../../application/use-cases/platform-change.js';
import { resolve } from '../../infrastructure/container/typed-binding.js';
import { aPerson, aResume, aVacancyInput, nextId } from '../support/builders.js';
import { withWorld } from '../support/use-case-world.js';

const SOURCE = 'urn:platform:recruiting';

/** The feed's merge rule (docs/adr/0016-platform-feed.md) on cases of entities deleted and made again. */
describe('ApplyPlatformEvent: one merge rule, per aspect the highest version', () => {
  const world = withWorld();

  function feed(companyId: string, subject: string, version: number, change: PlatformChange): Promise<PlatformEventOutcome> {
    return world().use('applyPlatformEvent').execute({ source: SOURCE, eventId: nextId('ev'), companyId, subject, version, change });
  }
  const upserted = (title: string): PlatformChange => ({ type: 'vacancy.upserted', vacancy: aVacancyInput({ title }) });
  const added = (vacancyId: string, name: string, stage = 'NEW'): PlatformChange => ({
    type: 'candidate.added',
    card: { vacancyId, candidate: aPerson({ name }), resume: aResume(), referral: null, stage },
  });
  const cardOf = async (companyId: string, id: string) => {
    const card = await world().candidate(companyId, id);
    return card === undefined ? null : { name: card.person.name, vacancyId: card.vacancyId, stage: card.stage };
  };
  /** Feeds the events; what must wait goes again, as the feed retries it (an event refused for good fails). How many still wait. */
  async function feedRetrying(companyId: string, events: readonly [string, number, PlatformChange][]): Promise<number> {
    let waiting = [...events];
    for (let round = 0; round < 5 && waiting.length > 0; round++) {
      const again: [string, number, PlatformChange][] = [];
      for (const event of waiting) {
        await feed(companyId, ...event).catch((error: { code?: unknown }) => {
          if (error.code !== 'not_yet_applicable') throw error;
          again.push(event);
        });
      }
      waiting = again;
    }
    return waiting.length;
  }
  const technicalCardsOf = (id: string) => [...world().database.candidates.values()].filter((card) => card.originCardId === id).map((card) => card.vacancyId);
  const columnsOf = async (companyId: string, vacancyId: string) => (await resolve(world().container, BOARD_REPOSITORY).find(companyId, vacancyId))?.columns ?? null;

  it('a card deleted and made again, the re-add and the move of the new card before the deletion: the new card, in the moved column', async () => {
    const companyId = await world().company();
    expect(await feed(companyId, 'vac-1', 1, upserted('Бэкенд'))).to.equal('applied');
    expect(await feed(companyId, 'card-1', 1, added('vac-1', 'Life one'))).to.equal('applied');
    expect(await feed(companyId, 'card-1', 4, { type: 'candidate.moved', stage: 'OFFER' })).to.equal('applied');
    expect(await feed(companyId, 'card-1', 3, added('vac-1', 'Life two'))).to.equal('applied');
    await feed(companyId, 'card-1', 2, { type: 'candidate.deleted' });
    expect(await cardOf(companyId, 'card-1')).to.deep.equal({ name: 'Life two', vacancyId: 'vac-1', stage: 'OFFER' });
  });

  it('the same five events in every order end in the same card', async () => {
    const events: [string, number, PlatformChange][] = [
      ['card-1', 1, added('vac-1', 'Life one')],
      ['card-1', 4, { type: 'candidate.moved', stage: 'OFFER' }],
      ['card-1', 3, added('vac-1', 'Life two')],
      ['card-1', 2, { type: 'candidate.deleted' }],
    ];
    for (const order of permutations([0, 1, 2, 3])) {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
      const waiting: [string, number, PlatformChange][] = [];
      for (const index of order) {
        const event = events[index] as [string, number, PlatformChange];
        // A move before its card waits, to be taken again by the feed's retry; nothing else is sent twice.
        await feed(companyId, ...event).catch(() => waiting.push(event));
      }
      for (const event of waiting) await feed(companyId, ...event);
      expect(await cardOf(companyId, 'card-1'), `order ${order.join(',')}`).to.deep.equal({ name: 'Life two', vacancyId: 'vac-1', stage: 'OFFER' });
    }
  });

  it('a card deleted and made again whose detach came before the deletion and the re-add: the new card, off the vacancy', async () => {
    const companyId = await world().company();
    await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
    expect(await feed(companyId, 'card-3', 1, added('vac-1', 'Life one', 'AI_DIALOG'))).to.equal('applied');
    // The platform: card-3 deleted (v2), made again on vac-1 (v3), then vac-1 deleted and card-3 detached (v4).
    expect(await feed(companyId, 'card-3', 4, { type: 'candidate.detached', vacancyId: 'vac-1' })).to.equal('applied');
    await feed(companyId, 'card-3', 2, { type: 'candidate.deleted' });
    expect(await feed(companyId, 'card-3', 3, added('vac-1', 'Life two', 'ONBOARDING'))).to.equal('applied');
    expect(await cardOf(companyId, 'card-3')).to.deep.equal({ name: 'Life two', vacancyId: null, stage: null });
  });

  it('a card made again on another vacancy whose detach from it came first, on the earlier life: the new card, off its vacancy', async () => {
    const companyId = await world().company();
    await feed(companyId, 'vac-1', 1, upserted('Одна'));
    await feed(companyId, 'vac-2', 1, upserted('Другая'));
    expect(await feed(companyId, 'card-1', 1, added('vac-1', 'Life one'))).to.equal('applied');
    // The platform: card-1 deleted (v2), made again on vac-2 (v3), then vac-2 deleted and card-1 detached (v4).
    expect(await feed(companyId, 'card-1', 4, { type: 'candidate.detached', vacancyId: 'vac-2' })).to.equal('applied');
    expect(await feed(companyId, 'card-1', 3, added('vac-2', 'Life two', 'INTERVIEW'))).to.equal('applied');
    await feed(companyId, 'card-1', 2, { type: 'candidate.deleted' });
    expect(await cardOf(companyId, 'card-1')).to.deep.equal({ name: 'Life two', vacancyId: null, stage: null });
  });

  it('a card made again on another vacancy and detached from it: the same four events in every order end off the vacancy', async () => {
    const events: [string, number, PlatformChange][] = [
      ['card-1', 1, added('vac-1', 'Life one')],
      ['card-1', 2, { type: 'candidate.deleted' }],
      ['card-1', 3, added('vac-2', 'Life two', 'INTERVIEW')],
      ['card-1', 4, { type: 'candidate.detached', vacancyId: 'vac-2' }],
    ];
    for (const order of permutations([0, 1, 2, 3])) {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Одна'));
      await feed(companyId, 'vac-2', 1, upserted('Другая'));
      const waiting: [string, number, PlatformChange][] = [];
      // A detach before any card waits, to be taken again by the feed's retry; nothing else is sent twice.
      for (const index of order) await feed(companyId, ...(events[index] as [string, number, PlatformChange])).catch(() => waiting.push(events[index] as [string, number, PlatformChange]));
      for (const event of waiting) await feed(companyId, ...event);
      expect(await cardOf(companyId, 'card-1'), `order ${order.join(',')}`).to.deep.equal({ name: 'Life two', vacancyId: null, stage: null });
    }
  });

  it('a card made again on another vacancy, transferred to its earlier one and detached from it: every order ends on the new vacancy', async () => {
    const events: [string, number, PlatformChange][] = [
      ['card-1', 1, added('vac-1', 'Life one')],
      ['card-1', 2, { type: 'candidate.deleted' }],
      ['card-1', 3, added('vac-2', 'Life two', 'INTERVIEW')],
      ['card-1', 4, { type: 'candidate.transferred', vacancyId: 'vac-1' }],
      ['card-1', 5, { type: 'candidate.detached', vacancyId: 'vac-1' }],
    ];
    for (const order of permutations([0, 1, 2, 3, 4])) {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Одна'));
      await feed(companyId, 'vac-2', 1, upserted('Другая'));
      const waiting = await feedRetrying(companyId, order.map((index) => events[index] as [string, number, PlatformChange]));
      const technical = [...world().database.candidates.values()].filter((card) => card.companyId === companyId && card.originCardId === 'card-1');
      expect({ card: await cardOf(companyId, 'card-1'), technical: technical.length, waiting }, `order ${order.join(',')}`).to.deep.equal({
        card: { name: 'Life two', vacancyId: 'vac-2', stage: 'INTERVIEW' },
        technical: 0,
        waiting: 0,
      });
    }
  });

  it('a card detached, deleted and made again on another vacancy, then moved: every order ends in the moved column', async () => {
    const events: [string, number, PlatformChange][] = [
      ['card-1', 1, added('vac-1', 'Life one')],
      ['card-1', 2, { type: 'candidate.detached', vacancyId: 'vac-1' }],
      ['card-1', 3, { type: 'candidate.deleted' }],
      ['card-1', 4, added('vac-2', 'Life two')],
      ['card-1', 5, { type: 'candidate.moved', stage: 'INTERVIEW' }],
    ];
    for (const order of permutations([0, 1, 2, 3, 4])) {
      const companyId = await world().company();
      await feed(companyId, 'vac-1', 1, upserted('Одна'));
      await feed(companyId, 'vac-2', 1, upserted('Другая'));
      const waiting = await feedRetrying(companyId, order.map((index) => events[index] as [string, number, PlatformChange]));
      expect({ card: await cardOf(companyId, 'card-1'), waiting }, `order ${order.join(',')}`).to.deep.equal({
        card: { name: 'Life two', vacancyId: 'vac-2', stage: 'INTERVIEW' },
        waiting: 0,
      });
    }
  });

  it('a vacancy deleted and made again whose new board came before the deletion and the upsert: the new board stays', async () => {
    const companyId = await world().company();
    await feed(companyId, 'vac-1', 1, upserted('Первая жизнь'));
    const columns = ['NEW', 'SCREEN', 'OFFER'];
    // The platform: vac-1 deleted (v2), made again (v3), its board set (v4).
    expect(await feed(companyId, 'vac-1', 4, { type: 'board.columns-set', columns })).to.equal('applied');
    await feed(companyId, 'vac-1', 2, { type: 'vacancy.deleted' });
    expect(await feed(companyId, 'vac-1', 3, upserted('Вторая жизнь'))).to.equal('applied');
    expect([...world().database.vacancies.values()].filter((v) => v.companyId === companyId).map((v) => [v.id, v.title])).to.deep.equal([['vac-1', 'Вторая жизнь']]);
    expect(await columnsOf(companyId, 'vac-1')).to.deep.equal(columns);
  });

  it('a vacancy deleted and made again: its card is taken off by its own detach event, and a card made after stays, whatever came first', async () => {
    const companyId = await world().company();
    await feed(companyId, 'vac-1', 1, upserted('Первая жизнь'));
    await feed(companyId, 'card-old', 1, added('vac-1', 'Old'));
    // The platform: vac-1 deleted (v2, card-old detached at its v2), made again (v3), card-new added on it.
    await feed(companyId, 'vac-1', 3, upserted('Вторая жизнь'));
    await feed(companyId, 'card-new', 1, added('vac-1', 'New', 'INTERVIEW'));
    expect(await feed(companyId, 'vac-1', 2, { type: 'vacancy.deleted' })).to.equal('stale');
    expect(await feed(companyId, 'card-old', 2, { type: 'candidate.detached', vacancyId: 'vac-1' })).to.equal('applied');
    expect(await cardOf(companyId, 'card-old')).to.deep.equal({ name: 'Old', vacancyId: null, stage: null });
    expect(await cardOf(companyId, 'card-new')).to.deep.equal({ name: 'New', vacancyId: 'vac-1', stage: 'INTERVIEW' });
  });

  it('a card added to a vacancy deleted here is placed as the platform placed it, and its detach event takes it off', async () => {
    const companyId = await world().company();
    await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
    await feed(companyId, 'vac-1', 2, { type: 'vacancy.deleted' });
    expect(await feed(companyId, 'card-1', 1, added('vac-1', 'Early'))).to.equal('applied');
    expect(await cardOf(companyId, 'card-1')).to.deep.equal({ name: 'Early', vacancyId: 'vac-1', stage: 'NEW' });
    expect(await feed(companyId, 'card-1', 2, { type: 'candidate.detached', vacancyId: 'vac-1' })).to.equal('applied');
    expect(await cardOf(companyId, 'card-1')).to.deep.equal({ name: 'Early', vacancyId: null, stage: null });
  });

  it('a detach of a transfer takes off its technical card, and the transfer arriving after it is stale', async () => {
    const companyId = await world().company();
    await feed(companyId, 'vac-1', 1, upserted('Одна'));
    await feed(companyId, 'vac-2', 1, upserted('Другая'));
    await feed(companyId, 'card-1', 1, added('vac-1', 'Card'));
    expect(await feed(companyId, 'card-1', 3, { type: 'candidate.detached', vacancyId: 'vac-2' })).to.equal('applied');
    expect(await feed(companyId, 'card-1', 2, { type: 'candidate.transferred', vacancyId: 'vac-2' })).to.equal('stale');
    expect(technicalCardsOf('card-1')).to.deep.equal([]);
    expect(await feed(companyId, 'card-1', 4, { type: 'candidate.transferred', vacancyId: 'vac-2' })).to.equal('applied');
    expect(technicalCardsOf('card-1')).to.deep.equal(['vac-2']);
    expect(await feed(companyId, 'card-1', 5, { type: 'candidate.detached', vacancyId: 'vac-2' })).to.equal('applied');
    expect(technicalCardsOf('card-1')).to.deep.equal([]);
  });

  it('a late deletion of a vacancy made again takes back a board of the earlier life, and leaves a board of the present one', async () => {
    const companyId = await world().company();
    await feed(companyId, 'vac-1', 1, upserted('Бэкенд'));
    await feed(companyId, 'vac-1', 2, { type: 'board.columns-set', columns: ['A', 'B'] });
    await feed(companyId, 'vac-1', 4, upserted('Снова'));
    expect(await feed(companyId, 'vac-1', 3, { type: 'vacancy.deleted' })).to.equal('applied');
    expect(await columnsOf(companyId, 'vac-1')).to.equal(null);
    expect(await feed(companyId, 'vac-1', 2, { type: 'board.columns-set', columns: ['A', 'B'] })).to.equal('stale');
    expect(await feed(companyId, 'vac-1', 5, { type: 'board.columns-set', columns: ['C'] })).to.equal('applied');
    expect(await feed(companyId, 'vac-1', 3, { type: 'vacancy.deleted' })).to.equal('stale');
    expect(await columnsOf(companyId, 'vac-1')).to.deep.equal(['C']);
  });

  it('a late card deletion takes off the technical cards of the earlier life', async () => {
    const companyId = await world().company();
    await feed(companyId, 'vac-1', 1, upserted('Одна'));
    await feed(companyId, 'vac-2', 1, upserted('Другая'));
    await feed(companyId, 'card-1', 1, added('vac-1', 'One'));
    await feed(companyId, 'card-1', 2, { type: 'candidate.transferred', vacancyId: 'vac-2' });
    await feed(companyId, 'card-1', 4, added('vac-1', 'Two'));
    expect(technicalCardsOf('card-1')).to.deep.equal(['vac-2']);
    expect(await feed(companyId, 'card-1', 3, { type: 'candidate.deleted' })).to.equal('applied');
    expect(technicalCardsOf('card-1')).to.deep.equal([]);
    expect(await cardOf(companyId, 'card-1')).to.deep.equal({ name: 'Two', vacancyId: 'vac-1', stage: 'NEW' });
  });
});

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) => permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]));
}
