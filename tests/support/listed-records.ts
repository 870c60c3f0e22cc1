import { spliceCandidate, type CandidateJson } from '../../adapters/presenters/candidate.presenter.js';
import type { VacancyJson } from '../../adapters/presenters/vacancy.presenter.js';
import type { CandidateView, ListedCandidate } from '../../application/ports/candidate-repository.port.js';
import type { ListedVacancy, VacancyView } from '../../application/ports/vacancy-repository.port.js';
import type { VacancyStatus } from '../../domain/vacancy/vacancy-status.js';
import type { WorkFormat } from '../../domain/vacancy/work-format.js';

/**
 * What a client reads of listed records: the JSON the route sends for them, parsed, and the views it was
 * rendered from read back out of it, for tests that state what a list holds in the terms of the views.
 * Reading through the rendering (never around it) keeps those tests about what a client receives.
 */

/** The card's JSON as GET /candidates sends it: the stored rendering with its leading fields spliced in. */
export function candidateJsonOf(listed: ListedCandidate): CandidateJson {
  return JSON.parse(spliceCandidate(listed.id, listed.vacancyId, listed.vacancyTitle, listed.rendering)) as CandidateJson;
}

/** The vacancy's JSON as GET /vacancies sends it. */
export function vacancyJsonOf(listed: ListedVacancy): VacancyJson {
  return JSON.parse(listed.rendering) as VacancyJson;
}

/** The view the card's JSON was presented from: the presenter is a one-to-one copy of its fields. */
export function candidateViewOf(listed: ListedCandidate): CandidateView {
  const json = candidateJsonOf(listed);
  expectSamePlace(listed, json);
  return {
    id: json.id,
    vacancyId: json.vacancyId,
    vacancyTitle: json.vacancyTitle,
    stage: json.stage,
    source: json.source,
    externalId: json.externalId,
    coverLetter: json.coverLetter,
    person: json.candidate,
    resume: json.resume,
    referral: json.referral,
    createdAt: new Date(json.createdAt),
    updatedAt: new Date(json.updatedAt),
  };
}

/** The view the vacancy's JSON was presented from. */
export function vacancyViewOf(listed: ListedVacancy): VacancyView {
  const json = vacancyJsonOf(listed);
  expectSamePlace(listed, json);
  return {
    ...json,
    status: json.status as VacancyStatus,
    workFormat: json.workFormat as WorkFormat | null,
    publishedAt: json.publishedAt === null ? null : new Date(json.publishedAt),
    createdAt: new Date(json.createdAt),
    updatedAt: new Date(json.updatedAt),
  };
}

/** The place a record has in the list (its cursor) is the one its JSON shows. */
function expectSamePlace(listed: { id: string; updatedAt: Date }, json: { id: string; updatedAt: string }): void {
  if (json.id !== listed.id || json.updatedAt !== listed.updatedAt.toISOString()) {
    throw new Error(`listed as ${listed.id} at ${listed.updatedAt.toISOString()}, rendered as ${json.id} at ${json.updatedAt}`);
  }
}
