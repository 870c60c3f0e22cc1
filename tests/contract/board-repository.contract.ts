import { expect } from 'chai';
import { Board } from '../../domain/board/board.js';
import { aVacancy, nextId } from '../support/builders.js';
import { withAdapters, type AdapterFactory } from './persistence-adapters.js';

export function boardRepositoryContract(factory: AdapterFactory): void {
  describe(`BoardRepository.findOfVacancies (${factory.name})`, () => {
    const adapters = withAdapters(factory);

    it('answers each vacancy of the company with its board, or null without one, and leaves out the rest', async () => {
      const companyId = nextId('co');
      const other = nextId('co');
      for (const id of ['with-board', 'without-board']) await adapters().vacancies.insert(aVacancy({ companyId, id }));
      await adapters().vacancies.insert(aVacancy({ companyId: other, id: 'foreign' }));
      await adapters().boards.save(Board.create(companyId, 'with-board', ['Новые', 'Интервью']));
      await adapters().boards.save(Board.create(other, 'foreign', ['Чужие']));
      const found = await adapters().boards.findOfVacancies(companyId, ['with-board', 'without-board', 'foreign', 'missing', 'with-board']);
      expect([...found.keys()].sort()).to.deep.equal(['with-board', 'without-board']);
      expect(found.get('with-board')?.toSnapshot()).to.deep.equal({ companyId, vacancyId: 'with-board', columns: ['Новые', 'Интервью'] });
      expect(found.get('without-board')).to.equal(null);
    });

    it('answers an empty list of ids with no vacancy', async () => {
      expect((await adapters().boards.findOfVacancies(nextId('co'), [])).size).to.equal(0);
    });
  });
}
