import type { FeedDependencies } from './feed-dependencies.js';
import type { FeedHandler } from './feed-event.js';

/**
 * `application.submitted`: the card of POST /applications, once per externalId (not versioned). Its vacancy
 * deleted here, the card is stored as the deletion left the vacancy's cards, without one (the platform takes no
 * application to a deleted vacancy: this one came before the deletion); a vacancy never seen is still to come.
 */
export function applicationSubmitted({ useCases }: FeedDependencies): FeedHandler<'application.submitted'> {
  return {
    entity: null,
    async apply(event) {
      const submitted = { companyId: event.companyId, application: event.change.application };
      const { vacancyId } = event.change.application;
      const result = await useCases.submitApplication.executeNow(submitted).catch(async (error: unknown) => {
        const { code, resource } = (error ?? {}) as { code?: unknown; resource?: unknown };
        if (code === 'not_found' && resource === 'vacancy' && (await event.versionsOf('vacancy', vacancyId)).deletedAt !== null) {
          return useCases.submitApplication.executeDetachedNow(submitted);
        }
        throw error;
      });
      return result.status === 'created' ? 'applied' : 'duplicate';
    },
  };
}
