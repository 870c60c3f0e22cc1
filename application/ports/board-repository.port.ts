import type { Board } from '../../domain/board/board.js';
import { portToken } from './port-token.js';

export interface BoardRepository {
  find(companyId: string, vacancyId: string): Promise<Board | null>;
  /**
   * The vacancies of these ids that the company has, each with its board (null when none is stored), in one
   * read: what an application needs of its vacancy. A vacancy the company does not have has no entry.
   */
  findOfVacancies(companyId: string, vacancyIds: readonly string[]): Promise<ReadonlyMap<string, Board | null>>;
  /** Inserts or replaces the board of the vacancy. */
  save(board: Board): Promise<void>;
  delete(companyId: string, vacancyId: string): Promise<void>;
}

export const BOARD_REPOSITORY = portToken<BoardRepository>('BoardRepository');
