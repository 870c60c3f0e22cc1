import type { BoardRepository } from '../../ports/board-repository.port.js';
import type { CandidateRepository } from '../../ports/candidate-repository.port.js';
import type { VacancyRepository } from '../../ports/vacancy-repository.port.js';
import type { DeleteCandidate } from '../delete-candidate.use-case.js';
import type { MoveCandidate } from '../move-candidate.use-case.js';
import type { SetBoardColumns } from '../set-board-columns.use-case.js';
import type { SubmitApplication } from '../submit-application.use-case.js';
import type { TransferCandidate } from '../transfer-candidate.use-case.js';
import type { UpdateResume } from '../update-resume.use-case.js';
import type { UpsertVacancies } from '../upsert-vacancies.use-case.js';

/** The use cases a fed change is carried out by: the same ones the admin CLI and the API call. */
export interface PlatformChangeHandlers {
  readonly upsertVacancies: UpsertVacancies;
  readonly setBoardColumns: SetBoardColumns;
  readonly moveCandidate: MoveCandidate;
  readonly transferCandidate: TransferCandidate;
  readonly updateResume: UpdateResume;
  readonly deleteCandidate: DeleteCandidate;
  readonly submitApplication: SubmitApplication;
}

/** What the handlers of the feed's event types work with: the stores, and the use cases. */
export interface FeedDependencies {
  readonly vacancies: VacancyRepository;
  readonly boards: BoardRepository;
  readonly candidates: CandidateRepository;
  readonly useCases: PlatformChangeHandlers;
}

/** Takes the card's technical card off the vacancy, if it has one there (a transfer undone by the vacancy's deletion). */
export async function removeTechnicalCard(candidates: CandidateRepository, companyId: string, cardId: string, vacancyId: string): Promise<boolean> {
  const technical = (await candidates.cardsOnVacancy(companyId, vacancyId)).filter((card) => card.originCardId === cardId);
  for (const card of technical) await candidates.delete(companyId, card.id);
  return technical.length > 0;
}
