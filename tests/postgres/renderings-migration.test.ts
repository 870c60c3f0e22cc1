import { expect } from 'chai';
import pg from 'pg';
import { Migration20261127000000Renderings } from '../../adapters/persistence/postgres/migrations/business/Migration20261127000000Renderings.js';
import { PgFeedLedger } from '../../adapters/persistence/postgres/pg-feed-ledger.js';
import { pgPersistence } from '../../adapters/persistence/postgres/pg-persistence.js';
import { toCandidateRow } from '../../adapters/persistence/postgres/row-mapping/candidate-row-mapping.js';
import { CANDIDATES } from '../../adapters/persistence/postgres/tables/candidate.table.js';
import { toVacancyRow } from '../../adapters/persistence/postgres/row-mapping/vacancy-row-mapping.js';
import { presentCandidate } from '../../adapters/presenters/candidate.presenter.js';
import { presentVacancy } from '../../adapters/presenters/vacancy.presenter.js';
import { ADMIN_CLI_ACTOR } from '../../application/use-cases/actor.js';
import { toCandidateView } from '../../application/views/candidate-view.js';
import { toVacancyView } from '../../application/views/vacancy-view.js';
import type { CandidateCard } from '../../domain/candidate/candidate-card.js';
import type { Vacancy } from '../../domain/vacancy/vacancy.js';
import { migrateDatabases } from '../../infrastructure/database/migrate-databases.js';
import { openDatabases, type Databases } from '../../infrastructure/database/open-databases.js';
import { jsonOf, runAdmin } from '../cli/support/run-admin.js';
import type { PersistenceAdapters } from '../contract/persistence-adapters.js';
import { aManualCard, anApplicationCard, aPerson, aResume, aVacancy, aVacancyInput, at } from '../support/builders.js';
import { ALL_SCOPES } from '../support/http-fixtures.js';
import { ManualClock } from '../support/manual-clock.js';
import { migrationTestDatabase } from '../support/migration-test-database.js';
import { SequentialIds } from '../support/sequential-ids.js';
import { startServiceOnAdapters, type ServiceOnAdapters } from '../support/service-on-adapters.js';

const MIGRATION = 'Migration20261127000000Renderings';

/** The statements of the migration's down(): it only adds SQL, so it needs no driver. */
async function downStatements(): Promise<string[]> {
  const migration = new Migration20261127000000Renderings(undefined as never, undefined as never);
  await migration.down();
  return migration.getQueries().map((query) => String(query));
}

/** Inserts rows given as column -> value, all with the columns of the first, in one statement. */
async function insertRows(client: pg.Client, table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  const columns = Object.keys(rows[0] ?? {});
  const values = rows.map((_, row) => `(${columns.map((_, column) => `$${row * columns.length + column + 1}`).join(', ')})`);
  await client.query(`insert into ${table} (${columns.join(', ')}) values ${values.join(', ')}`, rows.flatMap((row) => columns.map((column) => row[column])));
}

/** A vacancy as the version before the migration wrote it: the row without its rendering. */
function vacancyColumnsOf(vacancy: Vacancy): Record<string, unknown> {
  const { rendering: _rendering, ...row } = toVacancyRow(vacancy);
  const list = (value: readonly string[]) => JSON.stringify(value);
  return {
    company_id: row.companyId, id: row.id, title: row.title, status: row.status, city: row.city, office_address: row.officeAddress,
    experience: row.experience, work_format: row.workFormat, work_formats: list(row.workFormats), salary_from: row.salaryFrom,
    salary_to: row.salaryTo, salary_currency: row.salaryCurrency, salary_gross: row.salaryGross, employment_form: row.employmentForm,
    work_schedule: list(row.workSchedule), skills: list(row.skills), languages: list(row.languages), professional_roles: list(row.professionalRoles),
    description: row.description, responsibilities: row.responsibilities, positions_count: row.positionsCount, source_url: row.sourceUrl,
    published_at: row.publishedAt, recruiter: row.recruiter, source_ref: row.sourceRef, created_at: row.createdAt, updated_at: row.updatedAt,
  };
}

