import type { StoredApplication } from '../../../application/ports/candidate-repository.port.js';
import { CANDIDATES, type CandidateRow } from './tables/candidate.table.js';
import { VACANCIES, type VacancyRow } from './tables/vacancy.table.js';
import { executeReusable, type PgSession } from './pg-statements.js';

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

/** The card with this id, externalId or board reference, of the company; technical cards included. */
export async function readCandidateRow(session: PgSession, companyId: string, key: 'id' | 'external_id' | 'source_ref', value: string): Promise<CandidateRow | null> {
  const rows = await executeReusable<Raw>(session, `select ${CANDIDATES.selectList()} from candidates where company_id = ? and ${key} = ?`, [companyId, value]);
  return rows[0] === undefined ? null : CANDIDATES.rowOf(rows[0]);
}

/** The technical card transferred from this card to this vacancy (at most one: a unique index). */
export async function readTechnicalCardRow(session: PgSession, companyId: string, originCardId: string, vacancyId: string): Promise<CandidateRow | null> {
  const rows = await executeReusable<Raw>(
    session,
    `select ${CANDIDATES.selectList()} from candidates where company_id = ? and origin_card_id = ? and vacancy_id = ?`,
    [companyId, originCardId, vacancyId],
  );
  return rows[0] === undefined ? null : CANDIDATES.rowOf(rows[0]);
}

export async function readVacancyRow(session: PgSession, companyId: string, key: 'id' | 'source_ref', value: string): Promise<VacancyRow | null> {
  const rows = await executeReusable<Raw>(session, `select ${VACANCIES.selectList()} from vacancies where company_id = ? and ${key} = ?`, [companyId, value]);
  return rows[0] === undefined ? null : VACANCIES.rowOf(rows[0]);
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
export async function readVacancyBoards(session: PgSession, companyId: string, vacancyIds: readonly string[]): Promise<{ readonly vacancyId: string; readonly columns: unknown }[]> {
  if (vacancyIds.length === 0) return [];
  const rows = await executeReusable<Raw>(
    session,
    VACANCY_BOARDS_SQL,
    [companyId, JSON.stringify(vacancyIds)],
  );
  return rows.map((r) => ({ vacancyId: r.id, columns: r.columns }));
}

/** The board's columns as stored (jsonb), or null when the vacancy has no board row. */
export async function readBoardColumns(session: PgSession, companyId: string, vacancyId: string): Promise<{ readonly columns: unknown } | null> {
  const rows = await executeReusable<Raw>(session, 'select columns from boards where company_id = ? and vacancy_id = ?', [companyId, vacancyId]);
  return rows[0] === undefined ? null : { columns: rows[0].columns };
}

/**
 * The company's stored applications of these externalIds (in no particular order): the three columns a
 * repeat is answered with, not the row, whose person, resume and referral pg would parse as jsonb for nothing.
 */
export async function readStoredApplications(session: PgSession, companyId: string, externalIds: readonly string[]): Promise<StoredApplication[]> {
  if (externalIds.length === 0) return [];
  const rows = await executeReusable<Raw>(
    session,
    `select external_id, id, request_fingerprint from candidates
      where company_id = ? and external_id = any(array(select jsonb_array_elements_text(?::jsonb)))`,
    [companyId, JSON.stringify(externalIds)],
  );
  return rows.map((r) => ({ externalId: r.external_id, id: r.id, requestFingerprint: r.request_fingerprint }));
}
