import { PAGE_TEXT } from '../../domain/paging/page-budget.js';

/** An item's JSON text, whole or in parts written one after the other (a card's leading fields, then its stored rendering). */
export type PageItem = string | readonly string[];

/**
 * A list page (spec 4.1, 4.2) from items already in their JSON text, as the UTF-8 bytes of what
 * JSON.stringify({ items, nextCursor }) of the parsed items would print, without parsing them again.
 * Measured first, then each text written once straight into one buffer of the page's size: no string of
 * the page (which V8 would allocate in its large-object space and flatten once more to write), no joined
 * text of an item, no pieces to concatenate. A page of maximal applications (1.4 MB each, ADR 18 and the
 * page budget) is then held once outside the heap, beside the texts read from the database. Each text is
 * written whole, so a surrogate pair is never split (and JSON.stringify, which rendered the items, escapes
 * a lone surrogate).
 */
export function renderPage(items: readonly PageItem[], nextCursor: string | null): Buffer {
  const end = PAGE_TEXT.close + JSON.stringify(nextCursor) + PAGE_TEXT.end;
  let size = PAGE_TEXT.open.length + Buffer.byteLength(end, 'utf8') + Math.max(0, items.length - 1) * PAGE_TEXT.separator.length;
  for (const item of items) size += typeof item === 'string' ? Buffer.byteLength(item, 'utf8') : partsBytes(item);
  const page = Buffer.allocUnsafe(size);
  let at = page.write(PAGE_TEXT.open, 0, 'utf8');
  items.forEach((item, index) => {
    if (index > 0) at += page.write(PAGE_TEXT.separator, at, 'utf8');
    if (typeof item === 'string') at += page.write(item, at, 'utf8');
    else for (const part of item) at += page.write(part, at, 'utf8');
  });
  at += page.write(end, at, 'utf8');
  // Every byte of allocUnsafe's memory is written: a short count would send what the memory held before.
  if (at !== size) throw new Error(`a page measured ${size} bytes and was written in ${at}`);
  return page;
}

function partsBytes(parts: readonly string[]): number {
  let bytes = 0;
  for (const part of parts) bytes += Buffer.byteLength(part, 'utf8');
  return bytes;
}
