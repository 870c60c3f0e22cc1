import type { CandidateListQuery, ListedId } from '../../../application/ports/candidate-repository.port.js';
import type { VacancyListQuery } from '../../../application/ports/vacancy-repository.port.js';
import { idItemBytes } from '../../presenters/id-item.presenter.js';
import type { PageStatements } from './replicas/replica-router.js';
import { TIMESTAMP_PARAM, dateFromMs, epochMs, timestampParams } from './sql-values.js';

interface IdRow {
  id: string;
  at_ms: number;
}

/**
 * An identifier-only page of cards (`fields=id`): the keyset walk of listedCandidates without the rendering
 * and the vacancy's title, so that without vacancyId it is an index-only scan of candidates_sync_idx
 * (company_id, modified_at, id) where not technical, reading no row but those the visibility map does not vouch for.
 */
export async function listedCandidateIds(read: PageStatements, query: Omit<CandidateListQuery, 'maxBytes'>): Promise<ListedId[]> {
  const where = ['company_id = ?', 'not technical'];
  const params: unknown[] = [query.companyId];
  if (query.vacancyId !== null) {
    where.push('vacancy_id = ?');
    params.push(query.vacancyId);
  }
  return idPage(read, 'candidates', 'modified_at', where, params, query);
}

/** An identifier-only page of vacancies: an index-only scan of vacancies_sync_idx or vacancies_status_sync_idx. */
export async function listedVacancyIds(read: PageStatements, query: Omit<VacancyListQuery, 'maxBytes'>): Promise<ListedId[]> {
  const where = ['company_id = ?'];
  const params: unknown[] = [query.companyId];
  if (query.status !== 'all') {
    where.push('status = ?');
    params.push(query.status);
  }
  return idPage(read, 'vacancies', 'updated_at', where, params, query);
}

async function idPage(
  read: PageStatements,
  table: 'candidates' | 'vacancies',
  at: 'modified_at' | 'updated_at',
  where: string[],
  params: unknown[],
  query: { readonly since: Date | null; readonly after: { readonly modifiedAt: Date; readonly id: string } | null; readonly limit: number },
): Promise<ListedId[]> {
  if (query.since !== null) {
    where.push(`${at} > ${TIMESTAMP_PARAM}`);
    params.push(...timestampParams(query.since));
  }
  if (query.after !== null) {
    where.push(`(${at}, id) > (${TIMESTAMP_PARAM}, ?)`);
    params.push(...timestampParams(query.after.modifiedAt), query.after.id);
  }
  params.push(query.limit);
  const sql = `select id, ${epochMs(at)} as at_ms from ${table} where ${where.join(' and ')} order by ${at}, id limit ?`;
  const rows = await read<IdRow>(sql, params);
  return rows.map(({ id, at_ms }) => {
    const updatedAt = dateFromMs(at_ms);
    return { id, updatedAt, bytes: idItemBytes(id, updatedAt) };
  });
}
