import { NotFoundError } from '../../domain/shared/domain-error.js';
import type { BoardRepository } from '../ports/board-repository.port.js';
import type { CandidateRepository } from '../ports/candidate-repository.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { VacancyRepository } from '../ports/vacancy-repository.port.js';

/** Hard delete; the vacancy's candidates stay, without a vacancy, and count as modified (DESIGN 3). */
export class DeleteVacancy {
  constructor(
    private readonly vacancies: VacancyRepository,
    private readonly boards: BoardRepository,
    private readonly candidates: CandidateRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute(command: { readonly companyId: string; readonly id: string }): Promise<{ id: string; deleted: true }> {
    return this.unitOfWork.run(command.companyId, 'write', async ({ now }) => {
      const vacancy = await this.vacancies.findById(command.companyId, command.id);
      if (vacancy === null) throw new NotFoundError('vacancy', `Vacancy ${command.id} not found.`);
      await this.candidates.detachVacancy(command.companyId, command.id, now);
      await this.boards.delete(command.companyId, command.id);
      await this.vacancies.delete(command.companyId, command.id);
      return { id: command.id, deleted: true };
    });
  }
}
