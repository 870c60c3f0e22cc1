import type { CandidateCard } from '../../domain/candidate/candidate-card.js';
import type { CandidateRepository, CandidateView } from '../ports/candidate-repository.port.js';
import type { BoardRepository } from '../ports/board-repository.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { VacancyRepository } from '../ports/vacancy-repository.port.js';
import { toCandidateView } from '../views/candidate-view.js';
import { boardOf, requireCard, titleOf } from './card-lookup.js';

export interface MoveCandidateCommand {
  readonly companyId: string;
  readonly id: string;
  readonly stage: string;
}

/** Moves a card to another column of its vacancy's board. */
export class MoveCandidate {
  constructor(
    private readonly vacancies: VacancyRepository,
    private readonly boards: BoardRepository,
    private readonly candidates: CandidateRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute(command: MoveCandidateCommand): Promise<CandidateView> {
    return this.unitOfWork.run(command.companyId, 'write', async ({ now }) => {
      const card = await requireCard(this.candidates, command.companyId, command.id);
      await this.move(card, command.stage, now);
      return toCandidateView(card, await titleOf(this.vacancies, command.companyId, card.vacancyId));
    });
  }

  /**
   * The move without the card's view, for a caller that does not show it (the platform feed): no read of the
   * vacancy's title. A card whose vacancy was deleted is not moved and is told apart (`detached`), not refused.
   */
  async apply(command: MoveCandidateCommand): Promise<'moved' | 'detached'> {
    return this.unitOfWork.run(command.companyId, 'write', async ({ now }) => {
      const card = await requireCard(this.candidates, command.companyId, command.id);
      if (card.vacancyId === null) return 'detached';
      await this.move(card, command.stage, now);
      return 'moved';
    });
  }

  private async move(card: CandidateCard, stage: string, now: Date): Promise<void> {
    if (card.vacancyId !== null) (await boardOf(this.boards, card.companyId, card.vacancyId)).requireColumn(stage);
    if (card.moveTo(stage, now)) await this.candidates.update(card);
  }
}
