import { InvalidCursorError, queryFingerprint } from '../paging/cursor.js';

/**
 * A place in the key events' order: the last event of a page, by id. The order is the order of recording,
 * which the store knows from the event (ADR 17); version 1 held the event's `at`, by which the trail was once
 * ordered, and is refused as malformed: a reader holding one starts again from the first page.
 */
interface Payload {
  v: 2;
  i: string;
  /** The fingerprint of the query that made it (keyEventsQueryFingerprint). */
  f: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const MAX_LENGTH = 256;
const ID_MAX_LENGTH = 64;
const FINGERPRINT_MAX_LENGTH = 32;
const MALFORMED = 'The cursor is malformed. Pass nextCursor of the previous page unchanged.';
const ANOTHER_QUERY = "The cursor belongs to another company's key events: pass nextCursor only to the query that gave it.";

/** The identity of a key events query: a cursor of one company's events means nothing in another's (DESIGN 3). */
export function keyEventsQueryFingerprint(companyId: string): string {
  return queryFingerprint(['key-events', companyId]);
}

/** Opaque to clients: base64url of {v:2,i:<id of the page's last event>,f:<query fingerprint>}. */
export function encodeKeyEventCursor(lastEventId: string, fingerprint: string): string {
  const payload: Payload = { v: 2, i: lastEventId, f: fingerprint };
  let binary = '';
  for (const byte of new TextEncoder().encode(JSON.stringify(payload))) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The id of the event a cursor of the key events names; throws InvalidCursorError when it is not one, or one
 * of another query.
 */
export function decodeKeyEventCursor(cursor: string, fingerprint: string): string {
  if (cursor.length === 0 || cursor.length > MAX_LENGTH || !BASE64URL.test(cursor) || cursor.length % 4 === 1) {
    throw new InvalidCursorError(MALFORMED);
  }
  let payload: unknown;
  try {
    const padded = cursor.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (cursor.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(padded), (ch) => ch.charCodeAt(0));
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new InvalidCursorError(MALFORMED);
  }
  if (!isPayload(payload)) throw new InvalidCursorError(MALFORMED);
  if (payload.f !== fingerprint) throw new InvalidCursorError(ANOTHER_QUERY);
  return payload.i;
}

function isPayload(value: unknown): value is Payload {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const p = value as Record<string, unknown>;
  return (
    p.v === 2 &&
    typeof p.i === 'string' &&
    p.i.length > 0 &&
    p.i.length <= ID_MAX_LENGTH &&
    // Ids are what IdGenerator makes: printable ASCII, which every store compares alike.
    /^[\x21-\x7e]+$/.test(p.i) &&
    typeof p.f === 'string' &&
    p.f.length > 0 &&
    p.f.length <= FINGERPRINT_MAX_LENGTH
  );
}
