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
   * about the entity, else `claimed`, read by a claim at the start of the batch, and kept from now on.
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
  if (record.type === 'deletion') return { aspects: new Map(), deletedAt: Math.max(before.deletedAt ?? record.version, record.version) };
  const aspects = new Map(before.aspects);
  for (const aspect of record.aspects) aspects.set(aspect, Math.max(aspects.get(aspect) ?? record.version, record.version));
  return { aspects, deletedAt: null };
}
