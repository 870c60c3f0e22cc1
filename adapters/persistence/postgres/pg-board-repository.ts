import type { PgDatabase } from './pg-database.js';
import type { BoardRepository } from '../../../application/ports/board-repository.port.js';
import { Board } from '../../../domain/board/board.js';
import { readStrings } from './row-mapping/json-documents.js';
import { readBoardColumns, readVacancyBoards } from './point-reads.js';
import { jsonb } from './sql-values.js';
import { withSession } from './transaction-scope.js';
import { executeReusable } from './pg-statements.js';

export class PgBoardRepository implements BoardRepository {
  constructor(private readonly db: PgDatabase) {}

  async find(companyId: string, vacancyId: string): Promise<Board | null> {
    const row = await withSession(this.db, (session) => readBoardColumns(session, companyId, vacancyId));
    return row === null ? null : Board.restore({ companyId, vacancyId, columns: readStrings(row.columns) });
  }

  async findOfVacancies(companyId: string, vacancyIds: readonly string[]): Promise<ReadonlyMap<string, Board | null>> {
    const rows = await withSession(this.db, (session) => readVacancyBoards(session, companyId, vacancyIds));
    return new Map(
      rows.map(({ vacancyId, columns }) => [vacancyId, columns === null ? null : Board.restore({ companyId, vacancyId, columns: readStrings(columns) })]),
    );
  }

  async save(board: Board): Promise<void> {
    const s = board.toSnapshot();
    await withSession(this.db, (session) =>
      executeReusable(
        session,
        `insert into boards (company_id, vacancy_id, columns) values (?, ?, ?::jsonb)
         on conflict (company_id, vacancy_id) do update set columns = excluded.columns`,
        [s.companyId, s.vacancyId, jsonb(s.columns)],
      ),
    );
  }

  async delete(companyId: string, vacancyId: string): Promise<void> {
    // The text em.nativeDelete sent, which the feed ceiling sends too; an entity operation would run outside the unit of work (ADR 20).
    await withSession(this.db, (session) => executeReusable(session, 'delete from "boards" where "company_id" = ? and "vacancy_id" = ?', [companyId, vacancyId]));
  }
}
