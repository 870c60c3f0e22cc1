import type { Resume } from '../../domain/candidate/resume.js';
import type { InboundApplication } from '../../domain/inbound-application/inbound-application.js';
import { DomainError } from '../../domain/shared/domain-error.js';
import type { VacancyInput } from '../../domain/vacancy/vacancy.js';
import type { ManualCandidate } from './add-candidates.use-case.js';

/** One change the platform made, as its feed reports it (DESIGN 4a): what an event's `type` and `data` say. */
export type PlatformChange =
  | { readonly type: 'vacancy.upserted'; readonly vacancy: VacancyInput }
  | { readonly type: 'vacancy.deleted' }
  | { readonly type: 'board.columns-set'; readonly columns: readonly string[] }
  | { readonly type: 'candidate.added'; readonly card: Omit<ManualCandidate, 'id'> }
  | { readonly type: 'candidate.moved'; readonly stage: string }
  | { readonly type: 'candidate.transferred'; readonly vacancyId: string }
  | { readonly type: 'candidate.resume-updated'; readonly resume: Resume }
  | { readonly type: 'candidate.detached'; readonly vacancyId: string }
  | { readonly type: 'candidate.deleted' }
  | { readonly type: 'application.submitted'; readonly application: InboundApplication };

export type PlatformChangeType = PlatformChange['type'];

/** The change of one type. */
export type PlatformChangeOf<T extends PlatformChangeType> = Extract<PlatformChange, { readonly type: T }>;

export const PLATFORM_CHANGE_TYPES: readonly PlatformChangeType[] = [
  'vacancy.upserted', 'vacancy.deleted', 'board.columns-set',
  'candidate.added', 'candidate.moved', 'candidate.transferred', 'candidate.resume-updated', 'candidate.detached', 'candidate.deleted',
  'application.submitted',
];

export interface PlatformEventCommand {
  /** The event's `source` and `id`: together, what makes it the same event when it comes again. */
  readonly source: string;
  readonly eventId: string;
  readonly companyId: string;
  /** The entity the change is about: a vacancy's or a card's id (for an application, its externalId). */
  readonly subject: string;
  /** The platform's version of the entity after the change (`entityversion`); applications are keyed by externalId instead. */
  readonly version: number;
  readonly change: PlatformChange;
}

/**
 * What became of an event: `applied` (its effect committed with the record of its id), `duplicate` (its id
 * was applied before, or, for an application, its externalId already has a card), `stale` (the stored
 * entity is at its version or later, or was deleted at a later version: nothing to do).
 */
export type PlatformEventOutcome = 'applied' | 'duplicate' | 'stale';

/**
 * The event cannot apply yet, but an event the platform published before it, still on its way, can make it
 * apply: a card before its move, a transfer's target, a board column before a card is moved into it. Taken
 * again later; when it never becomes applicable, the feed sets it aside (dead letter) with this reason.
 */
export class ChangeNotYetApplicableError extends DomainError {
  readonly code = 'not_yet_applicable';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'ChangeNotYetApplicableError';
  }
}
