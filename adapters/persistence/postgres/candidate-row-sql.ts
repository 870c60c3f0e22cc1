import { executeBound, executeBoundReusable, type PgSession } from './pg-statements.js';
import { CANDIDATES, type CandidateRendering, type CandidateRow } from './tables/candidate.table.js';

type RenderedCandidateRow = CandidateRow & CandidateRendering;

/**
 * Inserts the rows that no card of the company holds the externalId of; returns the externalIds inserted. The
 * rows go in the order of their externalIds, whatever order they came in: two batches of one company that
 * insert the same externalIds (appends run side by side) then take their index entries in the same order, and
 * one waits for the other instead of each waiting for the other (a deadlock, PostgreSQL ending one of them).
 */
export async function insertApplicationRows(session: PgSession, rows: readonly RenderedCandidateRow[]): Promise<Set<string>> {
  const ordered = [...rows].sort((a, b) => compareCodeUnits(a.externalId as string, b.externalId as string));
  const { sql, values } = CANDIDATES.insertRows(ordered);
  const inserted = await executeBound<{ external_id: string }>(
    session,
    `${sql}
     on conflict (company_id, external_id) where external_id is not null do nothing
     returning external_id`,
    values,
  );
  return new Set(inserted.map((row) => row.external_id));
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Inserts a technical card unless its origin already has one on its vacancy; whether it was inserted. */
export async function insertTechnicalRow(session: PgSession, row: RenderedCandidateRow): Promise<boolean> {
  const inserted = await executeBoundReusable<{ id: string }>(
    session,
    `${CANDIDATES.insertSql}
     on conflict (company_id, origin_card_id, vacancy_id) where origin_card_id is not null do nothing
     returning id`,
    CANDIDATES.values(row),
  );
  return inserted.length > 0;
}
