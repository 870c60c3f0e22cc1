import { UuidV7IdGenerator } from '../../adapters/system/uuid-v7-id-generator.js';
import { expect } from 'chai';
import { presentCandidate } from '../../adapters/presenters/candidate.presenter.js';
import { presentVacancy } from '../../adapters/presenters/vacancy.presenter.js';
import { NodeCryptoSecrets } from '../../adapters/system/node-crypto-secrets.js';
import { SystemClock } from '../../adapters/system/system-clock.js';
import { AuthenticateKey } from '../../application/use-cases/authenticate-key.use-case.js';
import { DEFAULT_BOARD_COLUMNS } from '../../domain/board/board.js';
import { VACANCY_STATUSES } from '../../domain/vacancy/vacancy-status.js';
import { KAZAKHSTAN, UZBEKISTAN } from '../../adapters/cli/seed/demo-vocabulary.js';
import { useAdminDatabase } from './support/admin-database.js';
import { jsonOf } from './support/run-admin.js';
import { sqlOn } from '../support/sql.js';

interface SeedOutput {
  companyId: string;
  key: string;
  keyId: string;
  vacancies: number;
  vacanciesByStatus: Record<string, number>;
  customBoards: number;
  candidates: number;
  candidatesBySource: Record<string, number>;
  referrals: number;
  technicalCards: number;
}

describe('admin CLI: seed demo (processes on PostgreSQL)', function () {
  this.timeout(120_000);
  const admin = useAdminDatabase();

  /** What the seed decides, without what differs from run to run (ids, times, the company). */
  async function contentOf(companyId: string) {
    const vacancies = (await admin().vacancies(companyId)).map((v) => {
      const { id: _i, createdAt: _c, updatedAt: _u, ...rest } = presentVacancy(v);
      return JSON.stringify(rest);
    });
    const candidates = (await admin().candidates(companyId)).map((c) => {
      const { id: _i, vacancyId: _v, createdAt: _c, updatedAt: _u, ...rest } = presentCandidate(c);
      return JSON.stringify(rest);
    });
    return { vacancies: vacancies.sort(), candidates: candidates.sort() };
  }

  it('makes a company with a working key of every scope and realistic data of every kind', async () => {
    const run = await admin().run(['seed', 'demo', '--vacancies', '7', '--candidates', '300', '--seed', '42']);
    const seeded = jsonOf<SeedOutput>(run);
    expect(Object.keys(seeded)).to.deep.equal([
      'companyId', 'companyName', 'key', 'keyId', 'scopes', 'vacancies', 'vacanciesByStatus', 'customBoards', 'candidates',
      'candidatesBySource', 'referrals', 'technicalCards', 'seed',
    ]);
    expect(run.stderr).to.match(/^vacancies: 7\/7 \(100%\)/m).and.match(/^candidates: 300\/300 \(100%\)/m).and.match(/^seeded 7 vacancies and 300 candidates in /m);
    expect(run.stderr).to.not.contain('\r');

    const principal = await new AuthenticateKey(admin().database.adapters().keys, new NodeCryptoSecrets(), new UuidV7IdGenerator(), new SystemClock()).execute({ presentedKey: seeded.key });
    expect(principal).to.deep.equal({ keyId: seeded.keyId, companyId: seeded.companyId, scopes: ['vacancies:read', 'candidates:read', 'applications:write'] });

    const vacancies = (await admin().vacancies(seeded.companyId)).map(presentVacancy);
    expect(vacancies).to.have.length(7);
    expect([...new Set(vacancies.map((v) => v.status))].sort()).to.deep.equal([...VACANCY_STATUSES].sort());
    expect(Object.values(seeded.vacanciesByStatus).reduce((a, n) => a + n, 0)).to.equal(7);
    expect(new Set(vacancies.map((v) => v.salaryCurrency).filter((c) => c !== null))).to.deep.equal(new Set(['KZT', 'UZS']));
    // Places of both countries: in Kazakhstan with tenge, in Uzbekistan with sums.
    expect(vacancies.some((v) => v.salaryCurrency !== 'UZS' && KAZAKHSTAN.regions.includes(v.city as string))).to.equal(true);
    expect(vacancies.some((v) => v.salaryCurrency !== 'KZT' && UZBEKISTAN.regions.includes(v.city as string))).to.equal(true);

    const candidates = (await admin().candidates(seeded.companyId)).map(presentCandidate);
    expect(candidates).to.have.length(300);
    expect(seeded).to.deep.include({ vacancies: 7, candidates: 300, technicalCards: 3 });
    expect(candidates.filter((c) => c.referral !== null)).to.have.length(seeded.referrals).and.not.be.empty;
    const bySource: Record<string, number> = {};
    for (const c of candidates) bySource[c.source] = (bySource[c.source] ?? 0) + 1;
    expect(bySource).to.deep.equal(seeded.candidatesBySource);
    expect(Object.keys(bySource)).to.include.members(['hh', 'manual', 'career-portal']);
    for (const c of candidates) {
      expect(c.candidate.name).to.match(/^[А-ЯЁ][а-яё]+ [А-ЯЁ][а-яё]+$/);
      if (c.source === 'hh') expect(c).to.deep.include({ externalId: null, coverLetter: null });
      if (c.source === 'manual') expect(c.externalId).to.equal(null);
      if (c.source !== 'hh' && c.source !== 'manual') expect(c.externalId).to.match(/^demo-\d+$/);
    }
    expect(candidates.some((c) => c.resume.experience.length > 0 && c.resume.education.length > 0)).to.equal(true);
    expect(candidates.some((c) => c.stage !== null && !(DEFAULT_BOARD_COLUMNS as readonly string[]).includes(c.stage))).to.equal(true);
    expect(seeded.customBoards).to.be.greaterThan(0);

    // Transfers made technical cards, which are stored but never listed.
    const rows = await sqlOn(admin().database.databases.business)<{ n: number }[]>(
      'select count(*)::int as n from candidates where company_id = ? and technical', [seeded.companyId],
    );
    expect(rows[0]?.n).to.equal(3);
  });

  it('gives the same content for the same seed, and other content for another', async () => {
    const first = jsonOf<SeedOutput>(await admin().runInProcess(['seed', 'demo', '--vacancies', '6', '--candidates', '120', '--seed', '7']));
    const again = jsonOf<SeedOutput>(await admin().runInProcess(['seed', 'demo', '--vacancies', '6', '--candidates', '120', '--seed', '7']));
    const other = jsonOf<SeedOutput>(await admin().runInProcess(['seed', 'demo', '--vacancies', '6', '--candidates', '120', '--seed', '8']));
    expect(again.companyId).to.not.equal(first.companyId);
    expect(await contentOf(again.companyId)).to.deep.equal(await contentOf(first.companyId));
    expect((await contentOf(other.companyId)).candidates).to.not.deep.equal((await contentOf(first.companyId)).candidates);
  });
});
