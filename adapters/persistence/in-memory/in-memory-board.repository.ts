import type { BoardRepository } from '../../../application/ports/board-repository.port.js';
import { Board } from '../../../domain/board/board.js';
import { rowKey, type InMemoryDatabase } from './in-memory-database.js';

export class InMemoryBoardRepository implements BoardRepository {
  constructor(private readonly db: InMemoryDatabase) {}

  async find(companyId: string, vacancyId: string): Promise<Board | null> {
    const row = this.db.boards.get(rowKey(companyId, vacancyId));
    return row === undefined ? null : Board.restore(row);
  }

  async findOfVacancies(companyId: string, vacancyIds: readonly string[]): Promise<ReadonlyMap<string, Board | null>> {
    const found = new Map<string, Board | null>();
    for (const vacancyId of vacancyIds) {
      if (!this.db.vacancies.has(rowKey(companyId, vacancyId))) continue;
      const row = this.db.boards.get(rowKey(companyId, vacancyId));
      found.set(vacancyId, row === undefined ? null : Board.restore(row));
    }
    return found;
  }

  async save(board: Board): Promise<void> {
    const snapshot = board.toSnapshot();
    this.db.boards.set(rowKey(snapshot.companyId, snapshot.vacancyId), snapshot);
  }

  async delete(companyId: string, vacancyId: string): Promise<void> {
    this.db.boards.delete(rowKey(companyId, vacancyId));
  }
}
