import { expect } from 'chai';
import type pg from 'pg';
import { Migration20261127000000Renderings } from '../../adapters/persistence/postgres/migrations/business/Migration20261127000000Renderings.js';
import { mikroOrmPersistence } from '../../adapters/persistence/postgres/mikro-orm-persistence.js';
import { candidateColumns, toCandidateRow } from '../../adapters/persistence/postgres/row-mapping/candidate-row-mapping.js';
import { toVacancyRow } from '../../adapters/persistence/postgres/row-mapping/vacancy-row-mapping.js';
import { presentCandidate, renderCandidateRest, spliceCandidate } from '../../adapters/presenters/candidate.presenter.js';
import { renderVacancy } from '../../adapters/presenters/vacancy.presenter.js';
import { toCandidateView } from '../../application/views/candidate-view.js';
import { toVacancyView } from '../../application/views/vacancy-view.js';
import type { CandidateCard } from '../../domain/candidate/candidate-card.js';
import type { Vacancy } from '../../domain/vacancy/vacancy.js';
import { migrateDatabases } from '../../infrastructure/database/migrate-databases.js';
import { openDatabases } from '../../infrastructure/database/open-databases.js';
import { aManualCard, anApplicationCard, aPerson, aResume, aVacancy, at } from '../support/builders.js';
import { migrationTestDatabase } from '../support/migration-test-database.js';

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
  const { rendering: _rendering, ...columns } = candidateColumns(toCandidateRow(card));
  return columns;
}

