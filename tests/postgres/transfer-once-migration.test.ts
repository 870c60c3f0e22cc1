import { expect } from 'chai';
import { Migration20261127000000Renderings } from '../../adapters/persistence/postgres/migrations/business/Migration20261127000000Renderings.js';
import { migrateDatabases } from '../../infrastructure/database/migrate-databases.js';
import { migrationTestDatabase } from '../support/migration-test-database.js';

const MIGRATION = 'Migration20261124000000TransferOncePerVacancy';
/** A later migration that the rows below (cards without renderings) predate; it is turned back too, and runs after. */
const RENDERINGS = 'Migration20261127000000Renderings';

async function renderingsDownStatements(): Promise<string[]> {
  const migration = new Migration20261127000000Renderings(undefined as never, undefined as never);
  await migration.down();
  return migration.getQueries().map((query) => String(query));
}

describe(`Migration ${MIGRATION}`, function () {
  this.timeout(60_000);
  // Back to the schema before the migration, where repeated transfers could be stored.
  const database = migrationTestDatabase(async (client) => {
    for (const statement of await renderingsDownStatements()) await client.query(statement);
    await client.query('delete from mikro_orm_migrations_business where name = $1', [RENDERINGS]);
    await client.query('drop index candidates_transfer_key');
    await client.query('create index candidates_origin_idx on candidates (company_id, origin_card_id) where origin_card_id is not null');
    await client.query('delete from mikro_orm_migrations_business where name = $1', [MIGRATION]);
  });

  const card = (id: string, vacancyId: string | null, originCardId: string | null, createdAt: string, companyId = 'co-1') =>
    database.client.query(
      `insert into candidates (company_id, id, vacancy_id, stage, source, person, resume, technical, origin_card_id, created_at, card_updated_at, resume_updated_at)
       values ($1, $2, $3, 'NEW', 'manual', '{}', '{}', $4, $5, $6, $6, $6)`,
      [companyId, id, vacancyId, originCardId !== null, originCardId, createdAt],
    );

  it('keeps the first technical card of each card and vacancy, removes the repeats, and then refuses new ones', async () => {
    await card('origin', 'v1', null, '2026-01-01T00:00:00Z');
    await card('t-late', 'v2', 'origin', '2026-01-03T00:00:00Z');
    await card('t-b', 'v2', 'origin', '2026-01-02T00:00:00Z');
    await card('t-a', 'v2', 'origin', '2026-01-02T00:00:00Z'); // same time as t-b: the lower id stays
    await card('t-v3', 'v3', 'origin', '2026-01-04T00:00:00Z');
    await card('t-gone-1', null, 'origin', '2026-01-05T00:00:00Z'); // of deleted vacancies: distinct
    await card('t-gone-2', null, 'origin', '2026-01-06T00:00:00Z');
    await card('origin', 'v1', null, '2026-01-01T00:00:00Z', 'co-2');
    await card('t-other-company', 'v2', 'origin', '2026-01-07T00:00:00Z', 'co-2');

    expect((await migrateDatabases({ businessUrl: database.url, registryUrl: database.url })).business).to.deep.equal([MIGRATION, RENDERINGS]);

    const left = await database.client.query<{ company_id: string; id: string }>('select company_id, id from candidates order by company_id, id');
    expect(left.rows.map((row) => `${row.company_id}/${row.id}`)).to.deep.equal([
      'co-1/origin', 'co-1/t-a', 'co-1/t-gone-1', 'co-1/t-gone-2', 'co-1/t-v3', 'co-2/origin', 'co-2/t-other-company',
    ]);
    const repeat = await card('t-new', 'v2', 'origin', '2026-01-08T00:00:00Z').then(() => null, (error: { code?: string }) => error.code);
    expect(repeat, 'a unique violation').to.equal('23505');
    const indexes = await database.client.query<{ indexname: string }>("select indexname from pg_indexes where tablename = 'candidates' and indexname like 'candidates_%' order by 1");
    expect(indexes.rows.map((row) => row.indexname)).to.include('candidates_transfer_key').and.not.include('candidates_origin_idx');
  });
});
