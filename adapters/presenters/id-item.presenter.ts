import { isoTimestamp, isoTimestampLength } from './timestamp.js';

/** Printable ASCII but the quote and the backslash: characters JSON.stringify writes as they are, one byte each. */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * An item of an identifier-only page (`fields=id`): `{"id":…,"updatedAt":…}`, the two fields as a full item
 * writes them, so that a client can hold the two passes against each other.
 */
export function idItem(id: string, updatedAt: Date): string {
  return `{"id":${PLAIN_ASCII.test(id) ? `"${id}"` : JSON.stringify(id)},"updatedAt":"${isoTimestamp(updatedAt)}"}`;
}

/** idItem's text around the id's JSON string and the timestamp's characters. */
const EPOCH = new Date(0);
const FRAME_BYTES = Buffer.byteLength(idItem('', EPOCH), 'utf8') - '""'.length - isoTimestampLength(EPOCH);

/**
 * idItem's UTF-8 bytes, counted without writing the item: a store counts every listed item against the page's
 * budget, and the route writes only those of the page. An id of plain ASCII (every id the service makes) is
 * written and counted as it is, without JSON.stringify.
 */
export function idItemBytes(id: string, updatedAt: Date): number {
  const idBytes = PLAIN_ASCII.test(id) ? id.length + '""'.length : Buffer.byteLength(JSON.stringify(id), 'utf8');
  return FRAME_BYTES + idBytes + isoTimestampLength(updatedAt);
}
