import type { PgDatabase } from './pg-database.js';
import type { PlatformTokenChange, PlatformTokenRepository } from '../../../application/ports/platform-token-repository.port.js';
import { ConcurrentKeyChangeError } from '../../../application/ports/service-key-repository.port.js';
import type { PlatformTokenEvent } from '../../../domain/platform-token/platform-token-event.js';
import type { PlatformScope } from '../../../domain/platform-token/platform-scope.js';
import { PlatformToken } from '../../../domain/platform-token/platform-token.js';
import { PLATFORM_TOKENS, type PlatformTokenRow } from './tables/platform-token.table.js';
import { executeInlined, executeInlinedCount } from './pg-statements.js';
import { inOwnTransaction } from './pg-transaction.js';
import { insertKeyEvents, lockTrail, platformTokenEventRow } from './key-events-sql.js';
import { listPlatformTokenEvents } from './platform-token-events-sql.js';
import { readStrings } from './row-mapping/json-documents.js';
import { withOwnSession } from './transaction-scope.js';

/**
 * The management API's bearer tokens in the key registry. Every call runs outside any business transaction and
 * reads the table itself: a revocation counts at once. Their
 * events go into key_events by the statement the keys' events use.
 */
export class PgPlatformTokenRepository implements PlatformTokenRepository {
  constructor(private readonly registry: PgDatabase) {}

  async insert(token: PlatformToken): Promise<void> {
    await withOwnSession(this.registry, (session) => executeInlined(session, PLATFORM_TOKENS.insertSql, PLATFORM_TOKENS.values(toRow(token))));
  }

  async findById(id: string): Promise<PlatformToken | null> {
    const rows = await withOwnSession(this.registry, (session) =>
      executeInlined<Record<string, unknown>>(session, `select ${PLATFORM_TOKENS.selectList()} from platform_tokens where id = ?`, [id]),
    );
    return rows[0] === undefined ? null : fromRow(PLATFORM_TOKENS.rowOf(rows[0]));
  }

  /**
   * A revocation stored once is kept: two revocations that read the token before either wrote would otherwise
   * leave the later moment, and the token would seem to have worked for longer than it did.
   */
  async update(token: PlatformToken): Promise<void> {
    const s = token.toSnapshot();
    await withOwnSession(this.registry, (session) =>
      executeInlined(session, 'update platform_tokens set name = ?, secret_hash = ?, revoked_at = coalesce(revoked_at, ?::timestamptz) where id = ?', [
        s.name, s.secretHash, s.revokedAt, s.id,
      ]),
    );
  }

  /**
   * One transaction; a revocation holds only on a row still unrevoked, else all of it rolls back. With events it
   * takes the trail's lock first (lockTrail), so that they are numbered in commit order.
   */
  async write(change: PlatformTokenChange): Promise<void> {
    await inOwnTransaction(this.registry, async (tx) => {
      if (change.events.length > 0) await lockTrail(tx);
      for (const token of change.revoked ?? []) {
        const s = token.toSnapshot();
        const changed = await executeInlinedCount(tx, 'update platform_tokens set revoked_at = ?::timestamptz where id = ? and revoked_at is null', [s.revokedAt, s.id]);
        if (changed !== 1) throw new ConcurrentKeyChangeError(s.id);
      }
      const inserted = change.inserted ?? [];
      if (inserted.length > 0) {
        const { sql, values } = PLATFORM_TOKENS.insertRows(inserted.map(toRow));
        await executeInlined(tx, sql, values);
      }
      await insertKeyEvents(tx, change.events.map(platformTokenEventRow));
    });
  }

  /** Oldest first; ids ("C" collation) break ties as the in-memory store does. */
  async list(): Promise<PlatformToken[]> {
    const rows = await withOwnSession(this.registry, (session) =>
      executeInlined<Record<string, unknown>>(session, `select ${PLATFORM_TOKENS.selectList()} from platform_tokens order by created_at, id collate "C"`),
    );
    return rows.map((row) => fromRow(PLATFORM_TOKENS.rowOf(row)));
  }

  async listEvents(page: { readonly limit: number; readonly after: string | null }): Promise<PlatformTokenEvent[]> {
    return withOwnSession(this.registry, (session) => listPlatformTokenEvents(session, page));
  }
}

function toRow(token: PlatformToken): PlatformTokenRow {
  const s = token.toSnapshot();
  return { ...s, scopes: [...s.scopes], companies: s.companies === null ? null : [...s.companies] };
}

function fromRow(row: PlatformTokenRow): PlatformToken {
  return PlatformToken.restore({
    id: row.id,
    name: row.name,
    secretHash: row.secretHash,
    // The table's check constraint admits only the domain's scopes.
    scopes: readStrings(row.scopes) as PlatformScope[],
    companies: row.companies === null ? null : readStrings(row.companies),
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
  });
}
