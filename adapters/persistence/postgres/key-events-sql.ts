import { executeInlined, type PgSession } from './pg-statements.js';
import type { PlatformTokenEvent, PlatformTokenEventType } from '../../../domain/platform-token/platform-token-event.js';
import type { KeyEvent, KeyEventType } from '../../../domain/service-key/key-event.js';
import { dateFromMs, epochMs, nullableDateFromMs } from './sql-values.js';

/**
 * The SQL of `key_events` (Migration20261126000000KeyEvents) for the service-key repository. Values are
 * inlined (sql-values.ts): none of these statements may be logged with its values.
 */

/** What a writer gives; `sequence` is the table's default, taken under the trail's lock (lockTrail). */
export const KEY_EVENT_COLUMNS = 'id, company_id, key_id, type, at, actor, via, successor_key_id, expires_at';

/**
 * First key of the two-key advisory lock of the trail (the second is 0): apart from the companies' locks
 * (company-lock.ts), which may live in the same database.
 */
export const KEY_TRAIL_LOCK_NAMESPACE = 0x4b_45_59_53;

/**
 * Every transaction that stores events takes the trail's lock first, before any row lock, and holds it to
 * its commit; the events' sequence is drawn after it. So sequence order is commit order: an event a reader
 * could not see when it read gets a sequence above everything that reader saw (ADR 17). First, so that a
 * holder of the lock never waits for a key's row that a waiter for the lock holds.
 */
export async function lockTrail(session: PgSession): Promise<void> {
  await executeInlined(session, 'select pg_advisory_xact_lock(?, 0)', [KEY_TRAIL_LOCK_NAMESPACE]);
}

/** The `?` of one event in the order of KEY_EVENT_COLUMNS. */
export const KEY_EVENT_VALUES = '?, ?, ?, ?, ?::timestamptz, ?, ?, ?, ?::timestamptz';

/**
 * The conflict target of the events a key has at most one of: the partial unique index. Naming it (rather
 * than a bare ON CONFLICT DO NOTHING) keeps a repeated event id an error, as it is in the in-memory store.
 */
export const ONCE_PER_KEY_CONFLICT = `on conflict (key_id, type) where type in ('expired', 'first_used') do nothing`;

/** A row of key_events: a key's event, or a platform token's, which has no company and the token's id as key_id. */
export type KeyEventRow = Omit<KeyEvent, 'companyId' | 'type'> & {
  readonly companyId: string | null;
  readonly type: KeyEventType | PlatformTokenEventType;
};

export function platformTokenEventRow(event: PlatformTokenEvent): KeyEventRow {
  const { tokenId, ...rest } = event;
  return { ...rest, companyId: null, keyId: tokenId, successorKeyId: null };
}

export function keyEventParams(event: KeyEventRow): unknown[] {
  return [event.id, event.companyId, event.keyId, event.type, event.at, event.actor, event.via, event.successorKeyId, event.expiresAt];
}

/** Every event in one statement, in a transaction that took the trail's lock (lockTrail). */
export async function insertKeyEvents(session: PgSession, events: readonly KeyEventRow[]): Promise<void> {
  if (events.length === 0) return;
  await executeInlined(session, `insert into key_events (${KEY_EVENT_COLUMNS}) values ${events.map(() => `(${KEY_EVENT_VALUES})`).join(', ')}`, events.flatMap(keyEventParams));
}

interface KeyEventListRow {
  id: string;
  company_id: string;
  key_id: string;
  type: string;
  at_ms: number;
  actor: string | null;
  via: string | null;
  successor_key_id: string | null;
  expires_at_ms: number | null;
}

/**
 * One page of a company's events, newest first: a backward scan of (company_id, sequence desc) from the
 * event that ended the previous page. An unknown event (of another company, or none) gives an empty page.
 */
export async function listKeyEvents(
  session: PgSession,
  companyId: string,
  page: { readonly limit: number; readonly after: string | null },
): Promise<KeyEvent[]> {
  if (!Number.isSafeInteger(page.limit) || page.limit < 0) throw new RangeError('A page limit must be a non-negative integer.');
  const params: unknown[] = [companyId];
  let position = '';
  if (page.after !== null) {
    position = ' and sequence < (select sequence from key_events where id = ? and company_id = ?)';
    params.push(page.after, companyId);
  }
  params.push(page.limit);
  const rows = await executeInlined<KeyEventListRow>(
    session,
    `select id, company_id, key_id, type, ${epochMs('at')} as at_ms, actor, via, successor_key_id, ${epochMs('expires_at')} as expires_at_ms
       from key_events
      where company_id = ?${position}
      order by sequence desc
      limit ?`,
    params,
  );
  return rows.map(toKeyEvent);
}
function toKeyEvent(row: KeyEventListRow): KeyEvent {
  return {
    id: row.id,
    companyId: row.company_id,
    keyId: row.key_id,
    // The table's check constraint admits only the domain's types.
    type: row.type as KeyEventType,
    at: dateFromMs(row.at_ms),
    actor: row.actor,
    via: row.via,
    successorKeyId: row.successor_key_id,
    expiresAt: nullableDateFromMs(row.expires_at_ms),
  };
}
