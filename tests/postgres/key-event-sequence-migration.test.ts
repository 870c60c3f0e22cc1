import { expect } from 'chai';
import { Migration20261202000000KeyEventSequence } from '../../adapters/persistence/postgres/migrations/registry/Migration20261202000000KeyEventSequence.js';
import { PgServiceKeyRepository } from '../../adapters/persistence/postgres/pg-service-key-repository.js';
import { migrateDatabases } from '../../infrastructure/database/migrate-databases.js';
import { openDatabases } from '../../infrastructure/database/open-databases.js';
import { downStatements, migrationTestDatabase } from '../support/migration-test-database.js';

const MIGRATION = 'Migration20261202000000KeyEventSequence';

describe(`Migration ${MIGRATION}`, function () {
  this.timeout(60_000);
  const database = migrationTestDatabase(async (client) => {
    for (const statement of await downStatements(Migration20261202000000KeyEventSequence)) await client.query(statement);
    await client.query('delete from mikro_orm_migrations_registry where name = $1', [MIGRATION]);
  });

  it('keeps the trail of the events stored before it in its old order, (at, id) newest first, and puts new events above', async () => {
    // Stored in an order that is neither their time's nor their id's.
    const before = [
      ['ev-b', '2026-03-01T00:00:00Z'],
      ['ev-a', '2026-01-01T00:00:00Z'],
      ['ev-d', '2026-03-01T00:00:00Z'],
      ['ev-c', '2026-02-01T00:00:00Z'],
    ];
    for (const [id, at] of before) {
      await database.client.query(
        `insert into key_events (id, company_id, key_id, type, at) values ($1, 'co-1', 'key000000001', 'issued', $2)`,
        [id, at],
      );
    }

    expect((await migrateDatabases({ businessUrl: database.url, registryUrl: database.url })).registry).to.deep.equal([MIGRATION]);

    const databases = await openDatabases({ databaseUrl: database.url, keysDatabaseUrl: database.url, dataDir: '', poolMax: 2 });
    try {
      const keys = new PgServiceKeyRepository(databases.registry);
      const expired = {
        id: 'ev-0', companyId: 'co-1', keyId: 'key000000001', type: 'expired' as const, at: new Date('2025-01-01T00:00:00Z'),
        actor: null, via: null, successorKeyId: null, expiresAt: new Date('2025-01-01T00:00:00Z'),
      };
      await keys.recordEventOnce(expired);
      const trail = await keys.listEvents('co-1', { limit: 10, after: null });
      expect(trail.map((event) => event.id)).to.deep.equal(['ev-0', 'ev-d', 'ev-b', 'ev-c', 'ev-a']);
      expect((await keys.listEvents('co-1', { limit: 10, after: 'ev-b' })).map((event) => event.id)).to.deep.equal(['ev-c', 'ev-a']);
    } finally {
      await databases.close();
    }
  });
});
