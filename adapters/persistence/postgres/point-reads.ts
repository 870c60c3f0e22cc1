import type { EntityManager } from '@mikro-orm/postgresql';
import type { StoredApplication } from '../../../application/ports/candidate-repository.port.js';
import type { CandidateRow } from './entities/candidate.entity.js';
import type { VacancyRow } from './entities/vacancy.entity.js';
import { dateFromMs, epochMs, nullableDateFromMs } from './sql-values.js';
import { executeReusable } from './direct-statement.js';

/**
 * Stored rows read whole, in hand-written SQL like the list queries, with the one select list and row reader
 * per table that every such read uses: the point reads that serve every POST /applications (the repeat
 * check, the vacancy, its board, inside the company's write lock, where em.findOne spent about 1 ms of CPU
 * per call on building the query and hydrating the entity, profiled under bench/), the cards a deleted
 * vacancy detaches, the pages a list reads whole (ADR 18) and the rendering check. Timestamps travel as epoch
 * milliseconds, exact and independent of the session's time zone; jsonb arrives parsed, and the row mapping
 * reads it.
 */
type Raw = Record<string, any>;

/**
 * The select list of a candidates row, everything a card is restored from (candidateRowOf reads it), its
 * columns prefixed with `alias.` when given (a query that joins other tables).
 */
export function candidateRowSelect(alias?: string): string {
  const c = (column: string) => (alias === undefined ? column : `${alias}.${column}`);
  const columns = ['company_id', 'id', 'vacancy_id', 'stage', 'source', 'external_id', 'cover_letter', 'person', 'resume', 'referral', 'technical', 'origin_card_id', 'request_fingerprint', 'source_ref'];
  const timestamps = ['created_at', 'card_updated_at', 'resume_updated_at'];
  return [...columns.map(c), ...timestamps.map((column) => `${epochMs(c(column))} as ${column}_ms`)].join(', ');
}

export const CANDIDATE_ROW_SELECT = candidateRowSelect();

/** The card with this id, externalId or board reference, of the company; technical cards included. */
export async function readCandidateRow(em: EntityManager, companyId: string, key: 'id' | 'external_id' | 'source_ref', value: string): Promise<CandidateRow | null> {
  const rows = await executeReusable<Raw>(em, `select ${CANDIDATE_ROW_SELECT} from candidates where company_id = ? and ${key} = ?`, [companyId, value]);
  return rows[0] === undefined ? null : candidateRowOf(rows[0]);
}

/** The technical card transferred from this card to this vacancy (at most one: a unique index). */
export async function readTechnicalCardRow(em: EntityManager, companyId: string, originCardId: string, vacancyId: string): Promise<CandidateRow | null> {
  const rows = await executeReusable<Raw>(
    em,
    `select ${CANDIDATE_ROW_SELECT} from candidates where company_id = ? and origin_card_id = ? and vacancy_id = ?`,
    [companyId, originCardId, vacancyId],
  );
  return rows[0] === undefined ? null : candidateRowOf(rows[0]);
}

export function candidateRowOf(r: Raw): CandidateRow {
  return {
    companyId: r.company_id, id: r.id, vacancyId: r.vacancy_id, stage: r.stage, source: r.source, externalId: r.external_id,
    coverLetter: r.cover_letter, person: r.person, resume: r.resume, referral: r.referral, technical: r.technical,
    originCardId: r.origin_card_id, requestFingerprint: r.request_fingerprint, sourceRef: r.source_ref,
    createdAt: dateFromMs(r.created_at_ms), cardUpdatedAt: dateFromMs(r.card_updated_at_ms), resumeUpdatedAt: dateFromMs(r.resume_updated_at_ms),
  };
}

/** The select list of a vacancies row, everything a vacancy is restored from (vacancyRowOf reads it). */
export const VACANCY_ROW_SELECT = `company_id, id, title, status, city, office_address, experience, work_format, work_formats, salary_from, salary_to,
  salary_currency, salary_gross, employment_form, work_schedule, skills, languages, professional_roles, description, responsibilities,
  positions_count, source_url, recruiter, source_ref, ${epochMs('published_at')} as published_at_ms, ${epochMs('created_at')} as created_at_ms,
  ${epochMs('updated_at')} as updated_at_ms`;

