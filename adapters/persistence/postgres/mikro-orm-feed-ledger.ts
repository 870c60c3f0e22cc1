import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { FeedEntityRef, FeedEntityVersions, FeedLedger } from '../../../application/ports/feed-ledger.port.js';
import { jsonb } from './sql-values.js';
import { withEntityManager, withFreshEntityManager } from './transaction-scope.js';

/** The aspect whose row is an entity's tombstone (Migration20261125000000FeedLedger). */
export const TOMBSTONE_ASPECT = '#deleted';

/**
 * Rows one purge statement deletes at most: each chunk commits on its own, so a purge after a busy week
 * (millions of event ids) never holds one long transaction, nor runs into the statement timeout.
 */
const PURGE_CHUNK = 10_000;

const ENTITY = 'company_id = ? and entity_kind = ? and entity_id = ?';

/**
 * The feed's ledger in the business database: one statement per call, inside the caller's unit of work
 * when there is one (its transaction, its connection), in autocommit otherwise. Every value is inlined by
 * MikroORM, so no statement is prepared (ADR 15).
 */
export class MikroOrmFeedLedger implements FeedLedger {
  constructor(private readonly orm: MikroORM) {}

  /**
   * ON CONFLICT DO NOTHING on the primary key: an insert that meets a row of a transaction still open waits
   * for it, then inserts if that one rolled back, or does nothing if it committed.
   */
  async claimEvent(source: string, eventId: string, companyId: string, now: Date): Promise<boolean> {
    const rows = await withEntityManager(this.orm, (em) =>
      em.execute<unknown[]>(
        `insert into feed_applied_events (company_id, source, event_id, applied_at) values (?, ?, ?, ?::timestamptz)
         on conflict (company_id, source, event_id) do nothing returning 1 as claimed`,
        [companyId, source, eventId, now],
      ),
    );
    return rows.length > 0;
  }

  /**
   * The claim and the read of the entity's versions in one statement: a data-modifying CTE claims, and the
   * versions are read beside it, in the snapshot the statement took after the company's lock (so no write of
   * the entity's versions can come between). One row at least: `claimed` 0 tells a duplicate.
   */
  async claimEventReadingVersions(source: string, eventId: string, entity: FeedEntityRef, now: Date): Promise<FeedEntityVersions | null> {
    const rows = await withEntityManager(this.orm, (em) =>
      em.execute<{ claimed: number; aspect: string | null; version: string | null }[]>(
        `with claim as (insert into feed_applied_events (company_id, source, event_id, applied_at) values (?, ?, ?, ?::timestamptz)
           on conflict (company_id, source, event_id) do nothing returning 1)
         select claimed.n as claimed, v.aspect, v.version::text as version
           from (select count(*)::int as n from claim) as claimed
           left join feed_entity_versions as v on claimed.n > 0 and v.company_id = ? and v.entity_kind = ? and v.entity_id = ?`,
        [entity.companyId, source, eventId, now, entity.companyId, entity.kind, entity.id],
      ),
    );
    if (rows.length === 0 || Number(rows[0]?.claimed) === 0) return null;
    return versionsFrom(rows.filter((row): row is { claimed: number; aspect: string; version: string } => row.aspect !== null && row.version !== null));
  }

  async versionsOf(entity: FeedEntityRef): Promise<FeedEntityVersions> {
    const rows = await withEntityManager(this.orm, (em) =>
      em.execute<{ aspect: string; version: string }[]>(
        `select aspect, version::text as version from feed_entity_versions where ${ENTITY}`,
        [entity.companyId, entity.kind, entity.id],
      ),
    );
    return versionsFrom(rows);
  }

