import { removeTechnicalCard, type FeedDependencies } from './feed-dependencies.js';
import { CARD, floorOf, type FeedHandler } from './feed-event.js';

const TRANSFER_PREFIX = 'transfer:';

/**
 * `candidate.deleted`. The latest of the card's creating and deleting events decides whether it exists; as the
 * latest, the deletion removes the card and its technical cards (what is not here yet leaves just the
 * tombstone). Older than the card's present life (it was made again, the re-add came first), it takes off the
 * technical cards of transfers made before it, and stays the floor of the card's aspects.
 */
export function candidateDeleted({ candidates, useCases }: FeedDependencies): FeedHandler<'candidate.deleted'> {
  return {
    entity: 'candidate',
    async apply(event) {
      const { companyId, subject: id, versions, version } = event;
      if (version <= floorOf(versions)) return 'stale';
      const created = versions.aspects.get(CARD);
      if (created === undefined || version > created) {
        await useCases.deleteCandidate.execute({ companyId, id }).catch((error: unknown) => {
          if ((error as { code?: unknown } | null)?.code !== 'not_found') throw error;
        });
        event.recordDeletion();
        return 'applied';
      }
      let removed = false;
      for (const [aspect, set] of versions.aspects) {
        if (aspect.startsWith(TRANSFER_PREFIX) && set <= version) removed = (await removeTechnicalCard(candidates, companyId, id, aspect.slice(TRANSFER_PREFIX.length))) || removed;
      }
      event.recordFloor();
      return removed ? 'applied' : 'stale';
    },
  };
}
