import type { ServiceKey } from '../../domain/service-key/service-key.js';
import type { ServiceKeyRepository } from '../ports/service-key-repository.port.js';

/** Past this many entries, stale ones are dropped before a new one is kept. */
const PRUNE_ABOVE = 10_000;
/**
 * The most key ids remembered as unknown. Anyone can make up ids, so this bound is hard: when it is
 * reached the oldest miss is forgotten (and read again if it comes back), whatever its age.
 */
const MISSES_AT_MOST = 10_000;

interface Entry {
  /** null: the registry had no key with this id. */
  readonly key: ServiceKey | null;
  readonly readAt: number;
}

/**
 * What this instance read of service keys from the registry, trusted for `ttlMs` by the Clock: a
 * revocation written to the registry reaches every instance within that time, and the registry is read
 * at most once per key id and window instead of at every request. That holds for ids the registry does
 * not know as well, so a client that keeps sending a mistyped or made-up key costs one read per window;
 * a key issued under an id that was just looked up in vain is accepted within `ttlMs` (ids are random,
 * so in practice only a key tried before its issue meets this). Unknown ids are kept apart, in a map
 * of bounded size, so that made-up ids cannot fill memory; concurrent misses of one id share one read.
 * A change this instance makes to a key (a revocation, a roll) is not waited for: `forget` drops the key
 * at once. `ttlMs` 0 reads the registry every time.
 */
export class KeyRegistryCache {
  private readonly known = new Map<string, Entry>();
  private readonly unknown = new Map<string, Entry>();
  private readonly reading = new Map<string, Promise<ServiceKey | null>>();

  constructor(
    private readonly keys: Pick<ServiceKeyRepository, 'findById'>,
    private readonly ttlMs: number,
  ) {}

  /**
   * `beforeRead`, when given, is awaited before the registry is read, and told whether the registry held the id
   * when this instance last read it (false for a made-up id, or one not read here yet, and always with `ttlMs` 0);
   * if it rejects, nothing is read and the find rejects with it. A request that joins a read another request started is not told.
   */
  async find(keyId: string, now: Date, beforeRead?: (heldBefore: boolean) => Promise<void>): Promise<ServiceKey | null> {
    const at = now.getTime();
    if (this.ttlMs <= 0) {
      // Every request reads the registry: an id it held gives no pass, or a caller who knows a key's id (ids are
      // not secret) would cost a read per request with any secret, past its address's budget.
      if (beforeRead !== undefined) await beforeRead(false);
      const key = await this.keys.findById(keyId);
      // Never fresh with no TTL: kept only as a sign that the registry holds the id.
      if (key !== null) this.remember(keyId, key, at);
      return key;
    }
    const entry = this.known.get(keyId) ?? this.unknown.get(keyId);
    if (entry !== undefined && this.isFresh(entry, at)) return entry.key;
    const pending = this.reading.get(keyId);
    if (pending !== undefined) return pending;
    if (beforeRead !== undefined) await beforeRead(this.known.has(keyId));
    return this.read(keyId, at);
  }

  /**
   * Drops what was read of a key, so that the next request reads the registry: call it once a change to the key
   * is written. A read under way keeps serving the requests that joined it (they came before the change) but
   * leaves nothing behind, since it may have read the key as it was before.
   */
  forget(keyId: string): void {
    this.known.delete(keyId);
    this.unknown.delete(keyId);
    this.reading.delete(keyId);
  }

  private isFresh(entry: Entry, at: number): boolean {
    // A clock that went back (at < readAt) cannot vouch for the entry's age: read again.
    return at >= entry.readAt && at - entry.readAt < this.ttlMs;
  }

  private read(keyId: string, at: number): Promise<ServiceKey | null> {
    const pending = this.reading.get(keyId);
    if (pending !== undefined) return pending;
    const read: Promise<ServiceKey | null> = this.keys
      .findById(keyId)
      .then((key) => {
        // Not ours to keep once `forget` has dropped this read.
        if (this.reading.get(keyId) !== read) return key;
        if (key === null) this.rememberMiss(keyId, at);
        else this.remember(keyId, key, at);
        return key;
      })
      .finally(() => {
        if (this.reading.get(keyId) === read) this.reading.delete(keyId);
      });
    this.reading.set(keyId, read);
    return read;
  }

  /** Stamped with the moment the read started, so that its age is never understated. */
  private remember(keyId: string, key: ServiceKey, readAt: number): void {
    this.unknown.delete(keyId);
    if (this.known.size >= PRUNE_ABOVE) {
      for (const [id, entry] of this.known) if (!this.isFresh(entry, readAt)) this.known.delete(id);
    }
    this.known.set(keyId, { key, readAt });
  }

  private rememberMiss(keyId: string, readAt: number): void {
    this.known.delete(keyId);
    // Deleted first, so that the map's order stays the order of the reads: the first entry is the oldest.
    this.unknown.delete(keyId);
    if (this.unknown.size >= MISSES_AT_MOST) {
      const oldest = this.unknown.keys().next();
      if (oldest.done !== true) this.unknown.delete(oldest.value);
    }
    this.unknown.set(keyId, { key: null, readAt });
  }
}
