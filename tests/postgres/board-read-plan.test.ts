import { expect } from 'chai';
import { Board } from '../../domain/board/board.js';
import { VACANCY_BOARDS_SQL } from '../../adapters/persistence/postgres/point-reads.js';
import { freshEntityManager } from '../../adapters/persistence/postgres/transaction-scope.js';
import { aVacancy, nextId } from '../support/builders.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';

/** Vacancies (each with a board) of the company whose plan is read: enough that scanning its boards is a choice. */
const VACANCIES = 400;

describe('The read of a batch\'s vacancies with their boards (new applications), as PostgreSQL plans it', () => {
  const database = usePostgresTestDatabase();

  it('reads each board by its key, not by scanning the company\'s boards, at any number of vacancies', async function () {
    this.timeout(60_000);
    const { vacancies, boards } = database().adapters();
    const companyId = nextId('co');
    const ids: string[] = [];
    for (let i = 0; i < VACANCIES; i++) {
      const vacancy = aVacancy({ companyId });
      ids.push(vacancy.id);
      await vacancies.insert(vacancy);
      await boards.save(Board.create(companyId, vacancy.id, ['Новые', `Этап ${i}`]));
    }
    const em = freshEntityManager(database().databases.business);
    await em.execute('analyze vacancies');
    await em.execute('analyze boards');
    // One vacancy, as most batches have, and several.
    for (const asked of [[ids[7]], ids.slice(100, 105)]) {
      const plan = (await em.execute<{ 'QUERY PLAN': string }[]>(`explain ${VACANCY_BOARDS_SQL}`, [companyId, JSON.stringify(asked)]))
        .map((row) => row['QUERY PLAN'])
        .join('\n');
      // A left join here was planned as a hash join over a scan of every board of the company (0.6 ms of
      // PostgreSQL's CPU at 1,000 boards, more with more): the board must come by its primary key.
      expect(plan, plan).to.match(/Index Scan using boards_pkey on boards/);
      expect(plan, plan).not.to.match(/Seq Scan on boards|Hash .*Join/);
    }
    const found = await boards.findOfVacancies(companyId, [ids[7] as string, ids[8] as string]);
    expect(found.get(ids[7] as string)?.columns).to.deep.equal(['Новые', 'Этап 7']);
    expect(found.get(ids[8] as string)?.columns).to.deep.equal(['Новые', 'Этап 8']);
  });
});
