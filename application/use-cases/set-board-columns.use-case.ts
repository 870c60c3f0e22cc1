import { Board } from '../../domain/board/board.js';
import { NotFoundError } from '../../domain/shared/domain-error.js';
import type { BoardRepository } from '../ports/board-repository.port.js';
import type { CandidateRepository } from '../ports/candidate-repository.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { VacancyRepository } from '../ports/vacancy-repository.port.js';

export interface SetBoardColumnsCommand {
  readonly companyId: string;
  readonly vacancyId: string;
  readonly columns: readonly string[];
}

export class SetBoardColumns {
  constructor(
    private readonly vacancies: VacancyRepository,
    private readonly boards: BoardRepository,
    private readonly candidates: CandidateRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute(command: SetBoardColumnsCommand): Promise<{ vacancyId: string; columns: string[] }> {
    return this.unitOfWork.run(command.companyId, 'write', async () => {
      const vacancy = await this.vacancies.findById(command.companyId, command.vacancyId);
      if (vacancy === null) throw new NotFoundError('vacancy', `Vacancy ${command.vacancyId} not found.`);
      const board = (await this.boards.find(command.companyId, vacancy.id)) ?? Board.create(command.companyId, vacancy.id);
      board.setColumns(command.columns, await this.candidates.stagesInUse(command.companyId, vacancy.id));
      await this.boards.save(board);
      return { vacancyId: vacancy.id, columns: [...board.columns] };
    });
  }
}