/** A card as the version before the migration wrote it. */
function cardColumnsOf(card: CandidateCard): Record<string, unknown> {
  const values = CANDIDATES.values(toCandidateRow(card));
  const columns = CANDIDATES.columnNames.split(', ').map((column, index) => [column, values[index]] as const);
  return Object.fromEntries(columns.filter(([column]) => column !== 'rendering'));
}

/** The SQLSTATE of an error or of an error it was caused by (MikroORM wraps the driver's). */
function sqlStateOf(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e !== undefined && e !== null; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

interface CheckOutput {
  vacancies: { checked: number; differing: number };
  candidates: { checked: number; differing: number };
  repaired: number;
  stillDiffering: number;
  differing: unknown[];
}

/**
 * The migration is expand-only (docs/running-at-scale.md): during a rolling upgrade instances of the previous
 * version keep inserting and updating rows without renderings, and the lists must serve those rows as the
 * presenters print them; `admin check renderings --repair` is the backfill, run after the rollout.
 */
describe(`Migration ${MIGRATION}`, function () {
  this.timeout(120_000);
  // Back to the schema before the read model, through the migration's own down().
  const database = migrationTestDatabase(async (client) => {
    for (const statement of await downStatements()) await client.query(statement);
    await client.query('delete from mikro_orm_migrations_business where name = $1', [MIGRATION]);
  });

  const migrate = () => migrateDatabases({ businessUrl: database.url, registryUrl: database.url });
  const sql = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) => (await database.client.query<T>(text, params)).rows;

  it('down() leaves the tables as they were before: no rendering column', async () => {
    expect(await sql("select table_name from information_schema.columns where table_name in ('vacancies', 'candidates') and column_name = 'rendering'")).to.deep.equal([]);
  });

  it('adds the two columns nullable, with no constraint on them and no rendering written', async () => {
    await sql("insert into vacancies (company_id, id, title, status, created_at, updated_at) values ('co-a', 'v', 'Старая', 'open', $1, $1)", [at(0)]);
    expect((await migrate()).business).to.deep.equal([MIGRATION]);
    const columns = await sql<{ table_name: string; is_nullable: string; data_type: string }>(
      `select table_name, is_nullable, data_type from information_schema.columns
        where table_name in ('vacancies', 'candidates') and column_name = 'rendering' order by table_name`,
    );
    expect(columns).to.deep.equal([
      { table_name: 'candidates', is_nullable: 'YES', data_type: 'text' },
      { table_name: 'vacancies', is_nullable: 'YES', data_type: 'text' },
    ]);
    const constraints = await sql(
      "select conname from pg_constraint where conrelid in ('vacancies'::regclass, 'candidates'::regclass) and pg_get_constraintdef(oid) like '%rendering%'",
    );
    expect(constraints).to.deep.equal([]);
    expect(await sql('select rendering from vacancies')).to.deep.equal([{ rendering: null }]);
  });

  it('fails within seconds with a lock timeout while a transaction holds candidates, adding nothing, and succeeds once it ends', async () => {
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      // A reader's ACCESS SHARE lock, as a long page or an import of the previous version holds it.
      await holder.query('begin');
      await holder.query('select count(*) from candidates');
      // Without a lock timeout the migration would wait as long as the holder: the test gives up after 15 s.
      let giveUp: NodeJS.Timeout | undefined;
      const stalled = new Promise<Error>((resolve) => {
        giveUp = setTimeout(() => resolve(new Error('the migration still waits for the lock after 15 s')), 15_000);
      });
      const failure = await Promise.race([migrate().then(() => null, (error: unknown) => error), stalled]);
      clearTimeout(giveUp);
      expect(sqlStateOf(failure), String(failure)).to.equal('55P03');
      expect(await sql("select table_name from information_schema.columns where table_name in ('vacancies', 'candidates') and column_name = 'rendering'")).to.deep.equal([]);
      expect(await sql('select name from mikro_orm_migrations_business where name = $1', [MIGRATION])).to.deep.equal([]);
      // Nothing left waiting for the lock either (in this database: other files' tests share the server).
      expect(await sql("select pid from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()")).to.deep.equal([]);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    expect((await migrate()).business).to.deep.equal([MIGRATION]);
  });

  describe('with instances of the previous version writing beside it', () => {
    let databases: Databases;
    let adapters: PersistenceAdapters;
    let service: ServiceOnAdapters;
    let companyId: string;
    let key: string;
    const clock = new ManualClock(at(100_000));

    beforeEach(async () => {
      databases = await openDatabases({ databaseUrl: database.url, keysDatabaseUrl: database.url, dataDir: '', poolMax: 4 });
      adapters = { ...pgPersistence(databases, { clock }), feedLedger: new PgFeedLedger(databases.business) };
      service = await startServiceOnAdapters(adapters, { clock, ids: new SequentialIds() });
      companyId = (await service.use('createCompany').execute({ name: 'ТОО «До миграции»' })).id;
      key = (await service.use('issueKey').execute({ companyId, scopes: ALL_SCOPES, name: 'lists', expiresAt: null, actor: ADMIN_CLI_ACTOR })).key;
    });
    afterEach(async () => {
      await service?.close();
      await databases?.close();
    });

    /** What the presenters print for the company's records as stored now, in the lists' order: the expected pages. */
    async function presented(): Promise<{ vacancies: string; candidates: string }> {
      const vacancyIds = await sql<{ id: string }>('select id from vacancies where company_id = $1 order by updated_at, id', [companyId]);
      const cardIds = await sql<{ id: string }>('select id from candidates where company_id = $1 and not technical order by modified_at, id', [companyId]);
      const vacancy = async (id: string) => (await adapters.vacancies.findById(companyId, id)) as Vacancy;
      const vacancies = await Promise.all(vacancyIds.map(async ({ id }) => presentVacancy(toVacancyView(await vacancy(id)))));
      const candidates = await Promise.all(
        cardIds.map(async ({ id }) => {
          const card = (await adapters.candidates.findById(companyId, id)) as CandidateCard;
          const title = card.vacancyId === null ? null : ((await adapters.vacancies.findById(companyId, card.vacancyId))?.title ?? null);
          return presentCandidate(toCandidateView(card, title));
        }),
      );
      return { vacancies: JSON.stringify({ items: vacancies, nextCursor: null }), candidates: JSON.stringify({ items: candidates, nextCursor: null }) };
    }

    /** Both lists through the real Koa app, each byte for byte what the presenters print. */
    async function expectListsPresented(what: string): Promise<void> {
      const expected = await presented();
      const vacancies = await service.get('/vacancies?status=all&limit=100', key);
      const candidates = await service.get('/candidates?limit=100', key);
      expect(vacancies.status, what).to.equal(200);
      expect(candidates.status, what).to.equal(200);
      expect(vacancies.body.toString('utf8'), `${what}: GET /vacancies`).to.equal(expected.vacancies);
      expect(candidates.body.toString('utf8'), `${what}: GET /candidates`).to.equal(expected.candidates);
    }

    const renderingOf = async (table: 'vacancies' | 'candidates', id: string) =>
      (await sql<{ rendering: string | null }>(`select rendering from ${table} where company_id = $1 and id = $2`, [companyId, id]))[0]?.rendering;

    it('lists rows stored before it, rows the previous version inserts and updates after it, as the presenters print them; --repair then fills every rendering', async () => {
      // Stored by the previous version, before the migration.
      const main = aVacancy({ companyId, id: 'main', now: at(1), input: { title: 'Кассир «Ночной» \\ 24/7', skills: ['"q"', 'Алматы', '😀', ''] } });
      const bare = aVacancy({ companyId, id: 'bare', now: at(2), input: { city: null, skills: [], salaryFrom: null, salaryTo: null } });
      await insertRows(database.client, 'vacancies', [main, bare].map(vacancyColumnsOf));
      const applied = anApplicationCard({ companyId, vacancyId: 'main', externalId: 'ext-1', id: 'applied', now: at(5) });
      applied.replaceResume(aResume({ summary: 'Строка\nс "кавычками" и \\ ', skills: ['C\\C++'] }), at(6_000));
      const detached = aManualCard({ companyId, vacancyId: 'bare', id: 'detached', now: at(6), person: aPerson({ name: 'Ёжик 😀' }) });
      detached.detachFromVacancy(at(7));
      const manual = aManualCard({ companyId, vacancyId: 'main', id: 'manual', now: at(8) });
      const technical = manual.technicalCopy({ id: 'technical', vacancyId: 'bare', stage: 'NEW', now: at(9) });
      const moved = aManualCard({ companyId, vacancyId: 'bare', id: 'moved', now: at(10) });
      await insertRows(database.client, 'candidates', [applied, detached, manual, technical, moved].map(cardColumnsOf));

      expect((await migrate()).business).to.deep.equal([MIGRATION]);
      await expectListsPresented('rows stored before the migration, none rendered');

      // The new version writes a card and a vacancy, with renderings; the previous version then changes them and
      // leaves the renderings as they were, stale.
      clock.set(at(200_000));
      await service.use('moveCandidate').execute({ companyId, id: 'moved', stage: 'INTERVIEW' });
      await service.use('upsertVacancies').execute({ companyId, vacancies: [{ ...aVacancyInput({ title: 'Переименована' }), id: 'bare' }] });
      const staleCard = await renderingOf('candidates', 'moved');
      const staleVacancy = await renderingOf('vacancies', 'bare');
      expect(staleCard).to.contain('"stage":"INTERVIEW"');
      await sql("update candidates set stage = 'OFFER', card_updated_at = $3 where company_id = $1 and id = $2", [companyId, 'moved', at(300_000)]);
      await sql("update vacancies set title = 'Снова переименована', updated_at = $3 where company_id = $1 and id = $2", [companyId, 'bare', at(300_001)]);
      // And inserts rows without renderings, which the migration did not make it fail to.
      const late = aManualCard({ companyId, vacancyId: 'bare', id: 'late', now: at(300_002) });
      await insertRows(database.client, 'candidates', [cardColumnsOf(late)]);
      await insertRows(database.client, 'vacancies', [vacancyColumnsOf(aVacancy({ companyId, id: 'late', now: at(300_003), input: { title: 'Новая' } }))]);

      await expectListsPresented('rows the previous version wrote after the migration');
      const page = JSON.parse((await service.get('/candidates?limit=100', key)).body.toString('utf8')) as { items: { id: string; stage: string }[] };
      expect(page.items.find((item) => item.id === 'moved')?.stage).to.equal('OFFER');
      expect(await renderingOf('candidates', 'moved'), 'reads write nothing back').to.equal(staleCard);
      expect(await renderingOf('vacancies', 'bare')).to.equal(staleVacancy);

      // The backfill, once the previous version is gone.
      const env = { STORE: 'postgres', DATABASE_URL: database.url, KEYS_DATABASE_URL: database.url };
      const repair = await runAdmin(['check', 'renderings', '--repair'], { env });
      expect(repair.status, repair.stderr).to.equal(0);
      // Stale: 3 vacancies (main, late: none; bare: old text) and 5 cards (applied, detached, manual, late: none; moved: old text).
      expect(jsonOf<CheckOutput>(repair)).to.deep.include({ vacancies: { checked: 3, differing: 3 }, candidates: { checked: 5, differing: 5 }, repaired: 8, stillDiffering: 0 });
      expect(await sql('select id from vacancies where rendering is null')).to.deep.equal([]);
      expect(await sql('select id from candidates where rendering is null')).to.deep.equal([{ id: 'technical' }]);
      const again = await runAdmin(['check', 'renderings'], { env });
      expect(again.status, again.stderr).to.equal(0);
      expect(jsonOf<CheckOutput>(again)).to.deep.include({ repaired: 0, stillDiffering: 0, differing: [] });
      await expectListsPresented('after the repair, every rendering stored');
    });
  });
});
