import { executeInlined, type PgSession } from './pg-statements.js';
import type { PlatformTokenEvent, PlatformTokenEventType } from '../../../domain/platform-token/platform-token-event.js';
import { dateFromMs, epochMs, nullableDateFromMs } from './sql-values.js';

interface PlatformTokenEventRow {
  id: string;
  key_id: string;
  type: string;
  at_ms: number;
  actor: string;
  via: string;
  expires_at_ms: number | null;
}

/**
 * One page of the platform tokens' events: the rows of key_events without a company, newest first in the order
 * of recording (sequence, ADR 17) from the event that ended the previous page, as a company's page is read.
 */
export async function listPlatformTokenEvents(
  session: PgSession,
  page: { readonly limit: number; readonly after: string | null },
): Promise<PlatformTokenEvent[]> {
  if (!Number.isSafeInteger(page.limit) || page.limit < 0) throw new RangeError('A page limit must be a non-negative integer.');
  const params: unknown[] = [];
  let position = '';
  if (page.after !== null) {
    position = ' and sequence < (select sequence from key_events where id = ? and company_id is null)';
    params.push(page.after);
  }
  params.push(page.limit);
  const rows = await executeInlined<PlatformTokenEventRow>(
    session,
    `select id, key_id, type, ${epochMs('at')} as at_ms, actor, via, ${epochMs('expires_at')} as expires_at_ms
       from key_events
      where company_id is null${position}
      order by sequence desc
      limit ?`,
    params,
  );
  return rows.map((row) => ({
    id: row.id,
    tokenId: row.key_id,
    // The table's check constraint admits only the domain's types, and these only without a company.
    type: row.type as PlatformTokenEventType,
    at: dateFromMs(row.at_ms),
    actor: row.actor,
    via: row.via,
    expiresAt: nullableDateFromMs(row.expires_at_ms),
  }));
}
