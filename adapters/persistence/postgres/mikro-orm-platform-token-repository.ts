import type { MikroORM } from '@mikro-orm/postgresql';
import type { PlatformTokenRepository } from '../../../application/ports/platform-token-repository.port.js';
import { PlatformToken } from '../../../domain/platform-token/platform-token.js';
import { PlatformTokenRowSchema, type PlatformTokenRow } from './entities/platform-token.entity.js';
import { withFreshEntityManager } from './transaction-scope.js';

/**
 * The management API's bearer tokens in the key registry. Every call runs on a fresh fork, outside any
 * business transaction, and reads the table itself (no identity map): a revocation counts at once.
 */
export class MikroOrmPlatformTokenRepository implements PlatformTokenRepository {
  constructor(private readonly registry: MikroORM) {}

  async insert(token: PlatformToken): Promise<void> {
    await withFreshEntityManager(this.registry, (em) => em.insert(PlatformTokenRowSchema, toRow(token)));
  }

  async findById(id: string): Promise<PlatformToken | null> {
    const row = await withFreshEntityManager(this.registry, (em) => em.findOne(PlatformTokenRowSchema, { id }, { disableIdentityMap: true }));
    return row === null ? null : fromRow(row);
  }

  /**
   * A revocation stored once is kept: two revocations that read the token before either wrote would otherwise
   * leave the later moment, and the token would seem to have worked for longer than it did.
   */
  async update(token: PlatformToken): Promise<void> {
    const s = token.toSnapshot();
    await withFreshEntityManager(this.registry, (em) =>
      em.execute(
        'update platform_tokens set name = ?, secret_hash = ?, revoked_at = coalesce(revoked_at, ?::timestamptz) where id = ?',
        [s.name, s.secretHash, s.revokedAt, s.id],
        'run',
      ),
    );
  }

  /** Oldest first; ids ("C" collation) break ties as the in-memory store does. */
  async list(): Promise<PlatformToken[]> {
    const rows = await withFreshEntityManager(this.registry, (em) =>
      em.find(PlatformTokenRowSchema, {}, { orderBy: { createdAt: 'asc', id: 'asc' }, disableIdentityMap: true }),
    );
    return rows.map(fromRow);
  }
}

function toRow(token: PlatformToken): PlatformTokenRow {
  const s = token.toSnapshot();
  return { id: s.id, name: s.name, secretHash: s.secretHash, createdAt: s.createdAt, revokedAt: s.revokedAt };
}

function fromRow(row: PlatformTokenRow): PlatformToken {
  return PlatformToken.restore({ id: row.id, name: row.name, secretHash: row.secretHash, createdAt: row.createdAt, revokedAt: row.revokedAt });
}
