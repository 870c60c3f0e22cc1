import { LAST_USED_RESOLUTION_MS, type ServiceKey } from '../../domain/service-key/service-key.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { ServiceKeyRepository } from '../ports/service-key-repository.port.js';
import { keyEvent } from './key-events.js';

const PRUNE_ABOVE = 10_000;

/**
 * Keeps lastUsedAt without a database write per request: from this instance, a key's use is written at
 * most once per LAST_USED_RESOLUTION_MS (DESIGN 3), and in the background, so that the request neither
 * waits for the write nor fails with it. A failed write is reported and not retried before the next
 * period, so a registry outage does not turn every request into a failing write. A key never used as far
 * as it was read comes with its 'first_used' event, which the registry stores only if no use was recorded.
 */
export class KeyUsageRecorder {
  /** When this instance last started a write, by key id (its own writes are not in a cached key's lastUsedAt). */
  private readonly lastWrite = new Map<string, number>();
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly keys: Pick<ServiceKeyRepository, 'recordUsage'>,
    private readonly ids: IdGenerator,
    private readonly onFailed: (error: unknown, keyId: string) => void,
  ) {}

  /** Starts a write of the key's use at `now` if one is due; never throws, never waits. */
  record(key: ServiceKey, now: Date): void {
    if (!key.needsUsageRecord(now)) return;
    const at = now.getTime();
    const last = this.lastWrite.get(key.id);
    if (last !== undefined && at >= last && at - last < LAST_USED_RESOLUTION_MS) return;
    this.prune(at);
    this.lastWrite.set(key.id, at);
    let write: Promise<void>;
    try {
      const firstUse = key.toSnapshot().lastUsedAt === null ? keyEvent(this.ids, key, 'first_used', now, null) : undefined;
      write = this.keys.recordUsage(key.id, now, firstUse);
    } catch (error) {
      write = Promise.reject(error);
    }
    const tracked: Promise<void> = write
      .catch((error: unknown) => this.onFailed(error, key.id))
      .finally(() => this.writing.delete(tracked));
    this.writing.add(tracked);
  }

  /** Resolves once every write started so far has ended: for a stop that loses no record. */
  async settle(): Promise<void> {
    await Promise.all([...this.writing]);
  }

  private prune(at: number): void {
    if (this.lastWrite.size < PRUNE_ABOVE) return;
    for (const [id, last] of this.lastWrite) if (at - last >= LAST_USED_RESOLUTION_MS) this.lastWrite.delete(id);
  }
}
