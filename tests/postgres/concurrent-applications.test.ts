import { expect } from 'chai';
import type { SubmitApplicationResult } from '../../application/use-cases/submit-application.use-case.js';
import { anApplication, aVacancyInput } from '../support/builders.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { postgresUseCases } from '../support/postgres-use-cases.js';

describe('SubmitApplication on PostgreSQL under concurrency', () => {
  const database = usePostgresTestDatabase();

  for (const companyLock of [true, false]) {
    const how = companyLock ? 'with the company lock' : 'on the unique index alone (company lock off)';

    it(`creates one card for 50 concurrent applications with one externalId, ${how}`, async () => {
      const useCases = postgresUseCases(database(), { companyLock });
      const { id: companyId } = await useCases.createCompany.execute({ name: 'ТОО «Параллель»' });
      const [vacancy] = await useCases.upsertVacancies.execute({ companyId, vacancies: [aVacancyInput()] });
      const application = anApplication({ vacancyId: vacancy?.id as string, externalId: 'portal-42' });

      const results: SubmitApplicationResult[] = await Promise.all(
        Array.from({ length: 50 }, () => useCases.submitApplication.execute({ companyId, application })),
      );

      const created = results.filter((r) => r.status === 'created');
      expect(created).to.have.length(1);
      const duplicates = results.filter((r) => r.status === 'duplicate');
      expect(duplicates).to.have.length(49);
      expect(new Set(results.map((r) => r.id))).to.deep.equal(new Set([created[0]?.id]));
      const { page } = await useCases.listCandidates.execute({ companyId, since: null, vacancyId: null, limit: 100, cursor: null });
      expect(page.items.map((c) => c.id)).to.deep.equal([created[0]?.id]);
    });
  }
});
