import { encodeCursor, MAX_CURSOR_LENGTH, type Page, type PagePosition } from './cursor.js';

/**
 * The most bytes of a list page's body by default (LIST_PAGE_MAX_BYTES). A page of 500 ordinary cards is about
 * a megabyte; 500 maximal applications (1.4 MB each) would be 700 MB, held in the service's memory at once.
 */
export const PAGE_MAX_BYTES_DEFAULT = 8 * 1024 * 1024;

/**
 * The text around a page's items (spec 4.1, 4.2): `{"items":[` item `,` item ... `],"nextCursor":` cursor `}`.
 * The page presenter writes these very strings, and the budget counts them, so the two agree to the byte.
 */
export const PAGE_TEXT = { open: '{"items":[', separator: ',', close: '],"nextCursor":', end: '}' } as const;

const FRAME_BYTES = PAGE_TEXT.open.length + PAGE_TEXT.close.length + PAGE_TEXT.end.length;
const NO_CURSOR_BYTES = 'null'.length;
/** A cursor is base64url (ASCII), written as a JSON string: its quotes and its characters. */
const cursorBytes = (cursor: string) => cursor.length + 2;
const LONGEST_CURSOR_BYTES = MAX_CURSOR_LENGTH + 2;

export interface PageCut<T> {
  /** At most limit + 1 rows in list order: a row past `limit`, or past the budget, only says that more exist. */
  readonly rows: readonly T[];
  readonly limit: number;
  readonly maxBytes: number;
  /** The UTF-8 bytes of the row's JSON as an item of the page. */
  bytesOf(row: T): number;
  positionOf(row: T): PagePosition;
  readonly fingerprint: string;
}

/**
 * A page of the rows (DESIGN 3, spec 4.1): at most `limit` items, and it ends before the item that would take
 * its body, nextCursor included, past `maxBytes`; its first item goes out whatever its size, so that a record
 * larger than the budget is still delivered, alone. nextCursor follows the last item whenever a row is left.
 */
export function cutPage<T>(cut: PageCut<T>): Page<T> {
  const { rows, limit, maxBytes } = cut;
  const last = Math.min(limit, rows.length);
  let body = FRAME_BYTES;
  let count = 0;
  while (count < last) {
    const row = rows[count] as T;
    const withRow = body + (count === 0 ? 0 : PAGE_TEXT.separator.length) + cut.bytesOf(row);
    if (count > 0 && !cursorFits(cut, count + 1, maxBytes - withRow)) break;
    body = withRow;
    count++;
  }
  const items = rows.slice(0, count);
  const lastItem = items[count - 1];
  const nextCursor = count < rows.length && lastItem !== undefined ? encodeCursor(cut.positionOf(lastItem), cut.fingerprint) : null;
  return { items, nextCursor };
}

/**
 * Whether nextCursor of a page of the first `count` rows fits into `room` bytes. The cursor is made only when
 * its longest form might not fit, so that a page well within its budget costs no cursor per row.
 */
function cursorFits<T>(cut: PageCut<T>, count: number, room: number): boolean {
  if (count >= cut.rows.length) return NO_CURSOR_BYTES <= room;
  if (LONGEST_CURSOR_BYTES <= room) return true;
  return cursorBytes(encodeCursor(cut.positionOf(cut.rows[count - 1] as T), cut.fingerprint)) <= room;
}
