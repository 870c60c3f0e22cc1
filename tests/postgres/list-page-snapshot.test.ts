import { expect } from 'chai';
import { listedCandidates } from '../../adapters/persistence/postgres/candidate-list-query.js';
import { listedVacancies } from '../../adapters/persistence/postgres/vacancy-list-query.js';
import { isRenderingCurrent } from '../../adapters/presenters/rendering-currency.js';
import { aManualCard, aVacancy, at, nextId } from '../support/builders.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { hookStatements } from '../support/statement-hook.js';
import { sqlOn } from '../support/sql.js';
import { primaryStatements } from '../../adapters/persistence/postgres/replicas/list-page-reads.js';

/**
 * ADR 18: a page with a row that a writer of the previous version left without a current rendering is read once
 * more, whole, and that row rendered from it. A writer that keeps changing the row between the list's
 * statements must neither fail the page nor mix two states of the record in it.
 */
describe('A list page met by a writer of the previous version between its reads (PostgreSQL)', () => {
  const database = usePostgresTestDatabase();
  const sql = <T extends object[]>(text: string, params: unknown[] = []) => sqlOn(database().databases.business)<T>(text, params);

  const opened: { close(): Promise<void> }[] = [];
  afterEach(() => Promise.all(opened.splice(0).map((session) => session.close())));

  /** A session whose every statement is followed by `write` (another connection), the statements counted. */
  function writingAfterEachStatement(write: (n: number) => Promise<void>) {
    const statements = { count: 0 };
    const session = hookStatements(database().businessUrl, async (_text, run) => {
      const answer = await run();
      statements.count += 1;
      await write(statements.count);
      return answer;
    });
    opened.push(session);
    return { session, statements };
  }

  it('serves a vacancy page from one snapshot, its stale row rendered from the state of the second read, in two statements', async () => {
    const { vacancies } = database().adapters();
    const companyId = nextId('co');
    for (const [id, ms] of [['v1', 1], ['v2', 2], ['v3', 3]] as const) await vacancies.insert(aVacancy({ companyId, id, now: at(ms) }));
    await sql("update vacancies set rendering = null where company_id = ? and id = 'v1'", [companyId]);
    // The previous version renames v1 after every statement of the list: a new title, a later position, the rendering left.
    const { session, statements } = writingAfterEachStatement((n) =>
      sql(`update vacancies set title = ?, updated_at = updated_at + interval '10 seconds' where company_id = ? and id = 'v1'`, [`Ред. ${n}`, companyId]).then(() => undefined),
    );

    const page = await listedVacancies(primaryStatements(session), { companyId, since: null, status: 'all', after: null, limit: 10 });
    expect(statements.count).to.equal(2);
    expect(page.map((item) => item.id)).to.deep.equal(['v2', 'v3', 'v1']);
    for (const item of page) expect(isRenderingCurrent(item.rendering, item.updatedAt), item.id).to.equal(true);
    const v1 = page[2];
    expect(v1?.updatedAt).to.deep.equal(new Date(at(1).getTime() + 10_000));
    expect(JSON.parse(v1?.rendering as string)).to.include({ id: 'v1', title: 'Ред. 1' });
  });

  it('serves a card page from one snapshot, its stale row rendered from the state of the second read, in two statements', async () => {
    const { vacancies, candidates } = database().adapters();
    const companyId = nextId('co');
    await vacancies.insert(aVacancy({ companyId, id: 'v', now: at(0), input: { title: 'Кассир' } }));
    for (const [id, ms] of [['c1', 1], ['c2', 2]] as const) await candidates.insert(aManualCard({ companyId, vacancyId: 'v', id, now: at(ms) }));
    const stages = ['INTERVIEW', 'OFFER', 'ONBOARDING', 'REJECTION'];
    const { session, statements } = writingAfterEachStatement((n) =>
      sql(`update candidates set stage = ?, card_updated_at = card_updated_at + interval '10 seconds' where company_id = ? and id = 'c1'`, [stages[n - 1], companyId]).then(() => undefined),
    );
    // The first write leaves c1's rendering stale before the list starts.
    await sql(`update candidates set stage = 'AI_DIALOG', card_updated_at = card_updated_at + interval '10 seconds' where company_id = ? and id = 'c1'`, [companyId]);

    const page = await listedCandidates(primaryStatements(session), { companyId, since: null, vacancyId: null, after: null, limit: 10 });
    expect(statements.count).to.equal(2);
    expect(page.map((item) => item.id)).to.deep.equal(['c2', 'c1']);
    for (const item of page) expect(isRenderingCurrent(item.rendering, item.updatedAt), item.id).to.equal(true);
    const c1 = page[1];
    expect(c1?.updatedAt).to.deep.equal(new Date(at(1).getTime() + 20_000));
    expect(c1?.vacancyTitle).to.equal('Кассир');
    expect(JSON.parse(`{${c1?.rendering}`)).to.include({ stage: 'INTERVIEW' });
  });
});
