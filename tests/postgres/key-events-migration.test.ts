import { expect } from 'chai';
import { Migration20261126000000KeyEvents } from '../../adapters/persistence/postgres/migrations/registry/Migration20261126000000KeyEvents.js';
import { Migration20261202000000KeyEventSequence } from '../../adapters/persistence/postgres/migrations/registry/Migration20261202000000KeyEventSequence.js';
import { PgServiceKeyRepository } from '../../adapters/persistence/postgres/pg-service-key-repository.js';
import { migrateDatabases } from '../../infrastructure/database/migrate-databases.js';
import { openDatabases } from '../../infrastructure/database/open-databases.js';
import { downStatements, migrationTestDatabase } from '../support/migration-test-database.js';

const MIGRATION = 'Migration20261126000000KeyEvents';
/** The registry's migrations after it, turned back first. */
const LATER = [{ name: 'Migration20261202000000KeyEventSequence', class: Migration20261202000000KeyEventSequence }];

describe(`Migration ${MIGRATION}`, function () {
  this.timeout(60_000);
  // Back to the registry before issue 14, through the migration's own down().
  const database = migrationTestDatabase(async (client) => {
    for (const later of [...LATER].reverse()) {
      for (const statement of await downStatements(later.class)) await client.query(statement);
      await client.query('delete from mikro_orm_migrations_registry where name = $1', [later.name]);
    }
    for (const statement of await downStatements(Migration20261126000000KeyEvents)) await client.query(statement);
    await client.query('delete from mikro_orm_migrations_registry where name = $1', [MIGRATION]);
  });

  it('down() leaves the registry as it was before: no event or token table, no audit columns', async () => {
    const tables = await database.client.query<{ key_events: string | null; platform_tokens: string | null }>(
      "select to_regclass('key_events')::text as key_events, to_regclass('platform_tokens')::text as platform_tokens",
    );
    expect(tables.rows[0]).to.deep.equal({ key_events: null, platform_tokens: null });
    const columns = await database.client.query<{ column_name: string }>(
      "select column_name from information_schema.columns where table_name = 'service_keys' order by ordinal_position",
    );
    expect(columns.rows.map((row) => row.column_name)).to.deep.equal([
      'id', 'company_id', 'name', 'scopes', 'secret_hash', 'created_at', 'expires_at', 'revoked_at', 'last_used_at',
    ]);
  });

  it('keeps the keys issued before it readable, with null audit fields, and then stores events for them', async () => {
    await database.client.query(
      `insert into service_keys (id, company_id, name, scopes, secret_hash, created_at, expires_at, revoked_at, last_used_at)
       values ('oldkey000001', 'co-1', 'legacy', '["vacancies:read"]', $1, '2026-01-01T00:00:00Z', null, '2026-02-01T00:00:00Z', '2026-01-15T00:00:00.123Z')`,
      ['d'.repeat(64)],
    );

    expect((await migrateDatabases({ businessUrl: database.url, registryUrl: database.url })).registry).to.deep.equal([
      MIGRATION,
      ...LATER.map((later) => later.name),
    ]);

    const databases = await openDatabases({ databaseUrl: database.url, keysDatabaseUrl: database.url, dataDir: '', poolMax: 2 });
    try {
      const keys = new PgServiceKeyRepository(databases.registry);
      const key = (await keys.findById('oldkey000001'))?.toSnapshot();
      expect(key).to.include({ companyId: 'co-1', name: 'legacy', createdBy: null, revokedBy: null, rolledFrom: null, rolledTo: null });
      expect(key?.scopes).to.deep.equal(['vacancies:read']);
      expect(key?.revokedAt?.toISOString()).to.equal('2026-02-01T00:00:00.000Z');
      expect(key?.lastUsedAt?.toISOString()).to.equal('2026-01-15T00:00:00.123Z');
      const expired = {
        id: 'ev-1', companyId: 'co-1', keyId: 'oldkey000001', type: 'expired' as const, at: new Date('2026-03-01T00:00:00Z'),
        actor: null, via: null, successorKeyId: null, expiresAt: new Date('2026-02-28T00:00:00Z'),
      };
      await keys.recordEventOnce(expired);
      expect(await keys.listEvents('co-1', { limit: 10, after: null })).to.deep.equal([expired]);
    } finally {
      await databases.close();
    }
  });
});
