import type { MikroORM } from '@mikro-orm/postgresql';
import type { ListedVacancy, VacancyListQuery, VacancyRepository } from '../../../application/ports/vacancy-repository.port.js';
import type { Vacancy } from '../../../domain/vacancy/vacancy.js';
import { executeBoundReusable } from './bound-statement.js';
import { executeInlinedCount } from './direct-statement.js';
import type { RenderedVacancyRow } from './entities/vacancy.entity.js';
import { fromVacancyRow, toVacancyRow } from './row-mapping/vacancy-row-mapping.js';
import { readVacancyRow } from './point-reads.js';
import { jsonb } from './sql-values.js';
import { withEntityManager } from './transaction-scope.js';
import { listedVacancies } from './vacancy-list-query.js';
import { listedVacancyIds } from './id-list-query.js';
import type { ListedId } from '../../../application/ports/candidate-repository.port.js';

/** The columns of a vacancy after its key (company_id, id), each with its parameter (a cast where pg's text needs one). */
const FIELDS: readonly (readonly [column: string, parameter: string, value: (row: RenderedVacancyRow) => unknown])[] = [
  ['title', '?', (r) => r.title],
  ['status', '?', (r) => r.status],
  ['city', '?', (r) => r.city],
  ['office_address', '?', (r) => r.officeAddress],
  ['experience', '?', (r) => r.experience],
  ['work_format', '?', (r) => r.workFormat],
  ['work_formats', '?::jsonb', (r) => jsonb(r.workFormats)],
  ['salary_from', '?::float8', (r) => r.salaryFrom],
  ['salary_to', '?::float8', (r) => r.salaryTo],
  ['salary_currency', '?', (r) => r.salaryCurrency],
  ['salary_gross', '?::boolean', (r) => r.salaryGross],
  ['employment_form', '?', (r) => r.employmentForm],
  ['work_schedule', '?::jsonb', (r) => jsonb(r.workSchedule)],
  ['skills', '?::jsonb', (r) => jsonb(r.skills)],
  ['languages', '?::jsonb', (r) => jsonb(r.languages)],
  ['professional_roles', '?::jsonb', (r) => jsonb(r.professionalRoles)],
  ['description', '?', (r) => r.description],
  ['responsibilities', '?', (r) => r.responsibilities],
  ['positions_count', '?::integer', (r) => r.positionsCount],
  ['source_url', '?', (r) => r.sourceUrl],
  ['published_at', '?::timestamptz', (r) => r.publishedAt],
  ['recruiter', '?', (r) => r.recruiter],
  ['source_ref', '?', (r) => r.sourceRef],
  ['created_at', '?::timestamptz', (r) => r.createdAt],
  ['updated_at', '?::timestamptz', (r) => r.updatedAt],
  ['rendering', '?', (r) => r.rendering],
];

const INSERT_SQL = `insert into vacancies (company_id, id, ${FIELDS.map(([column]) => column).join(', ')})
  values (?, ?, ${FIELDS.map(([, parameter]) => parameter).join(', ')})`;
const UPDATE_SQL = `update vacancies set ${FIELDS.map(([column, parameter]) => `${column} = ${parameter}`).join(', ')}
  where company_id = ? and id = ?`;

const fieldValues = (row: RenderedVacancyRow) => FIELDS.map(([, , value]) => value(row));

/** Writes send their values bound (bound-statement.ts): a vacancy's description and rendering are long texts. */
export class MikroOrmVacancyRepository implements VacancyRepository {
  constructor(private readonly orm: MikroORM) {}

  findById(companyId: string, id: string): Promise<Vacancy | null> {
    return this.findOne(companyId, 'id', id);
  }

  findBySourceRef(companyId: string, sourceRef: string): Promise<Vacancy | null> {
    return this.findOne(companyId, 'source_ref', sourceRef);
  }

  async insert(vacancy: Vacancy): Promise<void> {
    const row = toVacancyRow(vacancy);
    await withEntityManager(this.orm, (em) => executeBoundReusable(em, INSERT_SQL, [row.companyId, row.id, ...fieldValues(row)]));
  }

  async update(vacancy: Vacancy): Promise<void> {
    const row = toVacancyRow(vacancy);
    await withEntityManager(this.orm, (em) => executeBoundReusable(em, UPDATE_SQL, [...fieldValues(row), row.companyId, row.id]));
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    // The text em.nativeDelete sent, which the feed ceiling sends too; an entity operation would run outside the unit of work (ADR 20).
    return (await withEntityManager(this.orm, (em) => executeInlinedCount(em, 'delete from "vacancies" where "company_id" = ? and "id" = ?', [companyId, id]))) > 0;
  }

  list(query: VacancyListQuery): Promise<ListedVacancy[]> {
    return withEntityManager(this.orm, (em) => listedVacancies(em, query));
  }

  listIds(query: Omit<VacancyListQuery, 'maxBytes'>): Promise<ListedId[]> {
    return withEntityManager(this.orm, (em) => listedVacancyIds(em, query));
  }

  private async findOne(companyId: string, key: 'id' | 'source_ref', value: string): Promise<Vacancy | null> {
    const row = await withEntityManager(this.orm, (em) => readVacancyRow(em, companyId, key, value));
    return row === null ? null : fromVacancyRow(row);
  }
}