export async function readVacancyRow(em: EntityManager, companyId: string, key: 'id' | 'source_ref', value: string): Promise<VacancyRow | null> {
  const rows = await executeReusable<Raw>(em, `select ${VACANCY_ROW_SELECT} from vacancies where company_id = ? and ${key} = ?`, [companyId, value]);
  return rows[0] === undefined ? null : vacancyRowOf(rows[0]);
}

export function vacancyRowOf(r: Raw): VacancyRow {
  return {
    companyId: r.company_id, id: r.id, title: r.title, status: r.status, city: r.city, officeAddress: r.office_address, experience: r.experience,
    workFormat: r.work_format, workFormats: r.work_formats, salaryFrom: r.salary_from, salaryTo: r.salary_to, salaryCurrency: r.salary_currency,
    salaryGross: r.salary_gross, employmentForm: r.employment_form, workSchedule: r.work_schedule, skills: r.skills, languages: r.languages,
    professionalRoles: r.professional_roles, description: r.description, responsibilities: r.responsibilities, positionsCount: r.positions_count,
    sourceUrl: r.source_url, publishedAt: nullableDateFromMs(r.published_at_ms), recruiter: r.recruiter, sourceRef: r.source_ref,
    createdAt: dateFromMs(r.created_at_ms), updatedAt: dateFromMs(r.updated_at_ms),
  };
}

/** The statement of readVacancyBoards (the company, the ids as a JSON array), exported for the test of its plan. */
export const VACANCY_BOARDS_SQL = `select v.id, (select b.columns from boards b where b.company_id = v.company_id and b.vacancy_id = v.id) as columns
      from vacancies v where v.company_id = ? and v.id = any(array(select jsonb_array_elements_text(?::jsonb)))`;

/**
 * The company's vacancies of these ids, each with its board's columns as stored (jsonb; null without a board
 * row): one statement instead of a read of the vacancy and one of its board, and only the columns needed.
 *
 * The board is a scalar subquery, read by its primary key for each vacancy found. Written as a left join,
 * the planner, which guesses ten ids from the array, hashed the vacancies and scanned every board of the
 * company to probe them: 0.6 ms of PostgreSQL's CPU at 1,000 boards instead of 0.2, growing with the
 * company's vacancies (bench/README, "Reads by key").
 */
export async function readVacancyBoards(em: EntityManager, companyId: string, vacancyIds: readonly string[]): Promise<{ readonly vacancyId: string; readonly columns: unknown }[]> {
  if (vacancyIds.length === 0) return [];
  const rows = await executeReusable<Raw>(
    em,
    VACANCY_BOARDS_SQL,
    [companyId, JSON.stringify(vacancyIds)],
  );
  return rows.map((r) => ({ vacancyId: r.id, columns: r.columns }));
}

/** The board's columns as stored (jsonb), or null when the vacancy has no board row. */
export async function readBoardColumns(em: EntityManager, companyId: string, vacancyId: string): Promise<{ readonly columns: unknown } | null> {
  const rows = await executeReusable<Raw>(em, 'select columns from boards where company_id = ? and vacancy_id = ?', [companyId, vacancyId]);
  return rows[0] === undefined ? null : { columns: rows[0].columns };
}

/**
 * The company's stored applications of these externalIds (in no particular order): the three columns a
 * repeat is answered with, not the row, whose person, resume and referral pg would parse as jsonb for nothing.
 */
export async function readStoredApplications(em: EntityManager, companyId: string, externalIds: readonly string[]): Promise<StoredApplication[]> {
  if (externalIds.length === 0) return [];
  const rows = await executeReusable<Raw>(
    em,
    `select external_id, id, request_fingerprint from candidates
      where company_id = ? and external_id = any(array(select jsonb_array_elements_text(?::jsonb)))`,
    [companyId, JSON.stringify(externalIds)],
  );
  return rows.map((r) => ({ externalId: r.external_id, id: r.id, requestFingerprint: r.request_fingerprint }));
}
