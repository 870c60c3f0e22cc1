import { renderCandidateRest } from '../../../presenters/candidate.presenter.js';
import { snapshotView } from '../../../../application/views/candidate-view.js';
import { CandidateCard, type CandidateCardSnapshot } from '../../../../domain/candidate/candidate-card.js';
import type { CandidateRendering, CandidateRow } from '../tables/candidate.table.js';
import { readPerson, readReferral, readResume } from './json-documents.js';

/**
 * A listed card's rendering (ADR 18), as every write stores it and as a list or the check renders a row
 * without one; a technical card, never listed, has none. The vacancy's title is no part of it.
 */
export function cardRendering(card: CandidateCard): string | null {
  return renderingOf(card.toSnapshot());
}

function renderingOf(s: CandidateCardSnapshot): string | null {
  return s.technical ? null : renderCandidateRest(snapshotView(s, null));
}

/**
 * The row to write, with the card's rendering (ADR 18): every write of a card goes through here, so the
 * read model cannot fall behind the card. The vacancy's title is no part of the rendering.
 */
export function toCandidateRow(card: CandidateCard): CandidateRow & CandidateRendering {
  const s = card.toSnapshot();
  return {
    companyId: s.companyId,
    id: s.id,
    vacancyId: s.vacancyId,
    stage: s.stage,
    source: s.source,
    externalId: s.externalId,
    coverLetter: s.coverLetter,
    person: s.person,
    resume: s.resume,
    referral: s.referral,
    technical: s.technical,
    originCardId: s.originCardId,
    requestFingerprint: s.requestFingerprint,
    sourceRef: s.sourceRef,
    createdAt: s.createdAt,
    cardUpdatedAt: s.cardUpdatedAt,
    resumeUpdatedAt: s.resumeUpdatedAt,
    // From the snapshot just taken: one copy of the card for the row and its rendering.
    rendering: renderingOf(s),
  };
}

export function fromCandidateRow(row: CandidateRow): CandidateCard {
  return CandidateCard.restore({
    id: row.id,
    companyId: row.companyId,
    vacancyId: row.vacancyId,
    stage: row.stage,
    source: row.source,
    externalId: row.externalId,
    coverLetter: row.coverLetter,
    person: readPerson(row.person),
    resume: readResume(row.resume),
    referral: readReferral(row.referral),
    technical: row.technical,
    originCardId: row.originCardId,
    requestFingerprint: row.requestFingerprint,
    sourceRef: row.sourceRef,
    createdAt: row.createdAt,
    cardUpdatedAt: row.cardUpdatedAt,
    resumeUpdatedAt: row.resumeUpdatedAt,
  });
}
