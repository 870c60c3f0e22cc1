import { noFeedVersions, type FeedClaimed, type FeedEntityKind, type FeedEntityRef, type FeedEntityVersions, type FeedEventClaim, type FeedLedger, type FeedVersionRecord } from '../../../application/ports/feed-ledger.port.js';
import type { FeedEntityVersionsRow, FeedVersionRecorded, InMemoryDatabase } from './in-memory-database.js';

/** Refused as an aspect's name, as by the PostgreSQL adapter, whose tombstone is a row of this aspect. */
const RESERVED_ASPECT = '#deleted';

function eventKey(companyId: string, source: string, eventId: string): string {
  return `${companyId}\u0000${source}\u0000${eventId}`;
}

function entityKey(entity: FeedEntityRef): string {
  return `${entity.companyId}\u0000${entity.kind}\u0000${entity.id}`;
}

/**
 * The feed's ledger in the in-memory database, in its tables, so that a unit of work that fails undoes its
 * claims and versions with its other writes. As on PostgreSQL, a claim of an event that another open
 * transaction claimed waits for that one to end: false if it committed, a claim of its own if it was undone.
 */
export class InMemoryFeedLedger implements FeedLedger {
  constructor(private readonly db: InMemoryDatabase) {}

  async claimEvent(source: string, eventId: string, companyId: string, now: Date): Promise<boolean> {
    const key = eventKey(companyId, source, eventId);
    const mine = this.db.currentTransaction();
    for (;;) {
      const row = this.db.feedAppliedEvents.get(key);
      if (row === undefined) {
        this.db.feedAppliedEvents.set(key, { companyId, source, eventId, appliedAt: new Date(now.getTime()), claimedBy: mine });
        return true;
      }
      const claimer = row.claimedBy;
      if (claimer === undefined || !claimer.open || claimer === mine) return false;
      await claimer.ended;
    }
  }

  /**
   * Claimed in the order of their keys, as PostgreSQL inserts them, so that two batches claiming the same ids
   * never wait for each other both ways; answered in the order given.
   */
  async claimEvents(claims: readonly FeedEventClaim[], now: Date): Promise<(FeedClaimed | null)[]> {
    const firsts = new Map<string, number>();
    claims.forEach(({ companyId, source, eventId }, n) => {
      const key = eventKey(companyId, source, eventId);
      if (!firsts.has(key)) firsts.set(key, n);
    });
    // Checked before anything is claimed, as PostgreSQL checks the claims it sends (the first of each id) before its one statement.
    for (const n of firsts.values()) {
      const { entity, companyId } = claims[n] as FeedEventClaim;
      if (entity !== null && entity.companyId !== companyId) throw new Error('A claim names an entity of another company than its own.');
    }
    const outcomes: (FeedClaimed | null)[] = claims.map(() => null);
    for (const [, n] of [...firsts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const { source, eventId, companyId, entity, vacancyId } = claims[n] as FeedEventClaim;
      if (!(await this.claimEvent(source, eventId, companyId, now))) continue;
      outcomes[n] = {
        versions: entity === null ? noFeedVersions() : await this.versionsOf(entity),
        vacancy: vacancyId === null || vacancyId === undefined ? null : await this.versionsOf({ companyId, kind: 'vacancy', id: vacancyId }),
      };
    }
    return outcomes;
  }

  async recordAll(records: readonly FeedVersionRecord[], now: Date): Promise<void> {
    // All or none, as PostgreSQL's one message: every record is checked before any is written.
    for (const record of records) checkRecord(record);
    for (const record of records) {
      if (record.type === 'versions') await this.recordVersions(record.entity, record.aspects, record.version, now);
      else await this.recordDeletion(record.entity, record.version, now);
    }
  }

  async versionsOf(entity: FeedEntityRef): Promise<FeedEntityVersions> {
    const row = this.db.feedEntityVersions.get(entityKey(entity));
    const aspects = new Map<string, number>();
    for (const [aspect, { version }] of row?.aspects ?? []) aspects.set(aspect, version);
    return { aspects, deletedAt: row?.tombstone?.version ?? null };
  }

  async versionedAmong(companyId: string, kind: FeedEntityKind, ids: readonly string[]): Promise<ReadonlySet<string>> {
    return new Set(ids.filter((id) => (this.db.feedEntityVersions.get(entityKey({ companyId, kind, id }))?.aspects.size ?? 0) > 0));
  }

  async recordVersions(entity: FeedEntityRef, aspects: readonly string[], version: number, now: Date): Promise<void> {
    checkRecord({ type: 'versions', entity, aspects, version });
    const key = entityKey(entity);
    const stored = this.db.feedEntityVersions.get(key);
    const next = new Map<string, FeedVersionRecorded>(stored?.aspects ?? []);
    for (const aspect of aspects) next.set(aspect, recorded(next.get(aspect), version, now));
    this.write(key, { aspects: next, tombstone: null });
  }

  async recordDeletion(entity: FeedEntityRef, version: number, now: Date): Promise<void> {
    requireVersion(version);
    const key = entityKey(entity);
    const earlier = this.db.feedEntityVersions.get(key)?.tombstone ?? undefined;
    this.write(key, { aspects: new Map(), tombstone: recorded(earlier, version, now) });
  }

  async purge(before: Date): Promise<{ readonly events: number; readonly tombstones: number }> {
    const cut = before.getTime();
    let events = 0;
    for (const row of [...this.db.feedAppliedEvents.values()]) {
      // A claim not committed yet is not seen by PostgreSQL's purge either.
      if (row.claimedBy?.open === true) continue;
      if (row.appliedAt.getTime() < cut && this.db.feedAppliedEvents.delete(eventKey(row.companyId, row.source, row.eventId))) events++;
    }
    let tombstones = 0;
    for (const [key, row] of [...this.db.feedEntityVersions.entries()]) {
      if (row.tombstone === null || row.tombstone.recordedAt.getTime() >= cut) continue;
      this.write(key, { aspects: row.aspects, tombstone: null });
      tombstones++;
    }
    return { events, tombstones };
  }

  /** Stores the entity's row, or removes it when nothing is left in it (no row, as on PostgreSQL). */
  private write(key: string, row: FeedEntityVersionsRow): void {
    if (row.aspects.size === 0 && row.tombstone === null) this.db.feedEntityVersions.delete(key);
    else this.db.feedEntityVersions.set(key, row);
  }
}

/** A version recorded over `before`: the greater version stands (as on PostgreSQL). */
function recorded(before: FeedVersionRecorded | undefined, version: number, now: Date): FeedVersionRecorded {
  return { version: Math.max(before?.version ?? version, version), recordedAt: new Date(now.getTime()) };
}

function requireVersion(version: number): void {
  if (!Number.isSafeInteger(version)) throw new RangeError(`An entity version must be a safe integer, not ${version}.`);
}

function checkRecord(record: FeedVersionRecord): void {
  requireVersion(record.version);
  if (record.type === 'versions' && record.aspects.includes(RESERVED_ASPECT)) throw new Error(`The aspect name ${RESERVED_ASPECT} is reserved for tombstones.`);
}
