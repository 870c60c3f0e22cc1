import type { CandidateCard, CandidateCardSnapshot } from '../../domain/candidate/candidate-card.js';
import { laterOf } from '../../domain/shared/time.js';
import type { CandidateView } from '../ports/candidate-repository.port.js';

/** The list's projection of one card, for use cases that answer with the card they changed. */
export function toCandidateView(card: CandidateCard, vacancyTitle: string | null): CandidateView {
  return snapshotView(card.toSnapshot(), vacancyTitle);
}

/**
 * The same projection of a card's snapshot, which it shares (no copy): for a store that already took the
 * snapshot to write the card's row and renders the row from it.
 */
export function snapshotView(s: CandidateCardSnapshot, vacancyTitle: string | null): CandidateView {
  return {
    id: s.id,
    vacancyId: s.vacancyId,
    vacancyTitle: s.vacancyId === null ? null : vacancyTitle,
    stage: s.stage,
    source: s.source,
    externalId: s.externalId,
    coverLetter: s.coverLetter,
    person: s.person,
    resume: s.resume,
    referral: s.referral,
    createdAt: s.createdAt,
    // CandidateCard.modifiedAt: what `since` and the list order use.
    updatedAt: laterOf(s.cardUpdatedAt, s.resumeUpdatedAt),
  };
}
