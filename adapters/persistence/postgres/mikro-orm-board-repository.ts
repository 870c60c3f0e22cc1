import type { MikroORM } from '@mikro-orm/postgresql';
import type { BoardRepository } from '../../../application/ports/board-repository.port.js';
import { Board } from '../../../domain/board/board.js';
import { readStrings } from './row-mapping/json-documents.js';
import { readBoardColumns, readVacancyBoards } from './point-reads.js';
import { jsonb } from './sql-values.js';
import { withEntityManager } from './transaction-scope.js';
import { executeReusable } from './direct-statement.js';

export class MikroOrmBoardRepository implements BoardRepository {
  constructor(private readonly orm: MikroORM) {}

  async find(companyId: string, vacancyId: string): Promise<Board | null> {
    const row = await withEntityManager(this.orm, (em) => readBoardColumns(em, companyId, vacancyId));
    return row === null ? null : Board.restore({ companyId, vacancyId, columns: readStrings(row.columns) });
  }

  async findOfVacancies(companyId: string, vacancyIds: readonly string[]): Promise<ReadonlyMap<string, Board | null>> {
    const rows = await withEntityManager(this.orm, (em) => readVacancyBoards(em, companyId, vacancyIds));
    return new Map(
      rows.map(({ vacancyId, columns }) => [vacancyId, columns === null ? null : Board.restore({ companyId, vacancyId, columns: readStrings(columns) })]),
    );
  }

  async save(board: Board): Promise<void> {
    const s = board.toSnapshot();
    await withEntityManager(this.orm, (em) =>
      executeReusable(
        em,
        `insert into boards (company_id, vacancy_id, columns) values (?, ?, ?::jsonb)
         on conflict (company_id, vacancy_id) do update set columns = excluded.columns`,
        [s.companyId, s.vacancyId, jsonb(s.columns)],
      ),
    );
  }

  async delete(companyId: string, vacancyId: string): Promise<void> {
    // The text em.nativeDelete sent, which the feed ceiling sends too; an entity operation would run outside the unit of work (ADR 20).
    await withEntityManager(this.orm, (em) => executeReusable(em, 'delete from "boards" where "company_id" = ? and "vacancy_id" = ?', [companyId, vacancyId]));
  }
}
