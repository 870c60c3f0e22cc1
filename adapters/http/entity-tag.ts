import { createHash } from 'node:crypto';
import type { HttpContext, HttpMiddleware } from './http-state.js';

/** The content codings the compression middleware may apply, each marked on the entity tag of a page sent so. */
const CODINGS = ['gzip', 'br'] as const;
/** One entity tag of If-None-Match (RFC 9110 8.8.3): an optional weakness mark, then a quoted opaque tag. */
const ENTITY_TAG = /\s*(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(?:,|$)/gy;

/**
 * The strong entity tag of a page: the SHA-256 of exactly its bytes, as sent without compression. Whatever
 * shapes the body (the records, the query, the key's company, the rendering of this version) is in them, so
 * two pages share a tag only when they are byte-identical; no other state is needed to decide a 304 (ADR 27).
 */
export function entityTagOf(pieces: readonly string[]): string {
  const hash = createHash('sha256');
  for (const piece of pieces) hash.update(piece, 'utf8');
  return `"${hash.digest('base64url')}"`;
}

/**
 * The tag of If-None-Match that names the page whose strong tag is `tag`, as the client sent it (so that a 304
 * repeats the tag of the representation it holds), or null. The comparison is the weak one RFC 9110 13.1.2
 * asks for; `*` names any page; a tag with a coding's mark names the same page compressed. A malformed header
 * names none, so the page is sent.
 */
export function matchingTag(ifNoneMatch: string, tag: string): string | null {
  const header = ifNoneMatch.trim();
  if (header === '*') return tag;
  const opaque = tag.slice(1, -1);
  const named = new Set([opaque, ...CODINGS.map((coding) => `${opaque}-${coding}`)]);
  ENTITY_TAG.lastIndex = 0;
  let matched: string | null = null;
  let consumed = 0;
  for (let m = ENTITY_TAG.exec(header); m !== null; m = ENTITY_TAG.exec(header)) {
    consumed = ENTITY_TAG.lastIndex;
    if (matched === null && named.has(m[1] as string)) matched = `"${m[1]}"`;
    if (consumed >= header.length) break;
  }
  return consumed === header.length ? matched : null;
}

/**
 * Marks the entity tag of a compressed page with its coding (`"…-gzip"`, `"…-br"`): a strong tag names one
 * representation, and the compressed bytes are another than the plain ones. Outside the compression middleware,
 * which decides the coding only when the body is written.
 */
export const entityTagCodingMiddleware: HttpMiddleware = async (ctx, next) => {
  await next();
  markCoding(ctx);
};

function markCoding(ctx: HttpContext): void {
  const tag = String(ctx.response.get('ETag') ?? '');
  const coding = String(ctx.response.get('Content-Encoding') ?? '');
  if (tag === '' || ctx.status !== 200 || !(CODINGS as readonly string[]).includes(coding)) return;
  ctx.set('ETag', `${tag.slice(0, -1)}-${coding}"`);
}
