import type { FeedDependencies } from './feed-dependencies.js';
import { BOARD, decides, type FeedHandler } from './feed-event.js';

/** `board.columns-set`: the vacancy's board (it waits for the vacancy, and for a column's cards to move on). */
export function boardColumnsSet({ useCases }: FeedDependencies): FeedHandler<'board.columns-set'> {
  return {
    entity: 'vacancy',
    async apply(event) {
      if (decides(event.versions, event.version, [BOARD]).length === 0) return 'stale';
      await useCases.setBoardColumns.execute({ companyId: event.companyId, vacancyId: event.subject, columns: event.change.columns });
      event.setAspects([BOARD]);
      return 'applied';
    },
  };
}
