import type { PlatformTokenRepository } from '../../../application/ports/platform-token-repository.port.js';
import { PlatformToken } from '../../../domain/platform-token/platform-token.js';
import type { InMemoryDatabase } from './in-memory-database.js';

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

  async list(): Promise<PlatformToken[]> {
    return [...this.db.platformTokens.values()]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((row) => PlatformToken.restore(row));
  }
}
