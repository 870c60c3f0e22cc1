/**
 * The list repositories' early end (CandidateListQuery.maxBytes), as the PostgreSQL adapters' statements cut
 * them: the first two rows, and each further row while the UTF-8 bytes of the renderings before it stay within
 * maxBytes. So every row that could fit is there, and one more that says more exist.
 */
export function withinPageBytes<T extends { readonly rendering: string }>(rows: readonly T[], maxBytes: number | undefined): T[] {
  if (maxBytes === undefined) return [...rows];
  const kept: T[] = [];
  let bytes = 0;
  for (const row of rows) {
    if (kept.length >= 2 && bytes > maxBytes) break;
    kept.push(row);
    bytes += Buffer.byteLength(row.rendering, 'utf8');
  }
  return kept;
}
