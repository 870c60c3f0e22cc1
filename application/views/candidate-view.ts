import type { CandidateCard } from '../../domain/candidate/candidate-card.js';
import type { CandidateView } from '../ports/candidate-repository.port.js';

/** The list's projection of one card, for use cases that answer with the card they changed. */
export function toCandidateView(card: CandidateCard, vacancyTitle: string | null): CandidateView {
  const s = card.toSnapshot();
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
    updatedAt: card.modifiedAt,
  };
}
