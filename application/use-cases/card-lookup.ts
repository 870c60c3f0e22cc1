import { Board } from '../../domain/board/board.js';
import type { CandidateCard } from '../../domain/candidate/candidate-card.js';
import { ConflictError, NotFoundError } from '../../domain/shared/domain-error.js';
import type { BoardRepository } from '../ports/board-repository.port.js';
import type { CandidateRepository } from '../ports/candidate-repository.port.js';
import type { VacancyRepository } from '../ports/vacancy-repository.port.js';

/** A listed (not technical) card of the company, or NotFoundError. */
export async function requireCard(candidates: CandidateRepository, companyId: string, id: string): Promise<CandidateCard> {
  const card = await candidates.findById(companyId, id);
  if (card === null) throw new NotFoundError('candidate', `Candidate ${id} not found.`);
  if (card.technical) throw new ConflictError(`Candidate ${id} is a technical transfer card; act on the original card instead.`);
  return card;
}

export async function boardOf(boards: BoardRepository, companyId: string, vacancyId: string): Promise<Board> {
  return (await boards.find(companyId, vacancyId)) ?? Board.create(companyId, vacancyId);
}

export async function titleOf(vacancies: VacancyRepository, companyId: string, vacancyId: string | null): Promise<string | null> {
  if (vacancyId === null) return null;
  return (await vacancies.findById(companyId, vacancyId))?.title ?? null;
}
