/** The records a sync keeps current: a record is an object with an id and an updatedAt. */
export interface SyncRecord {
  readonly id: string;
  readonly updatedAt: string;
}

/**
 * Where a sync puts what it reads: a database table, a search index, files. Each call must be durable when
 * it resolves, because the sync saves its cursor right after; a page may be applied twice after a crash,
 * so `upsert` must be idempotent (it is, by id).
 */
export interface SyncTarget<T extends SyncRecord> {
  /** Inserts or replaces records by id. Within a pass a record may come twice; the later one is newer. */
  upsert(records: readonly T[]): Promise<void>;
  /** Removes records by id; unknown ids are ignored. */
  remove(ids: readonly string[]): Promise<void>;
  /** Every id the target holds, to find deletions after a full pass. */
  ids(): Promise<Iterable<string>>;
  /** Called once a pass is complete, before the sync moves its since on. */
  commit?(): Promise<void>;
}

/** A target in memory, keeping the newest version of each record. */
export class MemorySyncTarget<T extends SyncRecord> implements SyncTarget<T> {
  readonly records = new Map<string, T>();

  async upsert(records: readonly T[]): Promise<void> {
    for (const record of records) {
      const held = this.records.get(record.id);
      // An older version never replaces a newer one, whatever the order of delivery.
      if (held === undefined || held.updatedAt <= record.updatedAt) this.records.set(record.id, structuredClone(record));
    }
  }

  async remove(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.records.delete(id);
  }

  async ids(): Promise<Iterable<string>> {
    return [...this.records.keys()];
  }
}
