import type { FeedDependencies } from './feed-dependencies.js';
import { decides, RESUME, type FeedHandler } from './feed-event.js';

/** `candidate.resume-updated`: the card's resume (it waits for the card). */
export function candidateResumeUpdated({ useCases }: FeedDependencies): FeedHandler<'candidate.resume-updated'> {
  return {
    entity: 'candidate',
    async apply(event) {
      if (decides(event.versions, event.version, [RESUME]).length === 0) return 'stale';
      await useCases.updateResume.apply({ companyId: event.companyId, id: event.subject, resume: event.change.resume });
      event.setAspects([RESUME]);
      return 'applied';
    },
  };
}
