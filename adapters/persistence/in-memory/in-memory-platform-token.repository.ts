import type { PlatformTokenChange, PlatformTokenRepository } from '../../../application/ports/platform-token-repository.port.js';
import { ConcurrentKeyChangeError } from '../../../application/ports/service-key-repository.port.js';
import { copyPlatformTokenEvent, type PlatformTokenEvent } from '../../../domain/platform-token/platform-token-event.js';
import { PlatformToken } from '../../../domain/platform-token/platform-token.js';
import type { InMemoryDatabase } from './in-memory-database.js';

/** Tokens and their events as the registry's tables hold them; a write checks everything before it stores anything. */
export class InMemoryPlatformTokenRepository implements PlatformTokenRepository {
  constructor(private readonly db: InMemoryDatabase) {}

  async insert(token: PlatformToken): Promise<void> {
    if (this.db.platformTokens.has(token.id)) throw new Error(`duplicate key: platform token ${token.id}`);
    this.db.platformTokens.set(token.id, token.toSnapshot());
  }

  async findById(id: string): Promise<PlatformToken | null> {
    const row = this.db.platformTokens.get(id);
    return row === undefined ? null : PlatformToken.restore(row);
  }

  /** Keeps a revocation stored before, as PostgreSQL's coalesce(revoked_at, ?) does. */
  async update(token: PlatformToken): Promise<void> {
    const stored = this.db.platformTokens.get(token.id);
    if (stored === undefined) return;
    const next = token.toSnapshot();
    this.db.platformTokens.set(token.id, { ...next, revokedAt: stored.revokedAt ?? next.revokedAt });
  }

  /** As PostgreSQL's transaction: the primary keys, and a revocation only of a token stored unrevoked. */
  async write(change: PlatformTokenChange): Promise<void> {
    const inserted = (change.inserted ?? []).map((token) => token.toSnapshot());
    const fresh = new Set<string>();
    for (const row of inserted) {
      if (this.db.platformTokens.has(row.id) || fresh.has(row.id)) throw new Error(`duplicate key: platform token ${row.id}`);
      fresh.add(row.id);
    }
    const revoked = (change.revoked ?? []).map((token) => {
      const stored = this.db.platformTokens.get(token.id);
      if (stored === undefined || stored.revokedAt !== null) throw new ConcurrentKeyChangeError(token.id);
      return { ...stored, revokedAt: token.toSnapshot().revokedAt };
    });
    const ids = new Set<string>();
    for (const event of change.events) {
      if (this.db.keyEvents.has(event.id) || this.db.platformTokenEvents.has(event.id) || ids.has(event.id)) throw new Error(`duplicate key: key event ${event.id}`);
      ids.add(event.id);
    }
    for (const row of [...inserted, ...revoked]) this.db.platformTokens.set(row.id, row);
    for (const event of change.events) {
      this.db.platformTokenEvents.set(event.id, copyPlatformTokenEvent(event));
      this.db.keyEventSequences.set(event.id, this.db.nextKeyEventSequence());
    }
  }

  async list(): Promise<PlatformToken[]> {
    return [...this.db.platformTokens.values()]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((row) => PlatformToken.restore(row));
  }

  /** Newest first by the order of recording, as PostgreSQL's key_events.sequence. */
  async listEvents(page: { readonly limit: number; readonly after: string | null }): Promise<PlatformTokenEvent[]> {
    const sequence = (event: PlatformTokenEvent) => this.db.keyEventSequences.get(event.id) ?? 0;
    let below = Number.POSITIVE_INFINITY;
    if (page.after !== null) {
      const anchor = this.db.platformTokenEvents.get(page.after);
      below = anchor !== undefined ? sequence(anchor) : Number.NEGATIVE_INFINITY;
    }
    return [...this.db.platformTokenEvents.values()]
      .filter((event) => sequence(event) < below)
      .sort((a, b) => sequence(b) - sequence(a))
      .slice(0, page.limit)
      .map(copyPlatformTokenEvent);
  }

}
