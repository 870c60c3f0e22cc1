import { noFeedVersions, type FeedEntityRef, type FeedEntityVersions, type FeedVersionRecord } from '../ports/feed-ledger.port.js';

function keyOf(entity: FeedEntityRef): string {
  return `${entity.companyId}\u0000${entity.kind}\u0000${entity.id}`;
}

/**
 * The entity versions a batch of platform events works with (ApplyPlatformEvent): those its claims read at its
 * start, changed by what its own events recorded since, whose writes wait in `records` for one
 * FeedLedger.recordAll at the batch's end. Records change the versions here as the ledger's writes would change
 * them stored: a version never goes down, a recorded aspect ends the tombstone, a deletion forgets the aspects.
 */
export class FeedBatchVersions {
  private readonly versions = new Map<string, FeedEntityVersions>();
  private readonly pending: FeedVersionRecord[] = [];

  /** The writes recorded so far, in their order. */
  get records(): readonly FeedVersionRecord[] {
    return this.pending;
  }

  /** The entity's versions as this batch knows them, or undefined when none of its events was about the entity. */
  known(entity: FeedEntityRef): FeedEntityVersions | undefined {
    return this.versions.get(keyOf(entity));
  }

  /**
   * The versions an event of the entity is checked against: the batch's own when an earlier event of it was
   * about the entity, else `claimed`, read by a claim at the start of the batch (the event's own, or one of an
   * event that names the entity: a card's vacancy), and kept from now on.
   */
  current(entity: FeedEntityRef, claimed: FeedEntityVersions): FeedEntityVersions {
    const key = keyOf(entity);
    const known = this.versions.get(key);
    if (known !== undefined) return known;
    this.versions.set(key, claimed);
    return claimed;
  }

  /** Records a write for the batch's end, and its effect on the entity's versions now. */
  record(record: FeedVersionRecord): void {
    const key = keyOf(record.entity);
    const before = this.versions.get(key) ?? noFeedVersions();
    this.versions.set(key, afterRecord(before, record));
    this.pending.push(record);
  }
}

function afterRecord(before: FeedEntityVersions, record: FeedVersionRecord): FeedEntityVersions {
  const time = record.time ?? null;
  if (record.type === 'deletion') {
    const deletedAt = before.deletedAt ?? record.version;
    return { aspects: new Map(), deletedAt: Math.max(deletedAt, record.version), times: new Map(), deletedTime: timeKept(before.deletedAt, before.deletedTime, record.version, time) };
  }
  const aspects = new Map(before.aspects);
  const times = new Map(before.times);
  for (const aspect of record.aspects) {
    const stored = aspects.get(aspect);
    const kept = timeKept(stored ?? null, times.get(aspect) ?? null, record.version, time);
    aspects.set(aspect, Math.max(stored ?? record.version, record.version));
    if (kept === null) times.delete(aspect);
    else times.set(aspect, kept);
  }
  return { aspects, deletedAt: null, times, deletedTime: null };
}

/** The time kept with a version recorded over `stored`: the greater version's; at the same version, the one given, else the one kept. */
function timeKept(stored: number | null, storedTime: Date | null, version: number, time: Date | null): Date | null {
  if (stored === null || version > stored) return time;
  return version === stored ? (time ?? storedTime) : storedTime;
}
