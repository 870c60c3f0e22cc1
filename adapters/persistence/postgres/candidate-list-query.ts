import { PAST_BUDGET_BYTES, type CandidateListQuery, type ListedCandidate } from '../../../application/ports/candidate-repository.port.js';
import { splicedCandidateBytes } from '../../presenters/candidate.presenter.js';
import { withCurrentRenderings } from './current-renderings.js';
import type { PageStatements } from './replicas/replica-router.js';
import { rowsWithinPageBytes } from './page-bytes-sql.js';
import { CANDIDATES } from './tables/candidate.table.js';
import { cardRendering, fromCandidateRow } from './row-mapping/candidate-row-mapping.js';
import { TIMESTAMP_PARAM, dateFromMs, epochMs, timestampParams } from './sql-values.js';

interface CandidateListRow {
  id: string;
  vacancy_id: string | null;
  vacancy_title: string | null;
  rendering: string | null;
  modified_at_ms: number;
  past_budget: boolean;
}

/**
 * One page of the keyset scan of listed (non-technical) cards in the order (modified_at, id): each card's
 * stored rendering (ADR 18) with its vacancy's title, read by the vacancy's key with the page. modified_at is
 * the stored, indexed greatest(card_updated_at, resume_updated_at), the card's updatedAt; ids compare in the
 * "C" collation, by code unit. A rendering that a writer of the previous version left missing or stale is
 * rendered from the row, read with the page once more (withCurrentRenderings).
 */
export async function listedCandidates(read: PageStatements, query: CandidateListQuery): Promise<ListedCandidate[]> {
  const where = ['c.company_id = ?', 'not c.technical'];
  const params: unknown[] = [query.companyId];
  if (query.vacancyId !== null) {
    where.push('c.vacancy_id = ?');
    params.push(query.vacancyId);
  }
  if (query.since !== null) {
    where.push(`c.modified_at > ${TIMESTAMP_PARAM}`);
    params.push(...timestampParams(query.since));
  }
  if (query.after !== null) {
    where.push(`(c.modified_at, c.id) > (${TIMESTAMP_PARAM}, ?)`);
    params.push(...timestampParams(query.after.modifiedAt), query.after.id);
  }
  params.push(query.limit);
  // The page is cut first and only its rows get their vacancy's title: with a join inside, near the end of a long
  // list the planner expects few rows after the cursor and hash-joins and sorts all of them (a page at 99% of a
  // million cards read every card after it); on its own the page is always the short walk of the sync index.
  // The title is a scalar subquery, read by the vacancy's key for each row of the page: as a left join of the
  // page, the planner hashed the page and scanned every vacancy of the company to probe it (5.6 ms a page at
  // 1,000 vacancies, against 0.9 ms; bench/README, "Reads by key").
  // `whole`: with every column of the card, for the rows whose rendering is not current (withCurrentRenderings).
  // `page_bytes`: what the page's byte budget counts of a card (rowsWithinPageBytes); a card a writer of the
  // previous version left without a rendering counts as its documents' text.
  const rows = (whole: boolean) =>
    `select ${whole ? 'c.*' : 'c.company_id, c.id, c.vacancy_id, c.rendering, c.modified_at'},
            coalesce(octet_length(c.rendering), octet_length(c.person::text) + octet_length(c.resume::text)
              + coalesce(octet_length(c.referral::text), 0) + coalesce(octet_length(c.cover_letter), 0)) as page_bytes
       from candidates c
      where ${where.join(' and ')}
      order by c.modified_at, c.id
      limit ?`;
  const page = (whole: boolean) => {
    const within = rowsWithinPageBytes(rows(whole), params, 'c', 'p.modified_at, p.id', query.maxBytes);
    const sql = `select c.vacancy_id, (select v.title from vacancies v where v.company_id = c.company_id and v.id = c.vacancy_id) as vacancy_title,
            case when c.past_budget then null else c.rendering end as rendering, c.past_budget,
            ${epochMs('c.modified_at')} as modified_at_ms, ${whole ? CANDIDATES.selectList('c') : 'c.id'}
       from ${within.sql}
      order by c.modified_at, c.id`;
    return { sql, params: within.params };
  };
  const readPage = async () => {
    const { sql, params } = page(false);
    return (await read<CandidateListRow>(sql, params)).map(toListed);
  };
  const readWholePage = async () => {
    const { sql, params } = page(true);
    const rows = await read<CandidateListRow & Record<string, unknown>>(sql, params);
    // A card listed is not technical, and stays so: its rendering is never null.
    return rows.map((r) => ({ listed: toListed(r), render: () => cardRendering(fromCandidateRow(CANDIDATES.rowOf(r))) as string }));
  };
  const current = await withCurrentRenderings(readPage, readWholePage);
  return current.map(({ pastBudget, ...c }) =>
    pastBudget ? { ...c, rendering: '', bytes: PAST_BUDGET_BYTES } : { ...c, bytes: splicedCandidateBytes(c.id, c.vacancyId, c.vacancyTitle, c.rendering) },
  );
}

function toListed(r: CandidateListRow): Omit<ListedCandidate, 'rendering' | 'bytes'> & { readonly rendering: string | null; readonly pastBudget: boolean } {
  return {
    pastBudget: r.past_budget,
    id: r.id,
    vacancyId: r.vacancy_id,
    vacancyTitle: r.vacancy_id === null ? null : r.vacancy_title,
    updatedAt: dateFromMs(r.modified_at_ms),
    rendering: r.rendering,
  };
}
