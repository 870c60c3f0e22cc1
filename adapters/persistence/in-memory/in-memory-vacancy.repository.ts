import type { ListedVacancy, VacancyListQuery, VacancyRepository } from '../../../application/ports/vacancy-repository.port.js';
import type { ListedId } from '../../../application/ports/candidate-repository.port.js';
import { idItemBytes } from '../../presenters/id-item.presenter.js';
import { toVacancyView } from '../../../application/views/vacancy-view.js';
import { renderVacancy } from '../../presenters/vacancy.presenter.js';
import { comparePositions } from '../../../domain/paging/cursor.js';
import { Vacancy, type VacancySnapshot } from '../../../domain/vacancy/vacancy.js';
import { rowKey, type InMemoryDatabase } from './in-memory-database.js';
import { withinPageBytes } from './within-page-bytes.js';

export class InMemoryVacancyRepository implements VacancyRepository {
  constructor(private readonly db: InMemoryDatabase) {}

  async findById(companyId: string, id: string): Promise<Vacancy | null> {
    const row = this.db.vacancies.get(rowKey(companyId, id));
    return row === undefined ? null : Vacancy.restore(row);
  }

  async findBySourceRef(companyId: string, sourceRef: string): Promise<Vacancy | null> {
    const row = this.findRowBySourceRef(companyId, sourceRef);
    return row === undefined ? null : Vacancy.restore(row);
  }

  private findRowBySourceRef(companyId: string, sourceRef: string): VacancySnapshot | undefined {
    for (const row of this.db.vacancies.values()) {
      if (row.companyId === companyId && row.sourceRef === sourceRef) return row;
    }
    return undefined;
  }

  async insert(vacancy: Vacancy): Promise<void> {
    const snapshot = vacancy.toSnapshot();
    const key = rowKey(snapshot.companyId, snapshot.id);
    if (this.db.vacancies.has(key)) throw new Error(`duplicate key: vacancy ${snapshot.id}`);
    if (snapshot.sourceRef !== null && this.findRowBySourceRef(snapshot.companyId, snapshot.sourceRef) !== undefined) {
      throw new Error(`duplicate key: vacancy source ${snapshot.sourceRef}`);
    }
    this.db.vacancies.set(key, snapshot);
  }

  async update(vacancy: Vacancy): Promise<void> {
    const key = rowKey(vacancy.companyId, vacancy.id);
    if (this.db.vacancies.has(key)) this.db.vacancies.set(key, vacancy.toSnapshot());
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    return this.db.vacancies.delete(rowKey(companyId, id));
  }

  /** Renders each vacancy of the page when it is read, with the presenter PostgreSQL renders it with when written (ADR 18). */
  async list(query: VacancyListQuery): Promise<ListedVacancy[]> {
    const page = this.listedRows(query).map((row) => {
      const vacancy = Vacancy.restore(row);
      const rendering = renderVacancy(toVacancyView(vacancy));
      return { id: vacancy.id, updatedAt: vacancy.updatedAt, rendering, bytes: Buffer.byteLength(rendering, 'utf8') };
    });
    return withinPageBytes(page, query.maxBytes);
  }

  async listIds(query: Omit<VacancyListQuery, 'maxBytes'>): Promise<ListedId[]> {
    return this.listedRows(query).map(({ id, updatedAt }) => ({ id, updatedAt, bytes: idItemBytes(id, updatedAt) }));
  }

  /** The first `limit` vacancies of the query, in the list order. */
  private listedRows(query: Omit<VacancyListQuery, 'maxBytes'>): VacancySnapshot[] {
    const { companyId, since, status, after, limit } = query;
    const rows: VacancySnapshot[] = [];
    for (const row of this.db.vacancies.values()) {
      if (row.companyId !== companyId) continue;
      if (status !== 'all' && row.status !== status) continue;
      if (since !== null && row.updatedAt.getTime() <= since.getTime()) continue;
      if (after !== null && comparePositions({ modifiedAt: row.updatedAt, id: row.id }, after) <= 0) continue;
      rows.push(row);
    }
    return rows.sort((a, b) => comparePositions({ modifiedAt: a.updatedAt, id: a.id }, { modifiedAt: b.updatedAt, id: b.id })).slice(0, limit);
  }
}
