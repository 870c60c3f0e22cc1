import type { EntityManager } from '@mikro-orm/postgresql';
import { executeBound, executeBoundReusable } from './bound-statement.js';
import type { RenderedCandidateRow } from './entities/candidate.entity.js';
import { jsonb } from './sql-values.js';

/** The columns of a card's row, in the order of CARD_VALUES and rowParameters: the writes of candidates. */
export const CARD_COLUMNS = `company_id, id, vacancy_id, stage, source, external_id, cover_letter, person, resume, referral,
  technical, origin_card_id, request_fingerprint, source_ref, created_at, card_updated_at, resume_updated_at, rendering`;
export const CARD_VALUES = '(?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?, ?, ?, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?)';

/** Sets every column but the key (company_id, id) to the parameters of rowParameters after the key's two. */
export const UPDATE_CARD_SQL = `update candidates
    set vacancy_id = ?, stage = ?, source = ?, external_id = ?, cover_letter = ?, person = ?::jsonb, resume = ?::jsonb,
        referral = ?::jsonb, technical = ?, origin_card_id = ?, request_fingerprint = ?, source_ref = ?,
        created_at = ?::timestamptz, card_updated_at = ?::timestamptz, resume_updated_at = ?::timestamptz, rendering = ?
  where company_id = ? and id = ?`;

/** The parameters of one row's CARD_VALUES. */
export function rowParameters(row: RenderedCandidateRow): unknown[] {
  return [
    row.companyId, row.id, row.vacancyId, row.stage, row.source, row.externalId, row.coverLetter,
    jsonb(row.person), jsonb(row.resume), row.referral === null ? null : jsonb(row.referral),
    row.technical, row.originCardId, row.requestFingerprint, row.sourceRef,
    row.createdAt, row.cardUpdatedAt, row.resumeUpdatedAt, row.rendering,
  ];
}

/**
 * Inserts the rows that no card of the company holds the externalId of; returns the externalIds inserted. The
 * rows go in the order of their externalIds, whatever order they came in: two batches of one company that
 * insert the same externalIds (appends run side by side) then take their index entries in the same order, and
 * one waits for the other instead of each waiting for the other (a deadlock, PostgreSQL ending one of them).
 */
export async function insertApplicationRows(em: EntityManager, rows: readonly RenderedCandidateRow[]): Promise<Set<string>> {
  const ordered = [...rows].sort((a, b) => compareCodeUnits(a.externalId as string, b.externalId as string));
  const inserted = await executeBound<{ external_id: string }>(
    em,
    `insert into candidates (${CARD_COLUMNS})
     values ${ordered.map(() => CARD_VALUES).join(', ')}
     on conflict (company_id, external_id) where external_id is not null do nothing
     returning external_id`,
    ordered.flatMap(rowParameters),
  );
  return new Set(inserted.map((row) => row.external_id));
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Inserts a technical card unless its origin already has one on its vacancy; whether it was inserted. */
export async function insertTechnicalRow(em: EntityManager, row: RenderedCandidateRow): Promise<boolean> {
  const inserted = await executeBoundReusable<{ id: string }>(
    em,
    `insert into candidates (${CARD_COLUMNS}) values ${CARD_VALUES}
     on conflict (company_id, origin_card_id, vacancy_id) where origin_card_id is not null do nothing
     returning id`,
    rowParameters(row),
  );
  return inserted.length > 0;
}
