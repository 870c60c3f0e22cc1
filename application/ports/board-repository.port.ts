import type { Board } from '../../domain/board/board.js';
import { portToken } from './port-token.js';

export interface BoardRepository {
  find(companyId: string, vacancyId: string): Promise<Board | null>;
  /** Inserts or replaces the board of the vacancy. */
  save(board: Board): Promise<void>;
  delete(companyId: string, vacancyId: string): Promise<void>;
}

export const BOARD_REPOSITORY = portToken<BoardRepository>('BoardRepository');
