/**
 * A list page's rows ended by the page's byte budget (CandidateListQuery.maxBytes), as a FROM item named `alias`:
 * `rows` (with `rowsParams`) is the page's statement, in list order and limited, selecting a column `page_bytes` (the
 * stored rendering's octet_length); the rows kept are the first two, and each further one while the bytes of
 * the rows before it stay within maxBytes: every row that could fit, and one more that says more exist. The
 * sum is a window over the page in PostgreSQL: octet_length of a stored text reads its length from the TOAST
 * header, so the renderings past the budget are neither read nor sent (issue: 60 maximal applications made one
 * page of 85 MB in the service's memory). The last row kept is `past_budget` when its own rendering takes the
 * sum past maxBytes: no page can take it, so the caller selects no rendering of it. Without maxBytes, the rows
 * as they are, none past the budget.
 */
export function rowsWithinPageBytes(
  rows: string,
  rowsParams: readonly unknown[],
  alias: string,
  order: string,
  maxBytes: number | undefined,
): { sql: string; params: unknown[] } {
  if (maxBytes === undefined) return { sql: `(select p.*, false as past_budget from (${rows}) p) ${alias}`, params: [...rowsParams] };
  const sql = `(select p.*, p.place > 1 and p.bytes_before + p.page_bytes > ? as past_budget
                  from (select p.*, sum(p.page_bytes) over w - p.page_bytes as bytes_before, row_number() over w as place
                          from (${rows}) p window w as (order by ${order} rows between unbounded preceding and current row)) p
                 where p.place <= 2 or p.bytes_before <= ?) ${alias}`;
  return { sql, params: [maxBytes, ...rowsParams, maxBytes] };
}