describe(`Migration ${MIGRATION}`, function () {
  this.timeout(120_000);
  // Back to the schema before the read model, through the migration's own down().
  const database = migrationTestDatabase(async (client) => {
    for (const statement of await downStatements()) await client.query(statement);
    await client.query('delete from mikro_orm_migrations_business where name = $1', [MIGRATION]);
  });

  const migrate = () => migrateDatabases({ businessUrl: database.url, registryUrl: database.url });

  async function withAdapters<T>(work: (adapters: ReturnType<typeof mikroOrmPersistence>) => Promise<T>): Promise<T> {
    const databases = await openDatabases({ databaseUrl: database.url, keysDatabaseUrl: database.url, dataDir: '', poolMax: 2 });
    try {
      return await work(mikroOrmPersistence(databases));
    } finally {
      await databases.close();
    }
  }

  it('down() leaves the tables as they were before: no rendering column, no check', async () => {
    const columns = await database.client.query<{ table_name: string }>(
      "select table_name from information_schema.columns where table_name in ('vacancies', 'candidates') and column_name = 'rendering'",
    );
    expect(columns.rows).to.deep.equal([]);
    const checks = await database.client.query("select conname from pg_constraint where conname = 'candidates_rendering_check'");
    expect(checks.rows).to.deep.equal([]);
  });

  it('renders every row stored before it, across batches and companies, as the presenters render the rows now', async () => {
    const main = aVacancy({ companyId: 'co-a', id: 'main', now: at(1), input: { title: 'Кассир «Ночной» \\ 24/7', skills: ['"q"', 'Алматы', '😀', ''] } });
    const bare = aVacancy({ companyId: 'co-a', id: 'bare', now: at(2), input: { city: null, skills: [], salaryFrom: null, salaryTo: null, publishedAt: new Date('0001-01-01T00:00:00.000Z') } });
    const other = aVacancy({ companyId: 'co-b', id: 'main', now: at(3), input: { title: 'Другая компания' } });
    await insertRows(database.client, 'vacancies', [main, bare, other].map(vacancyColumnsOf));
    // A vacancy row as the first version could leave it: the lists at their defaults.
    await database.client.query(
      "insert into vacancies (company_id, id, title, status, created_at, updated_at) values ('co-a', 'legacy', 'Старая', 'archived', $1, $1)",
      [at(4)],
    );

    // More cards than one batch holds, in two companies, so that the keyset crosses batches and companies.
    const many = Array.from({ length: 1_150 }, (_, i) =>
      aManualCard({ companyId: i % 3 === 0 ? 'co-b' : 'co-a', vacancyId: 'main', id: `card-${String(i).padStart(5, '0')}`, now: at(10 + i) }),
    );
    const applied = anApplicationCard({ companyId: 'co-a', vacancyId: 'main', externalId: 'ext-1', id: 'applied', now: at(5) });
    applied.replaceResume(aResume({ summary: 'Строка\nс "кавычками" и \\ ', skills: ['C\\C++'] }), at(6_000));
    const detached = aManualCard({ companyId: 'co-a', vacancyId: 'bare', id: 'detached', now: at(6), person: aPerson({ name: 'Ёжик 😀' }) });
    detached.detachFromVacancy(at(7));
    const technical = (many[1] as CandidateCard).technicalCopy({ id: 'technical', vacancyId: 'bare', stage: 'NEW', now: at(8) });
    const written = [...many, applied, detached, technical];
    for (let start = 0; start < written.length; start += 500) await insertRows(database.client, 'candidates', written.slice(start, start + 500).map(cardColumnsOf));
    // A card row as the first version could leave it: documents with fields missing, one unknown to the mapping.
    await database.client.query(
      `insert into candidates (company_id, id, vacancy_id, stage, source, person, resume, created_at, card_updated_at, resume_updated_at)
       values ('co-a', 'legacy', 'main', 'NEW', 'manual', '{"name": "Старый"}', '{"skills": ["x"], "unknown": 1}', $1, $1, $1)`,
      [at(9)],
    );

    expect((await migrate()).business).to.deep.equal([MIGRATION]);

    const stored = await database.client.query<{ company_id: string; id: string; rendering: string | null }>(
      'select company_id, id, rendering from candidates order by company_id, id',
    );
    expect(stored.rows).to.have.length(written.length + 1);
    const renderingOf = new Map(stored.rows.map((row) => [`${row.company_id}/${row.id}`, row.rendering]));
    // The cards written in JS: what the service writes for them now.
    for (const card of written) {
      const expected = card.technical ? null : renderCandidateRest(toCandidateView(card, null));
      expect(renderingOf.get(`${card.companyId}/${card.id}`), card.id).to.equal(expected);
    }
    await withAdapters(async ({ vacancies, candidates }) => {
      // The legacy card: what the presenters make of it as the adapter reads it back.
      const legacy = (await candidates.findById('co-a', 'legacy'))!;
      expect(renderingOf.get('co-a/legacy')).to.equal(renderCandidateRest(toCandidateView(legacy, null)));
      expect(JSON.parse(`{${renderingOf.get('co-a/legacy')}`)).to.deep.include({ candidate: { ...legacy.toSnapshot().person, name: 'Старый' } });

      const vacancyRows = await database.client.query<{ company_id: string; id: string; rendering: string }>('select company_id, id, rendering from vacancies');
      expect(vacancyRows.rows).to.have.length(4);
      for (const row of vacancyRows.rows) {
        const vacancy = (await vacancies.findById(row.company_id, row.id))!;
        expect(row.rendering, `${row.company_id}/${row.id}`).to.equal(renderVacancy(toVacancyView(vacancy)));
      }
      expect(vacancyRows.rows.find((row) => row.company_id === 'co-a' && row.id === 'main')?.rendering).to.equal(renderVacancy(toVacancyView(main)));

      // And the list sends, for every card, what the presenters make of it with its vacancy's title now.
      for (const companyId of ['co-a', 'co-b']) {
        const listed = await candidates.list({ companyId, since: null, vacancyId: null, after: null, limit: 5_000 });
        expect(listed).to.have.length(written.filter((card) => card.companyId === companyId && !card.technical).length + (companyId === 'co-a' ? 1 : 0));
        for (const item of listed) {
          const card = (await candidates.findById(companyId, item.id))!;
          const title = card.vacancyId === null ? null : ((await vacancies.findById(companyId, card.vacancyId))?.title ?? null);
          expect(spliceCandidate(item.id, item.vacancyId, item.vacancyTitle, item.rendering), item.id).to.equal(JSON.stringify(presentCandidate(toCandidateView(card, title))));
        }
      }
    });
  });

  it('then requires renderings: a vacancy or a listed card without one is refused, a technical card needs none', async () => {
    await migrate();
    const failure = (sql: string, params: unknown[]) => database.client.query(sql, params).then(() => null, (error: { code?: string }) => error.code);
    const vacancy = vacancyColumnsOf(aVacancy({ companyId: 'co-a', id: 'v' }));
    expect(await failure(`insert into vacancies (${Object.keys(vacancy).join(', ')}) values (${Object.keys(vacancy).map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(vacancy))).to.equal('23502');
    const card = (id: string, technical: boolean) =>
      failure(
        `insert into candidates (company_id, id, vacancy_id, stage, source, person, resume, technical, origin_card_id, created_at, card_updated_at, resume_updated_at)
         values ('co-a', $1, 'v', 'NEW', 'manual', '{}', '{}', $2, $3, now(), now(), now())`,
        [id, technical, technical ? 'origin' : null],
      );
    expect(await card('listed', false), 'a listed card without a rendering').to.equal('23514');
    expect(await card('technical', true), 'a technical card without one').to.equal(null);
  });
});
