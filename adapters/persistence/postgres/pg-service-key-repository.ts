import type { PgDatabase } from './pg-database.js';
import { executeInlined, executeInlinedCount, type PgSession } from './pg-statements.js';
import { inOwnTransaction } from './pg-transaction.js';
import {
  ConcurrentKeyChangeError,
  type KeyRegistryChange,
  type ServiceKeyRepository,
} from '../../../application/ports/service-key-repository.port.js';
import { ONCE_PER_KEY_EVENT_TYPES, type KeyEvent } from '../../../domain/service-key/key-event.js';
import type { Scope } from '../../../domain/service-key/scope.js';
import { ServiceKey, type ServiceKeySnapshot } from '../../../domain/service-key/service-key.js';
import { SERVICE_KEYS, type ServiceKeyRow } from './tables/service-key.table.js';
import { KEY_EVENT_COLUMNS, KEY_EVENT_VALUES, ONCE_PER_KEY_CONFLICT, insertKeyEvents, keyEventParams, listKeyEvents, lockTrail } from './key-events-sql.js';
import { jsonb } from './sql-values.js';
import { readStrings } from './row-mapping/json-documents.js';
import { withOwnSession } from './transaction-scope.js';

/**
 * What an update writes of a key: its own state. created_by and rolled_from are set once, at issue;
 * last_used_at belongs to recordUsage.
 */
const SET_KEY_STATE = `set name = ?, scopes = ?::jsonb, secret_hash = ?, expires_at = ?::timestamptz, revoked_at = ?::timestamptz,
  revoked_by = ?, rolled_to = ?`;

function keyStateParams(s: ServiceKeySnapshot): unknown[] {
  return [s.name, jsonb(s.scopes), s.secretHash, s.expiresAt, s.revokedAt, s.revokedBy, s.rolledTo];
}

/**
 * Service keys and their events in the key registry. Every call runs in autocommit or a transaction of its own,
 * outside any business transaction. Values are inlined into the SQL: never log these statements with their values.
 */
export class PgServiceKeyRepository implements ServiceKeyRepository {
  constructor(private readonly registry: PgDatabase) {}

  async insert(key: ServiceKey): Promise<void> {
    await withOwnSession(this.registry, (session) => executeInlined(session, SERVICE_KEYS.insertSql, SERVICE_KEYS.values(toRow(key))));
  }

  async findById(id: string): Promise<ServiceKey | null> {
    const rows = await withOwnSession(this.registry, (session) => executeInlined<Raw>(session, `select ${SERVICE_KEYS.selectList()} from service_keys where id = ?`, [id]));
    return rows[0] === undefined ? null : fromRow(SERVICE_KEYS.rowOf(rows[0]));
  }

  async listByCompany(companyId: string): Promise<ServiceKey[]> {
    const rows = await withOwnSession(this.registry, (session) =>
      executeInlined<Raw>(session, `select ${SERVICE_KEYS.selectList()} from service_keys where company_id = ? order by created_at, id collate "C"`, [companyId]),
    );
    return rows.map((row) => fromRow(SERVICE_KEYS.rowOf(row)));
  }

  /** As before issue 14, lastUsedAt may move forward here but never back, so a concurrent usage record survives. */
  async update(key: ServiceKey): Promise<void> {
    const s = key.toSnapshot();
    await withOwnSession(this.registry, (session) =>
      executeInlined(session, `update service_keys ${SET_KEY_STATE}, last_used_at = greatest(last_used_at, ?::timestamptz) where id = ?`, [...keyStateParams(s), s.lastUsedAt, s.id]),
    );
  }

