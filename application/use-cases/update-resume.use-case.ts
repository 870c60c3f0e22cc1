import type { CandidateCard } from '../../domain/candidate/candidate-card.js';
import type { Resume } from '../../domain/candidate/resume.js';
import type { CandidateRepository, CandidateView } from '../ports/candidate-repository.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { VacancyRepository } from '../ports/vacancy-repository.port.js';
import { toCandidateView } from '../views/candidate-view.js';
import { requireCard, titleOf } from './card-lookup.js';

export interface UpdateResumeCommand {
  readonly companyId: string;
  readonly id: string;
  readonly resume: Resume;
}

/** Replaces a card's resume; only the resume's modification time moves, and only when it changed. */
export class UpdateResume {
  constructor(
    private readonly vacancies: VacancyRepository,
    private readonly candidates: CandidateRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute(command: UpdateResumeCommand): Promise<CandidateView> {
    return this.unitOfWork.run(command.companyId, 'write', async ({ now }) => {
      const card = await this.replace(command, now);
      return toCandidateView(card, await titleOf(this.vacancies, command.companyId, card.vacancyId));
    });
  }

  /** The update without the card's view, for a caller that does not show it (the platform feed): no read of the vacancy's title. */
  async apply(command: UpdateResumeCommand): Promise<void> {
    await this.unitOfWork.run(command.companyId, 'write', async ({ now }) => {
      await this.replace(command, now);
    });
  }

  private async replace(command: UpdateResumeCommand, now: Date): Promise<CandidateCard> {
    const card = await requireCard(this.candidates, command.companyId, command.id);
    if (card.replaceResume(command.resume, now)) await this.candidates.update(card);
    return card;
  }
}
