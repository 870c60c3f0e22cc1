import { PAGE_TEXT } from '../../domain/paging/page-budget.js';

/** An item's JSON text, whole or in parts written one after the other (a card's leading fields, then its stored rendering). */
export type PageItem = string | readonly string[];

/**
 * Characters of small texts joined into one piece: a page of 500 ordinary cards goes in about 30 pieces, not
 * a thousand writes; a text this long or longer (a large record's rendering) is a piece of its own, never copied.
 */
export const PAGE_CHUNK_CHARS = 32 * 1024;

/** A page as the texts to write one after the other, and the UTF-8 bytes they make. */
export interface PageText {
  readonly bytes: number;
  readonly pieces: readonly string[];
}

/**
 * A list page (spec 4.1, 4.2) from items already in their JSON text: what JSON.stringify({ items, nextCursor })
 * of the parsed items would print, without parsing them again, as pieces of text and their byte count, so that
 * the route sends them with their length as they are (ADR 24): a page of large records is never held twice
 * (its texts and a buffer of the page). Texts are cut only between them, so a surrogate pair is never split
 * (and JSON.stringify, which rendered the items, escapes a lone surrogate).
 */
export function pageText(items: readonly PageItem[], nextCursor: string | null): PageText {
  const pieces: string[] = [];
  let bytes = 0;
  let joined = '';
  const add = (text: string) => {
    bytes += Buffer.byteLength(text, 'utf8');
    if (text.length < PAGE_CHUNK_CHARS) {
      joined += text;
      if (joined.length < PAGE_CHUNK_CHARS) return;
    } else if (joined !== '') {
      pieces.push(joined);
      joined = text;
    } else {
      joined = text;
    }
    pieces.push(joined);
    joined = '';
  };
  add(PAGE_TEXT.open);
  items.forEach((item, index) => {
    if (index > 0) add(PAGE_TEXT.separator);
    if (typeof item === 'string') add(item);
    else for (const part of item) add(part);
  });
  add(PAGE_TEXT.close + JSON.stringify(nextCursor) + PAGE_TEXT.end);
  if (joined !== '') pieces.push(joined);
  return { bytes, pieces };
}

/** pageText's bytes in one buffer, written text by text. */
export function renderPage(items: readonly PageItem[], nextCursor: string | null): Buffer {
  const { bytes, pieces } = pageText(items, nextCursor);
  const page = Buffer.allocUnsafe(bytes);
  let at = 0;
  for (const piece of pieces) at += page.write(piece, at, 'utf8');
  // Every byte of allocUnsafe's memory is written: a short count would send what the memory held before.
  if (at !== bytes) throw new Error(`a page measured ${bytes} bytes and was written in ${at}`);
  return page;
}
