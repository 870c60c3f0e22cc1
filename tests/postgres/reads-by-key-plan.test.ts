import { expect } from 'chai';
import { Board } from '../../domain/board/board.js';
import { listedCandidates } from '../../adapters/persistence/postgres/candidate-list-query.js';
import { VACANCY_BOARDS_SQL } from '../../adapters/persistence/postgres/point-reads.js';
import { executeInlined, type PgSession } from '../../adapters/persistence/postgres/pg-statements.js';
import { inOwnTransaction } from '../../adapters/persistence/postgres/pg-transaction.js';
import { aManualCard, aVacancy, nextId } from '../support/builders.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { answerOf, hookStatements } from '../support/statement-hook.js';
import { primaryStatements } from '../../adapters/persistence/postgres/replicas/list-page-reads.js';

/** Vacancies (each with a board) of the company whose plans are read: enough that scanning them is a choice. */
const VACANCIES = 400;

/**
 * A read that takes a few rows of another table for each of its own (a vacancy's board, a card's vacancy title)
 * takes them by key. Written as left joins, both were planned as hash joins over a scan of every row of the
 * company in the other table (bench/README, "Reads by key"): a cost that grows with the company's vacancies.
 */
describe('Reads that take a vacancy\'s board or title for each of their rows, as PostgreSQL plans them', () => {
  const database = usePostgresTestDatabase();
  const companyId = nextId('co');
  const ids: string[] = [];
  const db = () => database().databases.business;

  before(async function () {
    this.timeout(60_000);
    const { vacancies, boards, candidates } = database().adapters();
    for (let i = 0; i < VACANCIES; i++) {
      const vacancy = aVacancy({ companyId });
      ids.push(vacancy.id);
      await vacancies.insert(vacancy);
      await boards.save(Board.create(companyId, vacancy.id, ['Новые', `Этап ${i}`]));
      if (i % 4 === 0) await candidates.insert(aManualCard({ companyId, vacancyId: vacancy.id }));
    }
    for (const table of ['vacancies', 'boards', 'candidates']) await executeInlined({ db: db(), transaction: undefined }, `analyze ${table}`);
  });

  // At PostgreSQL's default costs (the service sets none of its own): with random_page_cost lowered (an SSD setting)
  // the planner reads by key even for the old left joins, and this test could no longer tell them apart.
  const planOf = (sql: string, params: unknown[]) =>
    inOwnTransaction(db(), async (tx) => {
      await executeInlined(tx, 'set local random_page_cost = 4');
      await executeInlined(tx, 'set local seq_page_cost = 1');
      return (await executeInlined<{ 'QUERY PLAN': string }>(tx, `explain ${sql}`, params)).map((row) => row['QUERY PLAN']).join('\n');
    });

  it('new applications\' batch reads each vacancy\'s board by its key', async () => {
    // One vacancy, as most batches have, and several (the planner guesses ten ids from the array either way).
    for (const asked of [[ids[7]], ids.slice(100, 105)]) {
      const plan = await planOf(VACANCY_BOARDS_SQL, [companyId, JSON.stringify(asked)]);
      expect(plan, plan).to.match(/Index Scan using boards_pkey on boards/);
      expect(plan, plan).not.to.match(/Seq Scan on boards|Hash .*Join/);
    }
    const found = await database().adapters().boards.findOfVacancies(companyId, [ids[7] as string, ids[8] as string]);
    expect(found.get(ids[7] as string)?.columns).to.deep.equal(['Новые', 'Этап 7']);
    expect(found.get(ids[8] as string)?.columns).to.deep.equal(['Новые', 'Этап 8']);
  });

  it('a page of candidates reads each card\'s vacancy title by the vacancy\'s key', async () => {
    for (const whole of [false, true]) {
      const { sql, params } = await capture(database().businessUrl, (recorder) => listedCandidates(primaryStatements(recorder), { companyId, since: null, vacancyId: null, after: null, limit: 100 }), whole);
      const plan = await planOf(sql, params);
      expect(plan, plan).to.match(/Index Scan using vacancies_pkey on vacancies/);
      expect(plan, plan).not.to.match(/Seq Scan on vacancies|Hash .*Join/);
    }
    const page = await database().adapters().candidates.list({ companyId, since: null, vacancyId: null, after: null, limit: 100 });
    expect(page).to.have.length(VACANCIES / 4);
    expect(page.every((card) => card.vacancyTitle === 'Бэкенд-разработчик')).to.equal(true);
  });
});

/**
 * The SQL of a list page as sent (values inlined), without running it: the first statement (`whole` false), or the
 * one that reads the whole rows of cards whose rendering is not current (`whole` true, when the first answers one).
 */
async function capture(url: string, run: (session: PgSession) => Promise<unknown>, whole: boolean): Promise<{ sql: string; params: unknown[] }> {
  const sent: string[] = [];
  const stale = [{ id: 'x', vacancy_id: null, vacancy_title: null, rendering: null, modified_at_ms: 0 }];
  const recorder = hookStatements(url, (text) => {
    sent.push(text);
    return Promise.resolve(answerOf(sent.length === 1 && whole ? stale : []));
  });
  await run(recorder).catch(() => undefined).finally(() => recorder.close());
  const statement = sent[whole ? 1 : 0];
  if (statement === undefined) throw new Error(`the list query sent no ${whole ? 'second' : 'first'} statement`);
  return { sql: statement, params: [] };
}
