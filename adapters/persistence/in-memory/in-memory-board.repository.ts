import type { BoardRepository } from '../../../application/ports/board-repository.port.js';
import { Board } from '../../../domain/board/board.js';
import { rowKey, type InMemoryDatabase } from './in-memory-database.js';

export class InMemoryBoardRepository implements BoardRepository {
  constructor(private readonly db: InMemoryDatabase) {}

  async find(companyId: string, vacancyId: string): Promise<Board | null> {
    const row = this.db.boards.get(rowKey(companyId, vacancyId));
    return row === undefined ? null : Board.restore(row);
  }

  async save(board: Board): Promise<void> {
    const snapshot = board.toSnapshot();
    this.db.boards.set(rowKey(snapshot.companyId, snapshot.vacancyId), snapshot);
  }

  async delete(companyId: string, vacancyId: string): Promise<void> {
    this.db.boards.delete(rowKey(companyId, vacancyId));
  }
}
