import type { EntityManager } from '@mikro-orm/postgresql';
import type { ListedVacancy, VacancyListQuery } from '../../../application/ports/vacancy-repository.port.js';
import { withCurrentRenderings, type Rerendered } from './current-renderings.js';
import { readVacancyRowsByIds } from './point-reads.js';
import { fromVacancyRow, toVacancyRow } from './row-mapping/vacancy-row-mapping.js';
import { TIMESTAMP_PARAM, dateFromMs, epochMs, timestampParams } from './sql-values.js';

interface VacancyListRow {
  id: string;
  rendering: string | null;
  updated_at_ms: number;
}

/**
 * One page of the keyset scan in the order (updated_at, id): each vacancy's stored rendering (ADR 18), read
 * as text and sent as it is, with its place in the order. Served by the indexes (company_id, [status,]
 * updated_at, id); ids use the "C" collation, so they compare by code unit as the in-memory adapter compares
 * JS strings. A rendering that a writer of the previous version left missing or stale is rendered from the
 * row (withCurrentRenderings).
 */
export async function listedVacancies(em: EntityManager, query: VacancyListQuery): Promise<ListedVacancy[]> {
  const where = ['company_id = ?'];
  const params: unknown[] = [query.companyId];
  if (query.status !== 'all') {
    where.push('status = ?');
    params.push(query.status);
  }
  if (query.since !== null) {
    where.push(`updated_at > ${TIMESTAMP_PARAM}`);
    params.push(...timestampParams(query.since));
  }
  if (query.after !== null) {
    where.push(`(updated_at, id) > (${TIMESTAMP_PARAM}, ?)`);
    params.push(...timestampParams(query.after.modifiedAt), query.after.id);
  }
  params.push(query.limit);
  const readPage = async () => {
    const rows = await em.execute<VacancyListRow[]>(
      `select id, rendering, ${epochMs('updated_at')} as updated_at_ms
         from vacancies where ${where.join(' and ')} order by updated_at, id limit ?`,
      params,
    );
    return rows.map((r) => ({ id: r.id, updatedAt: dateFromMs(r.updated_at_ms), rendering: r.rendering }));
  };
  return withCurrentRenderings(readPage, (ids) => rerenderVacancies(em, query.companyId, ids));
}

/** The vacancies of these ids rendered as a write renders them, by the row mapping. */
async function rerenderVacancies(em: EntityManager, companyId: string, ids: readonly string[]): Promise<Map<string, Rerendered>> {
  const rows = await readVacancyRowsByIds(em, companyId, ids);
  return new Map(rows.map((row) => [row.id, { updatedAt: row.updatedAt, rendering: toVacancyRow(fromVacancyRow(row)).rendering }]));
}
