import {
  ConcurrentKeyChangeError,
  sameGuardedState,
  type KeyRegistryChange,
  type ServiceKeyRepository,
} from '../../../application/ports/service-key-repository.port.js';
import { copyKeyEvent, ONCE_PER_KEY_EVENT_TYPES, type KeyEvent } from '../../../domain/service-key/key-event.js';
import { ServiceKey, type ServiceKeySnapshot } from '../../../domain/service-key/service-key.js';
import type { InMemoryDatabase } from './in-memory-database.js';

/**
 * Keys and their events as the registry's tables hold them. Every write checks everything first and then
 * stores everything, with no await in between: nothing else runs meanwhile, so it is all or nothing, like
 * PostgreSQL's transaction, and fails where PostgreSQL's keys and unique indexes would.
 */
export class InMemoryServiceKeyRepository implements ServiceKeyRepository {
  constructor(private readonly db: InMemoryDatabase) {}

  async insert(key: ServiceKey): Promise<void> {
    if (this.db.serviceKeys.has(key.id)) throw new Error(`duplicate key: service key ${key.id}`);
    this.db.serviceKeys.set(key.id, key.toSnapshot());
  }

  async findById(id: string): Promise<ServiceKey | null> {
    const row = this.db.serviceKeys.get(id);
    return row === undefined ? null : ServiceKey.restore(row);
  }

  async listByCompany(companyId: string): Promise<ServiceKey[]> {
    return [...this.db.serviceKeys.values()]
      .filter((row) => row.companyId === companyId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((row) => ServiceKey.restore(row));
  }

  async update(key: ServiceKey): Promise<void> {
    const current = this.db.serviceKeys.get(key.id);
    if (current === undefined) return;
    this.db.serviceKeys.set(key.id, keptUsage(key.toSnapshot(), current));
  }

  async write(change: KeyRegistryChange): Promise<void> {
    const inserted = (change.inserted ?? []).map((key) => key.toSnapshot());
    const events = change.events ?? [];
    const fresh = new Set<string>();
    for (const row of inserted) {
      if (this.db.serviceKeys.has(row.id) || fresh.has(row.id)) throw new Error(`duplicate key: service key ${row.id}`);
      fresh.add(row.id);
    }
    const updated = (change.updated ?? []).map(({ key, read }) => {
      const stored = this.db.serviceKeys.get(key.id);
      if (stored === undefined || !sameGuardedState(stored, read)) throw new ConcurrentKeyChangeError(key.id);
      return keptUsage(key.toSnapshot(), stored);
    });
    this.checkEvents(events);
    for (const row of inserted) this.db.serviceKeys.set(row.id, row);
    for (const row of updated) this.db.serviceKeys.set(row.id, row);
    for (const event of events) this.store(event);
  }

  async recordUsage(keyId: string, at: Date, firstUse?: KeyEvent): Promise<void> {
    // As the PostgreSQL adapter: anything else would be stored as if it were the key's first use.
    if (firstUse !== undefined && (firstUse.keyId !== keyId || firstUse.type !== 'first_used')) {
      throw new Error('recordUsage takes a first_used event of the same key.');
    }
    const current = this.db.serviceKeys.get(keyId);
    if (current === undefined) return;
    if (firstUse !== undefined && current.lastUsedAt === null && !this.db.onceKeyEvents.has(onceKey(firstUse))) {
      this.checkEvents([firstUse]);
      this.store(firstUse);
    }
    if (current.lastUsedAt !== null && current.lastUsedAt.getTime() >= at.getTime()) return;
    this.db.serviceKeys.set(keyId, { ...current, lastUsedAt: new Date(at.getTime()) });
  }

  async recordEventOnce(event: KeyEvent): Promise<void> {
    if (!ONCE_PER_KEY_EVENT_TYPES.includes(event.type)) throw new Error(`A ${event.type} event can happen more than once to a key.`);
    if (this.db.onceKeyEvents.has(onceKey(event))) return;
    this.checkEvents([event]);
    this.store(event);
  }

  /** Newest first by the order of recording, as PostgreSQL's key_events.sequence. */
  async listEvents(companyId: string, page: { readonly limit: number; readonly after: string | null }): Promise<KeyEvent[]> {
    const sequence = (event: KeyEvent) => this.db.keyEventSequences.get(event.id) ?? 0;
    let below = Number.POSITIVE_INFINITY;
    if (page.after !== null) {
      const anchor = this.db.keyEvents.get(page.after);
      below = anchor !== undefined && anchor.companyId === companyId ? sequence(anchor) : Number.NEGATIVE_INFINITY;
    }
    return [...this.db.keyEvents.values()]
      .filter((event) => event.companyId === companyId && sequence(event) < below)
      .sort((a, b) => sequence(b) - sequence(a))
      .slice(0, page.limit)
      .map(copyKeyEvent);
  }

  /** What PostgreSQL's primary key and partial unique index would refuse: a repeated id, a second once-per-key event. */
  private checkEvents(events: readonly KeyEvent[]): void {
    const ids = new Set<string>();
    const once = new Set<string>();
    for (const event of events) {
      if (this.db.keyEvents.has(event.id) || ids.has(event.id)) throw new Error(`duplicate key: key event ${event.id}`);
      ids.add(event.id);
      if (!ONCE_PER_KEY_EVENT_TYPES.includes(event.type)) continue;
      const key = onceKey(event);
      if (this.db.onceKeyEvents.has(key) || once.has(key)) throw new Error(`duplicate key: ${event.type} event of key ${event.keyId}`);
      once.add(key);
    }
  }

  private store(event: KeyEvent): void {
    this.db.keyEvents.set(event.id, copyKeyEvent(event));
    this.db.keyEventSequences.set(event.id, this.db.nextKeyEventSequence());
    if (ONCE_PER_KEY_EVENT_TYPES.includes(event.type)) this.db.onceKeyEvents.set(onceKey(event), event.id);
  }
}

/** lastUsedAt is written by recordUsage only; a change of the key must not move it back. */
function keptUsage(next: ServiceKeySnapshot, stored: ServiceKeySnapshot): ServiceKeySnapshot {
  return { ...next, lastUsedAt: stored.lastUsedAt };
}

function onceKey(event: Pick<KeyEvent, 'keyId' | 'type'>): string {
  return `${event.keyId}\u0000${event.type}`;
}
