import type { ServiceKeyRepository } from '../../../application/ports/service-key-repository.port.js';
import { ServiceKey } from '../../../domain/service-key/service-key.js';
import type { InMemoryDatabase } from './in-memory-database.js';

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
    // lastUsedAt is written by recordUsage only; an update must not move it back.
    this.db.serviceKeys.set(key.id, { ...key.toSnapshot(), lastUsedAt: current.lastUsedAt });
  }

  async recordUsage(keyId: string, at: Date): Promise<void> {
    const current = this.db.serviceKeys.get(keyId);
    if (current === undefined) return;
    if (current.lastUsedAt !== null && current.lastUsedAt.getTime() >= at.getTime()) return;
    this.db.serviceKeys.set(keyId, { ...current, lastUsedAt: new Date(at.getTime()) });
  }
}
