import { PAST_BUDGET_BYTES } from '../../../application/ports/candidate-repository.port.js';

/**
 * The list repositories' early end (CandidateListQuery.maxBytes), as the PostgreSQL adapters' statements cut
 * them: the first two rows, and each further row while the UTF-8 bytes of the renderings before it stay within
 * maxBytes. So every row that could fit is there, and one more that says more exist; when that one's own
 * rendering takes the bytes past maxBytes, no page can take it, and it goes without its rendering.
 */
export function withinPageBytes<T extends { readonly rendering: string; readonly bytes: number }>(rows: readonly T[], maxBytes: number | undefined): T[] {
  if (maxBytes === undefined) return [...rows];
  const kept: T[] = [];
  let bytes = 0;
  for (const row of rows) {
    if (kept.length >= 2 && bytes > maxBytes) break;
    bytes += Buffer.byteLength(row.rendering, 'utf8');
    kept.push(kept.length > 0 && bytes > maxBytes ? { ...row, rendering: '', bytes: PAST_BUDGET_BYTES } : row);
  }
  return kept;
}
