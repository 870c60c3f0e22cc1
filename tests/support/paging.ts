import { expect } from 'chai';
import type { ApiClient, ApiResponse } from './api-client.js';

/**
 * Follows nextCursor from the first page to the last, as a sync client does (spec 8, sync rules 1-2),
 * calling `between` after each page. Checks that every page but the last is full and that nextCursor
 * is null exactly on the last page.
 */
export async function pageThrough(
  api: ApiClient,
  path: string,
  options: { query?: string; limit: number; between?: (pagesSoFar: number) => Promise<void> },
) {
  const ids: string[] = [];
  const pages: any[][] = [];
  let cursor: string | null = null;
  do {
    const params: string[] = [options.query ?? '', `limit=${options.limit}`, cursor === null ? '' : `cursor=${encodeURIComponent(cursor)}`];
    const response: ApiResponse = await api.get(`${path}?${params.filter((p) => p !== '').join('&')}`);
    expect(response.status, response.text.slice(0, 300)).to.equal(200);
    const items: { id: string }[] = response.body.items;
    pages.push(items);
    ids.push(...items.map((item) => item.id));
    cursor = response.body.nextCursor;
    if (cursor !== null) expect(items, 'a page with a next cursor is full').to.have.length(options.limit);
    await options.between?.(pages.length);
  } while (cursor !== null);
  return { ids, pages };
}
