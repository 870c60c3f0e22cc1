import { expect } from 'chai';
import { tmpdir } from 'node:os';
import { pino } from 'pino';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';

/**
 * The feed's change runs the existing use cases inside its own unit of work; nothing inside may need a second
 * pooled connection (a company check in the registry did): with every connection held by such a transaction,
 * each would wait for the pool until its timeout. One connection in the pool makes the wait certain.
 */
describe('The platform feed on a pool of one connection (PostgreSQL)', function () {
  this.timeout(60_000);
  const database = usePostgresTestDatabase();

  it('applies a vacancy and a card for a company it has not seen before, without waiting for a second connection', async () => {
    // Imported dynamically, as the composition root imports the PostgreSQL module (one copy of each class).
    const [{ buildContainer, disposeContainer }, { resolve }, { USE_CASES }] = await Promise.all([
      import('../../infrastructure/container/build-container.js'),
      import('../../infrastructure/container/typed-binding.js'),
      import('../../infrastructure/container/use-case.tokens.js'),
    ]);
    const url = database().businessUrl;
    const container = await buildContainer({
      profile: 'postgres',
      logger: pino({ level: 'silent' }),
      config: { databaseUrl: url, keysDatabaseUrl: url, dataDir: tmpdir(), dbPoolMax: 1, dbTimeouts: { statementMs: 10_000, connectMs: 3_000, acquireMs: 1_500, idleInTransactionMs: 30_000 } },
    });
    try {
      const { id: companyId } = await resolve(container, USE_CASES.createCompany).execute({ name: 'ТОО «Один»' });
      const apply = resolve(container, USE_CASES.applyPlatformEvent);
      const event = (eventId: string, subject: string, change: Parameters<typeof apply.execute>[0]['change']) =>
        apply.execute({ source: '/platform/test', eventId, companyId, subject, version: 1, change });
      const vacancy = { title: 'Бэкенд', status: 'open' as const, city: null, officeAddress: null, experience: null, workFormats: [], salaryFrom: null, salaryTo: null, salaryCurrency: null, salaryGross: null, employmentForm: null, workSchedule: [], skills: [], languages: [], professionalRoles: [], description: null, positionsCount: null, sourceUrl: null, publishedAt: null, recruiter: null, sourceRef: null };
      expect(await event('e1', 'vac-1', { type: 'vacancy.upserted', vacancy })).to.equal('applied');
      const person = { name: 'Ержан', email: null, phone: null, location: null, birthDate: null, gender: null, citizenship: [] };
      const resume = { role: null, summary: null, experienceYears: null, skills: [], skillsDescription: null, experience: [], education: [], additionalEducation: [], languages: [], certificates: [], portfolio: [], expectedSalary: null, expectedSalaryCurrency: null, preferredWorkFormat: [], preferredEmployment: null, relocation: null, sourceUrl: null };
      expect(await event('e2', 'card-1', { type: 'candidate.added', card: { vacancyId: 'vac-1', candidate: person, resume, referral: null, stage: 'NEW' } })).to.equal('applied');
    } finally {
      await disposeContainer(container);
    }
  });
});