  /** The tombstone's removal and the upsert of every aspect: one statement (a data-modifying CTE). */
  async recordVersions(entity: FeedEntityRef, aspects: readonly string[], version: number, now: Date): Promise<void> {
    requireVersion(version);
    if (aspects.includes(TOMBSTONE_ASPECT)) throw new Error(`The aspect name ${TOMBSTONE_ASPECT} is reserved for tombstones.`);
    const distinct = [...new Set(aspects)];
    await withEntityManager(this.orm, (em) =>
      em.execute(
        `with revived as (delete from feed_entity_versions where ${ENTITY} and aspect = ?)
         insert into feed_entity_versions (company_id, entity_kind, entity_id, aspect, version, recorded_at)
         select ?, ?, ?, aspect, ?, ?::timestamptz from jsonb_array_elements_text(?::jsonb) as given(aspect)
         on conflict (company_id, entity_kind, entity_id, aspect)
         do update set version = greatest(feed_entity_versions.version, excluded.version), recorded_at = excluded.recorded_at`,
        [
          entity.companyId, entity.kind, entity.id, TOMBSTONE_ASPECT,
          entity.companyId, entity.kind, entity.id, version, now, jsonb(distinct),
        ],
        'run',
      ),
    );
  }

  /** The aspects' removal and the tombstone's upsert: one statement. */
  async recordDeletion(entity: FeedEntityRef, version: number, now: Date): Promise<void> {
    requireVersion(version);
    await withEntityManager(this.orm, (em) =>
      em.execute(
        `with forgotten as (delete from feed_entity_versions where ${ENTITY} and aspect <> ?)
         insert into feed_entity_versions (company_id, entity_kind, entity_id, aspect, version, recorded_at)
         values (?, ?, ?, ?, ?, ?::timestamptz)
         on conflict (company_id, entity_kind, entity_id, aspect)
         do update set version = greatest(feed_entity_versions.version, excluded.version), recorded_at = excluded.recorded_at`,
        [
          entity.companyId, entity.kind, entity.id, TOMBSTONE_ASPECT,
          entity.companyId, entity.kind, entity.id, TOMBSTONE_ASPECT, version, now,
        ],
        'run',
      ),
    );
  }

  /** Always on a connection of its own, in autocommit chunks, even when called inside a unit of work. */
  purge(before: Date): Promise<{ readonly events: number; readonly tombstones: number }> {
    return withFreshEntityManager(this.orm, async (em) => {
      const events = await deleteInChunks(em, 'select ctid from feed_applied_events where applied_at < ?::timestamptz', 'feed_applied_events', [before]);
      const tombstones = await deleteInChunks(
        em,
        'select ctid from feed_entity_versions where aspect = ? and recorded_at < ?::timestamptz',
        'feed_entity_versions',
        [TOMBSTONE_ASPECT, before],
      );
      return { events, tombstones };
    });
  }
}

/** Deletes the rows `select` finds (by ctid, PURGE_CHUNK at a time, each chunk its own statement); how many. */
async function deleteInChunks(em: EntityManager, select: string, table: string, parameters: unknown[]): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await em.execute<{ deleted: number }[]>(
      `with gone as (delete from ${table} where ctid = any(array(${select} limit ${PURGE_CHUNK})) returning 1)
       select count(*)::int as deleted from gone`,
      parameters,
    );
    const deleted = rows[0]?.deleted ?? 0;
    total += deleted;
    if (deleted < PURGE_CHUNK) return total;
  }
}

/** The versions of an entity from its rows: the tombstone's is the deletion's, the others one per aspect. */
function versionsFrom(rows: readonly { readonly aspect: string; readonly version: string }[]): FeedEntityVersions {
  const aspects = new Map<string, number>();
  let deletedAt: number | null = null;
  for (const row of rows) {
    const version = versionOf(row.version);
    if (row.aspect === TOMBSTONE_ASPECT) deletedAt = version;
    else aspects.set(row.aspect, version);
  }
  return { aspects, deletedAt };
}

/** A bigint column read as text: exact, and refused rather than rounded beyond Number.MAX_SAFE_INTEGER. */
function versionOf(text: string): number {
  const version = Number(text);
  if (!Number.isSafeInteger(version)) throw new Error(`A stored entity version (${text}) is beyond the integers JavaScript holds exactly.`);
  return version;
}

function requireVersion(version: number): void {
  if (!Number.isSafeInteger(version)) throw new RangeError(`An entity version must be a safe integer, not ${version}.`);
}
