import { PAGE_TEXT } from '../../domain/paging/page-budget.js';

/**
 * Characters of a page encoded at a time. A page of 500 cards is about a megabyte of text: built as one
 * string it would be allocated straight into V8's old generation (large objects), flattened once more to be
 * written, and kept until the next full collection; in pieces of this size each piece dies young and the
 * bytes live outside the heap, freed with their buffer.
 */
export const PAGE_CHUNK_CHARS = 32 * 1024;

/**
 * A list page (spec 4.1, 4.2) from items already in their JSON text, as the UTF-8 bytes of what
 * JSON.stringify({ items, nextCursor }) of the parsed items would print, without parsing or copying them
 * again. The text is cut only between items, so a surrogate pair is never split (and JSON.stringify, which
 * rendered the items, escapes a lone surrogate).
 */
export function renderPage(items: readonly string[], nextCursor: string | null, chunkChars = PAGE_CHUNK_CHARS): Buffer {
  const pieces: Buffer[] = [];
  let text: string = PAGE_TEXT.open;
  items.forEach((item, index) => {
    text += index === 0 ? item : PAGE_TEXT.separator + item;
    if (text.length >= chunkChars) {
      pieces.push(Buffer.from(text, 'utf8'));
      text = '';
    }
  });
  pieces.push(Buffer.from(text + PAGE_TEXT.close + JSON.stringify(nextCursor) + PAGE_TEXT.end, 'utf8'));
  return pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces);
}
