import type { PgDatabase } from './pg-database.js';
import type { ListedVacancy, VacancyListQuery, VacancyRepository } from '../../../application/ports/vacancy-repository.port.js';
import type { Vacancy } from '../../../domain/vacancy/vacancy.js';
import { executeBoundReusable, executeInlinedCount } from './pg-statements.js';
import { VACANCIES } from './tables/vacancy.table.js';
import { fromVacancyRow, toVacancyRow } from './row-mapping/vacancy-row-mapping.js';
import { readVacancyRow } from './point-reads.js';
import { withSession } from './transaction-scope.js';
import { listedVacancies } from './vacancy-list-query.js';
import { readListPage } from './replicas/list-page-reads.js';
import type { ReplicaRouter } from './replicas/replica-router.js';
import { listedVacancyIds } from './id-list-query.js';
import type { ListedId } from '../../../application/ports/candidate-repository.port.js';

/** Writes send their values bound (executeBoundReusable): a vacancy's description and rendering are long texts. */
export class PgVacancyRepository implements VacancyRepository {
  /** `replicas`: where list pages may be read instead of the primary (DATABASE_REPLICA_URLS, ADR 26). */
  constructor(
    private readonly db: PgDatabase,
    private readonly replicas?: ReplicaRouter,
  ) {}

  findById(companyId: string, id: string): Promise<Vacancy | null> {
    return this.findOne(companyId, 'id', id);
  }

  findBySourceRef(companyId: string, sourceRef: string): Promise<Vacancy | null> {
    return this.findOne(companyId, 'source_ref', sourceRef);
  }

  async insert(vacancy: Vacancy): Promise<void> {
    const row = toVacancyRow(vacancy);
    await withSession(this.db, (session) => executeBoundReusable(session, VACANCIES.insertSql, VACANCIES.values(row)));
  }

  async update(vacancy: Vacancy): Promise<void> {
    const row = toVacancyRow(vacancy);
    await withSession(this.db, (session) => executeBoundReusable(session, VACANCIES.updateSql, VACANCIES.updateValues(row)));
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    return (await withSession(this.db, (session) => executeInlinedCount(session, 'delete from "vacancies" where "company_id" = ? and "id" = ?', [companyId, id]))) > 0;
  }

  list(query: VacancyListQuery): Promise<ListedVacancy[]> {
    return readListPage(this.db, this.replicas, (statements) => listedVacancies(statements, query));
  }

  /** An identifier-only page (`fields=id`), read where a page is (readListPage). */
  listIds(query: Omit<VacancyListQuery, 'maxBytes'>): Promise<ListedId[]> {
    return readListPage(this.db, this.replicas, (statements) => listedVacancyIds(statements, query));
  }

  private async findOne(companyId: string, key: 'id' | 'source_ref', value: string): Promise<Vacancy | null> {
    const row = await withSession(this.db, (session) => readVacancyRow(session, companyId, key, value));
    return row === null ? null : fromVacancyRow(row);
  }
}
