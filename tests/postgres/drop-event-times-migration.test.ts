import { expect } from 'chai';
import type pg from 'pg';
import { Migration20261202000000DropEventTimes } from '../../adapters/persistence/postgres/migrations/business/Migration20261202000000DropEventTimes.js';
import { migrateDatabases } from '../../infrastructure/database/migrate-databases.js';
import { migrationTestDatabase } from '../support/migration-test-database.js';

const MIGRATION = 'Migration20261202000000DropEventTimes';

/** The statements of the migration's down(): it only adds SQL, so it needs no driver. */
async function downStatements(): Promise<string[]> {
  const migration = new Migration20261202000000DropEventTimes(undefined as never, undefined as never);
  await migration.down();
  return migration.getQueries().map((query) => String(query));
}

describe('Migration20261202000000DropEventTimes (PostgreSQL): the ledger keeps no event times', function () {
  this.timeout(120_000);
  // Back to the schema before it, through the migration's own down().
  const database = migrationTestDatabase(async (client) => {
    for (const statement of await downStatements()) await client.query(statement);
    await client.query('delete from mikro_orm_migrations_business where name = $1', [MIGRATION]);
  });
  const sql = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) => (await database.client.query<T>(text, params)).rows;
  const timeColumns = () => sql("select column_name from information_schema.columns where table_name = 'feed_entity_versions' and column_name = 'occurred_at'");

  it('drops occurred_at and keeps every version recorded', async () => {
    expect(await timeColumns(), 'down() put the column back').to.have.length(1);
    await sql(
      `insert into feed_entity_versions (company_id, entity_kind, entity_id, aspect, version, recorded_at, occurred_at)
       values ('co-a', 'vacancy', 'v-1', '#deleted', 4, now(), now()), ('co-a', 'candidate', 'c-1', 'card', 2, now(), null)`,
    );
    expect((await migrateDatabases({ businessUrl: database.url, registryUrl: database.url })).business).to.deep.equal([MIGRATION]);
    expect(await timeColumns()).to.deep.equal([]);
    expect(await sql('select entity_id, aspect, version::int as version from feed_entity_versions order by entity_id')).to.deep.equal([
      { entity_id: 'c-1', aspect: 'card', version: 2 },
      { entity_id: 'v-1', aspect: '#deleted', version: 4 },
    ]);
  });
});
