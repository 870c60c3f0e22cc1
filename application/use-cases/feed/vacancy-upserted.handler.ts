import type { FeedDependencies } from './feed-dependencies.js';
import { decides, FIELDS, type FeedHandler } from './feed-event.js';

/** `vacancy.upserted`: makes the vacancy, or replaces its fields; its existence and its fields at the event's version. */
export function vacancyUpserted({ useCases }: FeedDependencies): FeedHandler<'vacancy.upserted'> {
  return {
    entity: 'vacancy',
    async apply(event) {
      if (decides(event.versions, event.version, [FIELDS]).length === 0) return 'stale';
      await useCases.upsertVacancies.execute({ companyId: event.companyId, vacancies: [{ ...event.change.vacancy, id: event.subject }] });
      event.setAspects([FIELDS]);
      return 'applied';
    },
  };
}
