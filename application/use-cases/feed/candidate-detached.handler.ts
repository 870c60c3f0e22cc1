import { CandidateCard } from '../../../domain/candidate/candidate-card.js';
import { NotFoundError } from '../../../domain/shared/domain-error.js';
import { removeTechnicalCard, type FeedDependencies } from './feed-dependencies.js';
import { decides, STAGE, transferAspect, type FeedHandler } from './feed-event.js';

/**
 * `candidate.detached`: the platform took the card off a vacancy it deleted, as the card's next version. It waits
 * for the card. Kept under the vacancy's transfer aspect whether the vacancy was the card's own or a transfer's
 * target: the card here may be of an earlier life (its deletion and re-add on their way), so where it stands tells
 * neither. A card standing there is taken off it, without a vacancy and a column (a re-add of its life that comes
 * later names the vacancy, newer than it, and stays off it: candidate-added.handler.ts); its technical card there
 * goes; a transfer there, older, is stale when it comes.
 */
export function candidateDetached({ candidates }: FeedDependencies): FeedHandler<'candidate.detached'> {
  return {
    entity: 'candidate',
    async apply(event) {
      const { companyId, subject: id, versions, version, now, change } = event;
      const aspect = transferAspect(change.vacancyId);
      if (decides(versions, version, [aspect]).length === 0) return 'stale';
      const card = await candidates.findById(companyId, id);
      if (card === null) throw new NotFoundError('candidate', `Candidate ${id} not found.`);
      if (card.vacancyId === change.vacancyId) {
        // A stage set newer than the detach is a later life's move, come to this card first: it is kept for the re-add.
        const keptStage = version < (versions.aspects.get(STAGE) ?? -Infinity) ? card.stage : null;
        card.detachFromVacancy(now);
        await candidates.update(keptStage === null ? card : CandidateCard.restore({ ...card.toSnapshot(), stage: keptStage }));
      }
      await removeTechnicalCard(candidates, companyId, id, change.vacancyId);
      event.setAspects([aspect]);
      return 'applied';
    },
  };
}
