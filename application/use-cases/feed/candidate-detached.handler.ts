import { NotFoundError } from '../../../domain/shared/domain-error.js';
import { removeTechnicalCard, type FeedDependencies } from './feed-dependencies.js';
import { decides, STAGE, transferAspect, VACANCY, type FeedHandler } from './feed-event.js';

/**
 * `candidate.detached`: the platform took the card off a vacancy it deleted, as the card's next version. Off its
 * own vacancy, the card stays without a vacancy and a column; off a vacancy it was transferred to, its technical
 * card there goes. It waits for the card (a detachment of a transfer not here yet is recorded, and the transfer,
 * older, is stale when it comes).
 */
export function candidateDetached({ candidates }: FeedDependencies): FeedHandler<'candidate.detached'> {
  return {
    entity: 'candidate',
    async apply(event) {
      const { companyId, subject: id, versions, version, now, change } = event;
      const card = await candidates.findById(companyId, id);
      if (card === null) {
        if (decides(versions, version, [VACANCY]).length === 0) return 'stale';
        throw new NotFoundError('candidate', `Candidate ${id} not found.`);
      }
      if (card.vacancyId === change.vacancyId) {
        if (decides(versions, version, [VACANCY]).length === 0) return 'stale';
        card.detachFromVacancy(now);
        await candidates.update(card);
        event.setAspects([VACANCY, STAGE]);
        return 'applied';
      }
      const aspect = transferAspect(change.vacancyId);
      if (decides(versions, version, [aspect]).length === 0) return 'stale';
      await removeTechnicalCard(candidates, companyId, id, change.vacancyId);
      event.setAspects([aspect]);
      return 'applied';
    },
  };
}
