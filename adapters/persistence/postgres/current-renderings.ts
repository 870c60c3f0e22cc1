import { isRenderingCurrent } from '../../presenters/rendering-currency.js';

/** A page's row as a list query reads it: its id, its place in the order and its stored rendering, if any. */
export interface RenderedPageRow {
  readonly id: string;
  readonly updatedAt: Date;
  readonly rendering: string | null;
}

/** A row rendered again from its columns: the position it has now, and its text as the row mapping renders it. */
export interface Rerendered {
  readonly updatedAt: Date;
  readonly rendering: string;
}

/** Page reads before giving up when writes keep changing the rows re-read between the two statements. */
const PAGE_READS = 3;

/**
 * A page whose every rendering is current (ADR 18). During a rolling upgrade an instance of the previous
 * version writes rows without renderings, or changes them and leaves the old text; until `admin check
 * renderings --repair` has run after the upgrade, and whenever such a row is met, the rows whose rendering
 * fails isRenderingCurrent are read whole in one more statement and rendered as a write renders them. Reads
 * stay read-only: the repair is the check's, not the list's.
 *
 * That statement runs after the page's: a write in between (a row now at another position, or deleted) would
 * put a record's newer state at its older place, or leave an item without a text, so the page is read again.
 */
export async function withCurrentRenderings<T extends RenderedPageRow>(
  readPage: () => Promise<T[]>,
  rerender: (ids: readonly string[]) => Promise<ReadonlyMap<string, Rerendered>>,
): Promise<(T & { readonly rendering: string })[]> {
  for (let read = 1; ; read++) {
    const rows = await readPage();
    const stale = rows.filter((row) => !isRenderingCurrent(row.rendering, row.updatedAt));
    if (stale.length === 0) return rows as (T & { rendering: string })[];
    const fresh = await rerender(stale.map((row) => row.id));
    const unchanged = stale.every((row) => fresh.get(row.id)?.updatedAt.getTime() === row.updatedAt.getTime());
    if (unchanged) return rows.map((row) => ({ ...row, rendering: fresh.get(row.id)?.rendering ?? (row.rendering as string) }));
    if (read === PAGE_READS) throw new Error(`A list page's records kept changing between its read and their re-rendering (${PAGE_READS} reads).`);
  }
}
