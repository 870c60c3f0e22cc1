import { expect } from 'chai';
import pg from 'pg';
import { buildContainer, disposeContainer } from '../../infrastructure/container/build-container.js';
import { POSTGRES_DATABASES, READINESS } from '../../infrastructure/container/infrastructure.tokens.js';
import { resolve } from '../../infrastructure/container/typed-binding.js';
import { USE_CASES } from '../../infrastructure/container/use-case.tokens.js';
import { createLogger } from '../../infrastructure/logger.js';
import { anApplication, aVacancyInput } from '../support/builders.js';
import { rejectionOf } from '../support/catching.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';

/** Rows of the company in a table of the database at `url`, read behind the adapters' back. */
async function rowsOf(url: string, table: 'companies' | 'candidates', companyId: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const column = table === 'companies' ? 'id' : 'company_id';
    const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from ${table} where ${column} = $1`, [companyId]);
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

describe('The postgres profile of the container', () => {
  const database = usePostgresTestDatabase({ separateRegistry: true });

  it('serves the use cases from PostgreSQL, companies from the key registry, and closes its pools on dispose', async () => {
    const { businessUrl, registryUrl } = database();
    const container = await buildContainer({
      profile: 'postgres',
      config: { databaseUrl: businessUrl, keysDatabaseUrl: registryUrl },
      logger: createLogger('silent'),
    });
    const databases = resolve(container, POSTGRES_DATABASES);
    try {
      expect(await resolve(container, READINESS)()).to.equal(true);
      const { id: companyId } = await resolve(container, USE_CASES.createCompany).execute({ name: 'ТОО «Контейнер»' });
      const [vacancy] = await resolve(container, USE_CASES.upsertVacancies).execute({ companyId, vacancies: [aVacancyInput()] });
      const applied = await resolve(container, USE_CASES.submitApplication).execute({
        companyId,
        application: anApplication({ vacancyId: vacancy?.id as string }),
      });
      const listCandidates = resolve(container, USE_CASES.listCandidates);
      const { page } = await listCandidates.execute({ companyId, since: null, vacancyId: null, limit: 10, cursor: null });
      expect(page.items.map((c) => c.id)).to.deep.equal([applied.id]);

      expect(await rowsOf(registryUrl, 'companies', companyId)).to.equal(1);
      expect(await rowsOf(businessUrl, 'companies', companyId)).to.equal(0);
      expect(await rowsOf(businessUrl, 'candidates', companyId)).to.equal(1);
      expect(await rowsOf(registryUrl, 'candidates', companyId)).to.equal(0);
    } finally {
      await disposeContainer(container);
    }
    // Both pools ended: neither lends a connection any more.
    for (const db of [databases.business, databases.registry]) {
      expect(((await rejectionOf(db.connect())) as Error).message).to.match(/after calling end on the pool/);
    }
  });
});
