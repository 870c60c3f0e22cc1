import { removeTechnicalCard, type FeedDependencies } from './feed-dependencies.js';
import { floorOf, TRANSFER_PREFIX, type FeedHandler } from './feed-event.js';

/**
 * `candidate.deleted`. The latest of the card's creating and deleting events decides whether it exists; as the
 * latest of everything applied to the card, the deletion removes the card and its technical cards (what is not
 * here yet leaves just the tombstone). Older than the card's present life (it was made again and the re-add came
 * first), or than an event of that life applied already (a detach that came before the re-add: the platform made
 * the card again, and its re-add is on its way), it takes off the technical cards of transfers made before it and
 * stays the floor of the card's aspects, so that what that later event set is kept for the re-add.
 */
export function candidateDeleted({ candidates, useCases }: FeedDependencies): FeedHandler<'candidate.deleted'> {
  return {
    entity: 'candidate',
    async apply(event) {
      const { companyId, subject: id, versions, version } = event;
      if (version <= floorOf(versions)) return 'stale';
      if (![...versions.aspects.values()].some((set) => set > version)) {
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
