import { PAST_BUDGET_BYTES } from '../../../application/ports/candidate-repository.port.js';
import type { ListedVacancy, VacancyListQuery } from '../../../application/ports/vacancy-repository.port.js';
import { withCurrentRenderings } from './current-renderings.js';
import type { PageStatements } from './replicas/replica-router.js';
import { rowsWithinPageBytes } from './page-bytes-sql.js';
import { VACANCIES } from './tables/vacancy.table.js';
import { fromVacancyRow, vacancyRendering } from './row-mapping/vacancy-row-mapping.js';
import { TIMESTAMP_PARAM, dateFromMs, epochMs, timestampParams } from './sql-values.js';

/** A vacancy past the page's byte budget is read without its rendering (rowsWithinPageBytes). */
const RENDERING_WITHIN_BUDGET = 'case when past_budget then null else rendering end as rendering';

interface VacancyListRow {
  id: string;
  rendering: string | null;
  updated_at_ms: number;
  past_budget: boolean;
}

/**
 * One page of the keyset scan in the order (updated_at, id): each vacancy's stored rendering (ADR 18), read
 * as text and sent as it is, with its place in the order. Served by the indexes (company_id, [status,]
 * updated_at, id); ids use the "C" collation, so they compare by code unit as the in-memory adapter compares
 * JS strings. A rendering that a writer of the previous version left missing or stale is rendered from the
 * row, read with the page once more (withCurrentRenderings).
 */
export async function listedVacancies(read: PageStatements, query: VacancyListQuery): Promise<ListedVacancy[]> {
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
  // `page_bytes`: what the page's byte budget counts of a vacancy (rowsWithinPageBytes); one a writer of the
  // previous version left without a rendering counts as its longest texts.
  const rows = `select *, coalesce(octet_length(rendering), octet_length(title) + coalesce(octet_length(description), 0)
                  + coalesce(octet_length(responsibilities), 0)) as page_bytes
                  from vacancies where ${where.join(' and ')} order by updated_at, id limit ?`;
  const within = rowsWithinPageBytes(rows, params, 'v', 'p.updated_at, p.id', query.maxBytes);
  const page = (columns: string) => `select ${columns} from ${within.sql} order by updated_at, id`;
  const pageParams = within.params;
  const readPage = async () => {
    const rows = await read<VacancyListRow>(page(`id, ${RENDERING_WITHIN_BUDGET}, past_budget, ${epochMs('updated_at')} as updated_at_ms`), pageParams);
    return rows.map(toListed);
  };
  // The same page with every column, for the rows whose rendering is not current (withCurrentRenderings).
  const readWholePage = async () => {
    const rows = await read<VacancyListRow & Record<string, unknown>>(page(`${VACANCIES.selectList()}, ${RENDERING_WITHIN_BUDGET}, past_budget`), pageParams);
    return rows.map((r) => ({ listed: toListed(r), render: () => vacancyRendering(fromVacancyRow(VACANCIES.rowOf(r))) }));
  };
  const current = await withCurrentRenderings(readPage, readWholePage);
  return current.map(({ pastBudget, ...v }) => (pastBudget ? { ...v, rendering: '', bytes: PAST_BUDGET_BYTES } : { ...v, bytes: Buffer.byteLength(v.rendering, 'utf8') }));
}

function toListed(r: VacancyListRow): Omit<ListedVacancy, 'rendering' | 'bytes'> & { readonly rendering: string | null; readonly pastBudget: boolean } {
  return { id: r.id, updatedAt: dateFromMs(r.updated_at_ms), rendering: r.rendering, pastBudget: r.past_budget };
}
