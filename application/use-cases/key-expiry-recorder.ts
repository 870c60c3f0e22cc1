import type { ServiceKey } from '../../domain/service-key/service-key.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { ServiceKeyRepository } from '../ports/service-key-repository.port.js';
import { keyEvent } from './key-events.js';

/** The most key ids remembered as recorded; past it the oldest is forgotten (the store still keeps one event per key). */
const REMEMBERED_AT_MOST = 10_000;

/**
 * Records a key's 'expired' event when a request is first refused for its expiry (issue 14): in the
 * background, like lastUsedAt, so that the refusal neither waits for the write nor changes with it. An
 * instance tries once per key; the registry keeps one such event per key whoever writes it. A failed write
 * is reported and forgotten, so that a later refusal tries again.
 */
export class KeyExpiryRecorder {
  private readonly recorded = new Set<string>();
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly keys: Pick<ServiceKeyRepository, 'recordEventOnce'>,
    private readonly ids: IdGenerator,
    private readonly onFailed: (error: unknown, keyId: string) => void,
  ) {}

  /** Starts the write of the key's expiry, seen at `now`, unless this instance did; never throws, never waits. */
  record(key: ServiceKey, now: Date): void {
    if (this.recorded.has(key.id)) return;
    if (this.recorded.size >= REMEMBERED_AT_MOST) {
      const oldest = this.recorded.values().next();
      if (oldest.done !== true) this.recorded.delete(oldest.value);
    }
    this.recorded.add(key.id);
    let write: Promise<void>;
    try {
      write = this.keys.recordEventOnce(keyEvent(this.ids, key, 'expired', now, null, { expiresAt: key.toSnapshot().expiresAt }));
    } catch (error) {
      write = Promise.reject(error);
    }
    const tracked: Promise<void> = write
      .catch((error: unknown) => {
        this.recorded.delete(key.id);
        this.onFailed(error, key.id);
      })
      .finally(() => this.writing.delete(tracked));
    this.writing.add(tracked);
  }

  /** Resolves once every write started so far has ended. */
  async settle(): Promise<void> {
    await Promise.all([...this.writing]);
  }
}
