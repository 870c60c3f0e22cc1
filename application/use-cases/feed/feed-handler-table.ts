import { applicationSubmitted } from './application-submitted.handler.js';
import { boardColumnsSet } from './board-columns-set.handler.js';
import { candidateAdded } from './candidate-added.handler.js';
import { candidateDeleted } from './candidate-deleted.handler.js';
import { candidateDetached } from './candidate-detached.handler.js';
import { candidateMoved } from './candidate-moved.handler.js';
import { candidateResumeUpdated } from './candidate-resume-updated.handler.js';
import { candidateTransferred } from './candidate-transferred.handler.js';
import type { FeedDependencies } from './feed-dependencies.js';
import type { FeedHandlerTable } from './feed-event.js';
import { vacancyDeleted } from './vacancy-deleted.handler.js';
import { vacancyUpserted } from './vacancy-upserted.handler.js';

/** The handler of each event type of the feed, keyed by the type. */
export function feedHandlerTable(dependencies: FeedDependencies): FeedHandlerTable {
  return {
    'vacancy.upserted': vacancyUpserted(dependencies),
    'vacancy.deleted': vacancyDeleted(dependencies),
    'board.columns-set': boardColumnsSet(dependencies),
    'candidate.added': candidateAdded(dependencies),
    'candidate.moved': candidateMoved(dependencies),
    'candidate.transferred': candidateTransferred(dependencies),
    'candidate.resume-updated': candidateResumeUpdated(dependencies),
    'candidate.detached': candidateDetached(dependencies),
    'candidate.deleted': candidateDeleted(dependencies),
    'application.submitted': applicationSubmitted(dependencies),
  };
}
