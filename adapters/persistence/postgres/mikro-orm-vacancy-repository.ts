import type { MikroORM } from '@mikro-orm/postgresql';
import type { ListedVacancy, VacancyListQuery, VacancyRepository } from '../../../application/ports/vacancy-repository.port.js';
import type { Vacancy } from '../../../domain/vacancy/vacancy.js';
import { VacancyRowSchema } from './entities/vacancy.entity.js';
import { fromVacancyRow, toVacancyRow } from './row-mapping/vacancy-row-mapping.js';
import { readVacancyRow } from './point-reads.js';
import { withEntityManager } from './transaction-scope.js';
import { listedVacancies } from './vacancy-list-query.js';

export class MikroOrmVacancyRepository implements VacancyRepository {
  constructor(private readonly orm: MikroORM) {}

  findById(companyId: string, id: string): Promise<Vacancy | null> {
    return this.findOne(companyId, 'id', id);
  }

  findBySourceRef(companyId: string, sourceRef: string): Promise<Vacancy | null> {
    return this.findOne(companyId, 'source_ref', sourceRef);
  }

  async insert(vacancy: Vacancy): Promise<void> {
    await withEntityManager(this.orm, (em) => em.insert(VacancyRowSchema, toVacancyRow(vacancy)));
  }

  async update(vacancy: Vacancy): Promise<void> {
    const { companyId, id, ...fields } = toVacancyRow(vacancy);
    await withEntityManager(this.orm, (em) => em.nativeUpdate(VacancyRowSchema, { companyId, id }, fields));
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    return (await withEntityManager(this.orm, (em) => em.nativeDelete(VacancyRowSchema, { companyId, id }))) > 0;
  }

  list(query: VacancyListQuery): Promise<ListedVacancy[]> {
    return withEntityManager(this.orm, (em) => listedVacancies(em, query));
  }

  private async findOne(companyId: string, key: 'id' | 'source_ref', value: string): Promise<Vacancy | null> {
    const row = await withEntityManager(this.orm, (em) => readVacancyRow(em, companyId, key, value));
    return row === null ? null : fromVacancyRow(row);
  }
}
