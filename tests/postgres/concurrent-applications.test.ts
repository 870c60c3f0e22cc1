import { expect } from 'chai';
import type { SubmitApplicationResult } from '../../application/use-cases/submit-application.use-case.js';
import { anApplication, aVacancyInput } from '../support/builders.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { postgresUseCases } from '../support/postgres-use-cases.js';
import { REPEAT_WAYS } from '../support/repeat-ways.js';

describe('SubmitApplication on PostgreSQL under concurrency', () => {
  const database = usePostgresTestDatabase();

  // ADR 21: an application is looked up before it is stored only while its company's applications are often
  // repeats; otherwise the insert tells a repeat. Both ways must give the same answers.
  for (const { name: repeats, forecast, lookedUp } of REPEAT_WAYS) {
    it(`answers a repeat with the earlier id and whether its body differs, ${repeats}`, async () => {
      const useCases = postgresUseCases(database(), {}, forecast());
      const { id: companyId } = await useCases.createCompany.execute({ name: 'ТОО «Повтор»' });
      const [vacancy] = await useCases.upsertVacancies.execute({ companyId, vacancies: [aVacancyInput()] });
      const send = (coverLetter: string) =>
        useCases.submitApplication.execute({ companyId, application: anApplication({ vacancyId: vacancy?.id as string, externalId: 'portal-7', coverLetter }) });
      const first = await send('Письмо');
      expect(first.status).to.equal('created');
      expect(await send('Письмо')).to.deep.equal({ status: 'duplicate', id: first.id, bodyDiffers: false });
      expect(await send('Другое письмо')).to.deep.equal({ status: 'duplicate', id: first.id, bodyDiffers: true });
      const { page } = await useCases.listCandidates.execute({ companyId, since: null, vacancyId: null, limit: 100, cursor: null });
      expect(page.items.map((c) => c.id)).to.deep.equal([first.id]);
      expect(useCases.lookups(), 'lookups: one an application, or none').to.equal(lookedUp ? 3 : 0);
    });
  }

  for (const [companyLock, { name: repeats, forecast, lookedUp }] of [true, false].flatMap((lock) => REPEAT_WAYS.map((way) => [lock, way] as const))) {
    const how = `${companyLock ? 'with the company lock' : 'on the unique index alone (company lock off)'}, repeats ${repeats}`;

    it(`creates one card for 50 concurrent applications with one externalId, ${how}`, async () => {
      const useCases = postgresUseCases(database(), { companyLock }, forecast());
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
      expect(useCases.lookups() > 0, 'looked up').to.equal(lookedUp);
    });
  }
});