  /**
   * One READ COMMITTED transaction. Each update holds only if the key still has the revokedAt, expiresAt
   * and rolledTo it was read with: a concurrent change that committed first makes PostgreSQL re-check the
   * condition on the new row, which then fails, and everything of this write rolls back. Updates go in id
   * order, so two writes over the same keys never wait for each other crosswise. lastUsedAt stays as stored.
   * A write with events takes the trail's lock first (lockTrail).
   */
  async write(change: KeyRegistryChange): Promise<void> {
    const inserted = change.inserted ?? [];
    const updated = [...(change.updated ?? [])].sort((a, b) => (a.key.id < b.key.id ? -1 : a.key.id > b.key.id ? 1 : 0));
    const events = change.events ?? [];
    if (inserted.length === 0 && updated.length === 0 && events.length === 0) return;
    await inOwnTransaction(this.registry, async (tx) => {
      if (events.length > 0) await lockTrail(tx);
      for (const { key, read } of updated) await guardedUpdate(tx, key, read);
      if (inserted.length > 0) {
        const { sql, values } = SERVICE_KEYS.insertRows(inserted.map(toRow));
        await executeInlined(tx, sql, values);
      }
      await insertKeyEvents(tx, events);
    });
  }

  /**
   * Forward only, as before. With a first use to record: under the trail's lock, one statement that locks
   * the key's row, moves lastUsedAt, and stores the event iff the row had no use before. A concurrent call
   * waits at the lock and then reads the use the first one stored; the unique index would refuse a second
   * event anyway.
   */
  async recordUsage(keyId: string, at: Date, firstUse?: KeyEvent): Promise<void> {
    if (firstUse === undefined) {
      await withOwnSession(this.registry, (session) =>
        executeInlined(session, 'update service_keys set last_used_at = ?::timestamptz where id = ? and (last_used_at is null or last_used_at < ?::timestamptz)', [at, keyId, at]),
      );
      return;
    }
    if (firstUse.keyId !== keyId || firstUse.type !== 'first_used') throw new Error('recordUsage takes a first_used event of the same key.');
    await inOwnTransaction(this.registry, async (tx) => {
        await lockTrail(tx);
        await executeInlined(
          tx,
          `with prior as (
             select id, last_used_at from service_keys where id = ? for update
           ), moved as (
             update service_keys k set last_used_at = ?::timestamptz
               from prior
              where k.id = prior.id and (prior.last_used_at is null or prior.last_used_at < ?::timestamptz)
             returning prior.last_used_at as previous
           )
           insert into key_events (${KEY_EVENT_COLUMNS})
           select ${KEY_EVENT_VALUES} from moved where moved.previous is null
           ${ONCE_PER_KEY_CONFLICT}`,
          [keyId, at, at, ...keyEventParams(firstUse)],
        );
    });
  }

  async recordEventOnce(event: KeyEvent): Promise<void> {
    // Only these have the unique index behind them; any other would be stored again at every call.
    if (!ONCE_PER_KEY_EVENT_TYPES.includes(event.type)) throw new Error(`A ${event.type} event can happen more than once to a key.`);
    await inOwnTransaction(this.registry, async (tx) => {
      await lockTrail(tx);
      await executeInlined(tx, `insert into key_events (${KEY_EVENT_COLUMNS}) values (${KEY_EVENT_VALUES}) ${ONCE_PER_KEY_CONFLICT}`, keyEventParams(event));
    });
  }

  async listEvents(companyId: string, page: { limit: number; after: string | null }): Promise<KeyEvent[]> {
    return withOwnSession(this.registry, (session) => listKeyEvents(session, companyId, page));
  }
}

async function guardedUpdate(session: PgSession, key: ServiceKey, read: ServiceKeySnapshot): Promise<void> {
  const s = key.toSnapshot();
  const changed = await executeInlinedCount(
    session,
    `update service_keys ${SET_KEY_STATE}
      where id = ? and revoked_at is not distinct from ?::timestamptz and expires_at is not distinct from ?::timestamptz
        and rolled_to is not distinct from ?`,
    [...keyStateParams(s), s.id, read.revokedAt, read.expiresAt, read.rolledTo],
  );
  if (changed !== 1) throw new ConcurrentKeyChangeError(s.id);
}

type Raw = Record<string, unknown>;

function toRow(key: ServiceKey): ServiceKeyRow {
  const s = key.toSnapshot();
  return { ...s, scopes: [...s.scopes] };
}

function fromRow(row: ServiceKeyRow): ServiceKey {
  return ServiceKey.restore({
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    scopes: readStrings(row.scopes) as Scope[],
    secretHash: row.secretHash,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
    createdBy: row.createdBy,
    revokedBy: row.revokedBy,
    rolledFrom: row.rolledFrom,
    rolledTo: row.rolledTo,
  });
}
