import type { FeedDependencies } from './feed-dependencies.js';
import { BOARD, floorOf, type FeedHandler } from './feed-event.js';

/**
 * `vacancy.deleted`. The latest of the vacancy's creating and deleting events decides whether it exists; as the
 * latest, the deletion removes the vacancy and its board, and takes off it the cards the platform does not
 * version (applications' cards, this service's own): the platform's cards come with events of their own
 * (`candidate.detached`). Older than the vacancy's present life (a newer upsert made it again), or than an event
 * of that life applied already (a board set after the deletion, the upsert that made the vacancy again on its
 * way), it only takes back a board set before it, which was the deleted vacancy's, and stays the floor of the
 * vacancy's aspects.
 */
export function vacancyDeleted({ vacancies, boards, candidates }: FeedDependencies): FeedHandler<'vacancy.deleted'> {
  return {
    entity: 'vacancy',
    async apply(event) {
      const { companyId, subject: id, versions, version, now } = event;
      if (version <= floorOf(versions)) return 'stale';
      if (![...versions.aspects.values()].some((set) => set > version)) {
        if ((await vacancies.findById(companyId, id)) !== null) {
          const onIt = await candidates.cardsOnVacancy(companyId, id);
          const versioned = await event.versionedAmong('candidate', onIt.map((card) => card.originCardId ?? card.id));
          await candidates.detachVacancy(companyId, id, now, onIt.filter((card) => !versioned.has(card.originCardId ?? card.id)).map((card) => card.id));
          await boards.delete(companyId, id);
          await vacancies.delete(companyId, id);
        }
        event.recordDeletion();
        return 'applied';
      }
      const board = versions.aspects.get(BOARD);
      const boardOfEarlierLife = board !== undefined && board <= version;
      if (boardOfEarlierLife) await boards.delete(companyId, id);
      event.recordFloor();
      return boardOfEarlierLife ? 'applied' : 'stale';
    },
  };
}
