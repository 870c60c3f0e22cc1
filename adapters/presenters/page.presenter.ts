/**
 * A list page (spec 4.1, 4.2) from items already in their JSON text: the same bytes as
 * JSON.stringify({ items, nextCursor }) of the parsed items, without parsing or copying them again.
 */
export function renderPage(items: readonly string[], nextCursor: string | null): string {
  return `{"items":[${items.join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}`;
}
