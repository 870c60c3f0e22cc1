import { ConflictError } from '../../../domain/shared/domain-error.js';
import type { FeedDependencies } from './feed-dependencies.js';
import { decides, transferAspect, type FeedHandler } from './feed-event.js';

/**
 * `candidate.transferred`: a technical card of the card on the target vacancy, once per target. It waits for the
 * card and for the target; a target deleted since has its `candidate.detached` of this card, newer, on its way,
 * after which the transfer is stale. The platform transfers no card to its own vacancy: a card here standing on
 * the target is of an earlier life, and the transfer waits for the re-add that places it elsewhere.
 */
export function candidateTransferred({ candidates, useCases }: FeedDependencies): FeedHandler<'candidate.transferred'> {
  return {
    entity: 'candidate',
    async apply(event) {
      const { companyId, subject: id, change } = event;
      const aspect = transferAspect(change.vacancyId);
      if (decides(event.versions, event.version, [aspect]).length === 0) return 'stale';
      if ((await candidates.findById(companyId, id))?.vacancyId === change.vacancyId) {
        throw new ConflictError(`Candidate ${id} stands on vacancy ${change.vacancyId} in an earlier life; its transfer there waits for its re-add.`);
      }
      // A repeat finds the technical card there and changes nothing.
      await useCases.transferCandidate.apply({ companyId, id, vacancyId: change.vacancyId });
      event.setAspects([aspect]);
      return 'applied';
    },
  };
}
