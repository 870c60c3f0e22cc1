import type { FeedDependencies } from './feed-dependencies.js';
import { decides, STAGE, type FeedHandler } from './feed-event.js';

/** `candidate.moved`: the card's stage (it waits for the card, and for the column on its board). */
export function candidateMoved({ useCases }: FeedDependencies): FeedHandler<'candidate.moved'> {
  return {
    entity: 'candidate',
    async apply(event) {
      if (decides(event.versions, event.version, [STAGE]).length === 0) return 'stale';
      // A card without a vacancy stands in no column: the platform moves none, so the move is of an earlier placing.
      if ((await useCases.moveCandidate.apply({ companyId: event.companyId, id: event.subject, stage: event.change.stage })) === 'detached') return 'stale';
      event.setAspects([STAGE]);
      return 'applied';
    },
  };
}
