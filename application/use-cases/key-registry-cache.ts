import type { ServiceKey } from '../../domain/service-key/service-key.js';
import type { ServiceKeyRepository } from '../ports/service-key-repository.port.js';

/** Past this many entries, stale ones are dropped before a new one is kept. */
const PRUNE_ABOVE = 10_000;

/**
 * What this instance read of service keys from the registry, trusted for `ttlMs` by the Clock: a
 * revocation written to the registry reaches every instance within that time, and the registry is read
 * at most once per key and window instead of at every request. Only keys that exist are kept, so made-up
 * key ids cannot fill memory (they are read each time, and the rate limit by client address slows them
 * down); concurrent misses of one id share one read. `ttlMs` 0 reads the registry every time.
 */
export class KeyRegistryCache {
  private readonly entries = new Map<string, { readonly key: ServiceKey; readonly readAt: number }>();
  private readonly reading = new Map<string, Promise<ServiceKey | null>>();

  constructor(
    private readonly keys: Pick<ServiceKeyRepository, 'findById'>,
    private readonly ttlMs: number,
  ) {}

  async find(keyId: string, now: Date): Promise<ServiceKey | null> {
    if (this.ttlMs <= 0) return this.keys.findById(keyId);
    const at = now.getTime();
    const entry = this.entries.get(keyId);
    // A clock that went back (at < readAt) cannot vouch for the entry's age: read again.
    if (entry !== undefined && at >= entry.readAt && at - entry.readAt < this.ttlMs) return entry.key;
    return this.read(keyId, at);
  }

  private read(keyId: string, at: number): Promise<ServiceKey | null> {
    const pending = this.reading.get(keyId);
    if (pending !== undefined) return pending;
    const read = this.keys
      .findById(keyId)
      .then((key) => {
        if (key === null) this.entries.delete(keyId);
        else this.remember(keyId, key, at);
        return key;
      })
      .finally(() => this.reading.delete(keyId));
    this.reading.set(keyId, read);
    return read;
  }

  /** Stamped with the moment the read started, so that its age is never understated. */
  private remember(keyId: string, key: ServiceKey, readAt: number): void {
    if (this.entries.size >= PRUNE_ABOVE) {
      for (const [id, entry] of this.entries) if (readAt - entry.readAt >= this.ttlMs) this.entries.delete(id);
    }
    this.entries.set(keyId, { key, readAt });
  }
}
