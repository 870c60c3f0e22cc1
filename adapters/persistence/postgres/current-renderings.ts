import { isRenderingCurrent } from '../../presenters/rendering-currency.js';

/** A page's row as a list query reads it: its id, its place in the order and its stored rendering, if any. */
export interface RenderedPageRow {
  readonly id: string;
  readonly updatedAt: Date;
  readonly rendering: string | null;
  /** A row past the page's byte budget, read without its rendering (rowsWithinPageBytes): nothing to render. */
  readonly pastBudget?: boolean;
}

/** A page's row read whole: as listed, and its text as the row mapping renders it from the same row's columns. */
export interface WholePageRow<T extends RenderedPageRow> {
  readonly listed: T;
  render(): string;
}

/**
 * A page whose every rendering is current (ADR 18). During a rolling upgrade an instance of the previous
 * version writes rows without renderings, or changes them and leaves the old text; until `admin check
 * renderings --repair` has run after the upgrade, and whenever such a row is met, the page is read once more,
 * whole: the same statement that also selects every column, and the rows whose rendering fails
 * isRenderingCurrent are rendered from that same row, as a write renders them. Reads stay read-only: the
 * repair is the check's, not the list's.
 *
 * The second read replaces the first entirely, so the items, their positions, their texts and the cursor all
 * come from one snapshot, however the rows changed in between (a row moved, deleted, written anew): no item
 * can show a record's newer state at its older place, and no page fails for writes going on under it.
 */
export async function withCurrentRenderings<T extends RenderedPageRow>(
  readPage: () => Promise<T[]>,
  readWholePage: () => Promise<WholePageRow<T>[]>,
): Promise<(T & { readonly rendering: string })[]> {
  const rows = await readPage();
  if (rows.every(isCurrent)) return rows as (T & { rendering: string })[];
  const whole = await readWholePage();
  return whole.map(({ listed, render }) => (isCurrent(listed) ? (listed as T & { rendering: string }) : { ...listed, rendering: render() }));
}

const isCurrent = (row: RenderedPageRow) => row.pastBudget === true || isRenderingCurrent(row.rendering, row.updatedAt);
