import { CandidateCard } from '../../../domain/candidate/candidate-card.js';
import { boardOf } from '../card-lookup.js';
import type { FeedDependencies } from './feed-dependencies.js';
import { CARD, decides, RESUME, STAGE, transferAspect, VACANCY, type FeedHandler } from './feed-event.js';

/**
 * `candidate.added`: a card made, also one made again under its id (the deletion between may still be on its
 * way). Its person and resume, its stage and its vacancy each take the event's value unless a newer event set
 * it (a move of the new card that came first keeps its stage). It is placed as the platform placed it, whether
 * its vacancy or its column is here yet or not: what the vacancy's events do to it come as the card's own.
 */
export function candidateAdded({ boards, candidates }: FeedDependencies): FeedHandler<'candidate.added'> {
  return {
    entity: 'candidate',
    async apply(event) {
      const { companyId, subject: id, versions, version, now, change } = event;
      // A creation at or below the present life's, or below a deletion, is of an earlier life.
      if (decides(versions, version, [CARD]).length === 0) return 'stale';
      const wins = decides(versions, version, [RESUME, STAGE, VACANCY]);
      const { card } = change;
      // A detach from this vacancy newer than the re-add (kept under the vacancy's transfer aspect) may have come
      // first, to the card of an earlier life still here: the platform transfers no card to its own vacancy, so it
      // took this life's card off its vacancy and column, but for what an event newer than the detach set.
      const detachedAt = versions.aspects.get(transferAspect(card.vacancyId)) ?? -Infinity;
      const off = detachedAt > version ? decides(versions, detachedAt, [STAGE, VACANCY]) : [];
      const takes = new Set([...wins, ...off]);
      // Without a stage (the schema requires one; a card of the admin CLI's file may lack it): the board's first column.
      const stage = card.stage ?? ((await boardOf(boards, companyId, card.vacancyId)).columns[0] as string);
      const made = CandidateCard.manual({ id, companyId, vacancyId: card.vacancyId, stage, person: card.candidate, resume: card.resume, referral: card.referral, now }).toSnapshot();
      const after = { ...made, ...(off.includes(VACANCY) ? { vacancyId: null } : {}), ...(off.includes(STAGE) ? { stage: null } : {}) };
      const stored = await candidates.findById(companyId, id);
      if (stored === null) {
        await candidates.insert(CandidateCard.restore(after));
      } else {
        const before = stored.toSnapshot();
        await candidates.update(
          CandidateCard.restore({
            ...after,
            ...(takes.has(RESUME) ? {} : { person: before.person, resume: before.resume, referral: before.referral, resumeUpdatedAt: before.resumeUpdatedAt }),
            ...(takes.has(STAGE) ? {} : { stage: before.stage }),
            ...(takes.has(VACANCY) ? {} : { vacancyId: before.vacancyId }),
          }),
        );
      }
      event.setAspects([CARD, ...wins]);
      return 'applied';
    },
  };
}
