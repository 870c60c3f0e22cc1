import type { FeedDependencies } from './feed-dependencies.js';
import { decides, transferAspect, type FeedHandler } from './feed-event.js';

/**
 * `candidate.transferred`: a technical card of the card on the target vacancy, once per target. It waits for the
 * card and for the target; a target deleted since has its `candidate.detached` of this card, newer, on its way,
 * after which the transfer is stale.
 */
export function candidateTransferred({ useCases }: FeedDependencies): FeedHandler<'candidate.transferred'> {
  return {
    entity: 'candidate',
    async apply(event) {
      const aspect = transferAspect(event.change.vacancyId);
      if (decides(event.versions, event.version, [aspect]).length === 0) return 'stale';
      // A repeat finds the technical card there and changes nothing.
      await useCases.transferCandidate.apply({ companyId: event.companyId, id: event.subject, vacancyId: event.change.vacancyId });
      event.setAspects([aspect]);
      return 'applied';
    },
  };
}
