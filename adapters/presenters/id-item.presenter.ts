import { isoTimestamp } from './timestamp.js';

/**
 * An item of an identifier-only page (`fields=id`): `{"id":…,"updatedAt":…}`, the two fields as a full item
 * writes them, so that a client can hold the two passes against each other.
 */
export function idItem(id: string, updatedAt: Date): string {
  return `{"id":${JSON.stringify(id)},"updatedAt":"${isoTimestamp(updatedAt)}"}`;
}

/** idItem's UTF-8 bytes. */
export function idItemBytes(id: string, updatedAt: Date): number {
  return Buffer.byteLength(idItem(id, updatedAt), 'utf8');
}
