import type { CandidateRow } from '../entities/candidate.entity.js';
import type { VacancyRow } from '../entities/vacancy.entity.js';
import { dateFromMs, epochMs, nullableDateFromMs } from '../sql-values.js';

/**
 * Stored rows read back whole for the writes that re-render them (ADR 18): the cards of a deleted vacancy,
 * and a migration that renders what was stored before it. Timestamps travel as epoch milliseconds, exact
 * and independent of the session's time zone; jsonb arrives parsed, and the row mapping reads it.
 */
type Columns = Record<string, any>;

/** The select list of a candidates row, everything a card is restored from. */
export const CANDIDATE_ROW_SELECT = `company_id, id, vacancy_id, stage, source, external_id, cover_letter, person, resume, referral,
  technical, origin_card_id, request_fingerprint, source_ref, ${epochMs('created_at')} as created_at_ms,
  ${epochMs('card_updated_at')} as card_updated_at_ms, ${epochMs('resume_updated_at')} as resume_updated_at_ms`;

export function candidateRowOfColumns(r: Columns): CandidateRow {
  return {
    companyId: r.company_id,
    id: r.id,
    vacancyId: r.vacancy_id,
    stage: r.stage,
    source: r.source,
    externalId: r.external_id,
    coverLetter: r.cover_letter,
    person: r.person,
    resume: r.resume,
    referral: r.referral,
    technical: r.technical,
    originCardId: r.origin_card_id,
    requestFingerprint: r.request_fingerprint,
    sourceRef: r.source_ref,
    createdAt: dateFromMs(r.created_at_ms),
    cardUpdatedAt: dateFromMs(r.card_updated_at_ms),
    resumeUpdatedAt: dateFromMs(r.resume_updated_at_ms),
  };
}

/** The select list of a vacancies row, everything a vacancy is restored from. */
export const VACANCY_ROW_SELECT = `company_id, id, title, status, city, office_address, experience, work_format, work_formats,
  salary_from, salary_to, salary_currency, salary_gross, employment_form, work_schedule, skills, languages, professional_roles,
  description, responsibilities, positions_count, source_url, recruiter, source_ref, ${epochMs('published_at')} as published_at_ms,
  ${epochMs('created_at')} as created_at_ms, ${epochMs('updated_at')} as updated_at_ms`;

export function vacancyRowOfColumns(r: Columns): VacancyRow {
  return {
    companyId: r.company_id,
    id: r.id,
    title: r.title,
    status: r.status,
    city: r.city,
    officeAddress: r.office_address,
    experience: r.experience,
    workFormat: r.work_format,
    workFormats: r.work_formats,
    salaryFrom: r.salary_from,
    salaryTo: r.salary_to,
    salaryCurrency: r.salary_currency,
    salaryGross: r.salary_gross,
    employmentForm: r.employment_form,
    workSchedule: r.work_schedule,
    skills: r.skills,
    languages: r.languages,
    professionalRoles: r.professional_roles,
    description: r.description,
    responsibilities: r.responsibilities,
    positionsCount: r.positions_count,
    sourceUrl: r.source_url,
    publishedAt: nullableDateFromMs(r.published_at_ms),
    recruiter: r.recruiter,
    sourceRef: r.source_ref,
    createdAt: dateFromMs(r.created_at_ms),
    updatedAt: dateFromMs(r.updated_at_ms),
  };
}
