import type { MikroORM } from '@mikro-orm/postgresql';
import type { ServiceKeyRepository } from '../../../application/ports/service-key-repository.port.js';
import type { Scope } from '../../../domain/service-key/scope.js';
import { ServiceKey } from '../../../domain/service-key/service-key.js';
import { ServiceKeyRowSchema, type ServiceKeyRow } from './entities/service-key.entity.js';
import { jsonb } from './sql-values.js';
import { readStrings } from './row-mapping/json-documents.js';
import { withFreshEntityManager } from './transaction-scope.js';

/** Service keys in the key registry. Every call runs on a fresh fork, outside any business transaction. */
export class MikroOrmServiceKeyRepository implements ServiceKeyRepository {
  constructor(private readonly registry: MikroORM) {}

  async insert(key: ServiceKey): Promise<void> {
    const s = key.toSnapshot();
    await withFreshEntityManager(this.registry, (em) => em.insert(ServiceKeyRowSchema, { ...s, scopes: [...s.scopes] }));
  }

  async findById(id: string): Promise<ServiceKey | null> {
    const row = await withFreshEntityManager(this.registry, (em) => em.findOne(ServiceKeyRowSchema, { id }, { disableIdentityMap: true }));
    return row === null ? null : fromRow(row);
  }

  async listByCompany(companyId: string): Promise<ServiceKey[]> {
    const rows = await withFreshEntityManager(this.registry, (em) =>
      em.find(ServiceKeyRowSchema, { companyId }, { orderBy: { createdAt: 'asc', id: 'asc' }, disableIdentityMap: true }),
    );
    return rows.map(fromRow);
  }

  /** Writes the key's own state; lastUsedAt only moves forward, so a concurrent usage record survives. */
  async update(key: ServiceKey): Promise<void> {
    const s = key.toSnapshot();
    await withFreshEntityManager(this.registry, (em) =>
      em.execute(
        `update service_keys
            set name = ?, scopes = ?::jsonb, secret_hash = ?, expires_at = ?::timestamptz, revoked_at = ?::timestamptz,
                last_used_at = greatest(last_used_at, ?::timestamptz)
          where id = ?`,
        [s.name, jsonb(s.scopes), s.secretHash, s.expiresAt, s.revokedAt, s.lastUsedAt, s.id],
        'run',
      ),
    );
  }

  async recordUsage(keyId: string, at: Date): Promise<void> {
    await withFreshEntityManager(this.registry, (em) =>
      em.execute(
        'update service_keys set last_used_at = ?::timestamptz where id = ? and (last_used_at is null or last_used_at < ?::timestamptz)',
        [at, keyId, at],
        'run',
      ),
    );
  }
}

function fromRow(row: ServiceKeyRow): ServiceKey {
  return ServiceKey.restore({
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    scopes: readStrings(row.scopes) as Scope[],
    secretHash: row.secretHash,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
  });
}
