import { ConflictError } from '../../../domain/shared/domain-error.js';
import type { FeedDependencies } from './feed-dependencies.js';
import { decides, STAGE, TRANSFER_PREFIX, VACANCY, type FeedHandler } from './feed-event.js';

/**
 * `candidate.moved`: the card's stage (it waits for the card, and for the column on its board). A card without a
 * vacancy stands in no column, and the platform moves none: a move at or below its latest detach is of an
 * earlier placing, and stale; one above it is of a later life whose re-add is on its way, and waits for it.
 */
export function candidateMoved({ useCases }: FeedDependencies): FeedHandler<'candidate.moved'> {
  return {
    entity: 'candidate',
    async apply(event) {
      const { companyId, subject: id, versions, version } = event;
      if (decides(versions, version, [STAGE]).length === 0) return 'stale';
      if ((await useCases.moveCandidate.apply({ companyId, id, stage: event.change.stage })) === 'detached') {
        // Detaches are kept under the vacancy's transfer aspect (a ledger older than that kept them under `vacancy`).
        const detachedAt = Math.max(...[...versions.aspects].filter(([aspect]) => aspect === VACANCY || aspect.startsWith(TRANSFER_PREFIX)).map(([, set]) => set));
        // None known (a card the platform does not version, taken off with its vacancy): of an earlier placing.
        if (version <= detachedAt || detachedAt === -Infinity) return 'stale';
        throw new ConflictError(`Candidate ${id} stands on no vacancy; its move of a later life waits for the re-add.`);
      }
      event.setAspects([STAGE]);
      return 'applied';
    },
  };
}
