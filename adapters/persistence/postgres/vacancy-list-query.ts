import type { EntityManager } from '@mikro-orm/postgresql';
import type { VacancyListQuery, VacancyView } from '../../../application/ports/vacancy-repository.port.js';
import type { VacancyStatus } from '../../../domain/vacancy/vacancy-status.js';
import type { WorkFormat } from '../../../domain/vacancy/work-format.js';
import { readStrings } from './row-mapping/json-documents.js';
import { TIMESTAMP_PARAM, dateFromMs, epochMs, nullableDateFromMs, timestampParams } from './sql-values.js';

interface VacancyListRow {
  id: string;
  title: string;
  status: string;
  city: string | null;
  office_address: string | null;
  experience: string | null;
  work_format: string | null;
  work_formats: unknown;
  salary_from: number | null;
  salary_to: number | null;
  salary_currency: string | null;
  salary_gross: boolean | null;
  employment_form: string | null;
  work_schedule: unknown;
  skills: unknown;
  languages: unknown;
  professional_roles: unknown;
  description: string | null;
  responsibilities: string | null;
  positions_count: number | null;
  source_url: string | null;
  published_at_ms: number | null;
  created_at_ms: number;
  updated_at_ms: number;
}

const COLUMNS = `id, title, status, city, office_address, experience, work_format, work_formats, salary_from, salary_to,
  salary_currency, salary_gross, employment_form, work_schedule, skills, languages, professional_roles, description,
  responsibilities, positions_count, source_url, ${epochMs('published_at')} as published_at_ms,
  ${epochMs('created_at')} as created_at_ms, ${epochMs('updated_at')} as updated_at_ms`;

/**
 * One page of the keyset scan in the order (updated_at, id), as plain views: no entity is hydrated
 * into the identity map. Served by the indexes (company_id, [status,] updated_at, id); ids use the
 * "C" collation, so they compare by code unit as the in-memory adapter compares JS strings.
 */
export async function listVacancyViews(em: EntityManager, query: VacancyListQuery): Promise<VacancyView[]> {
  const where = ['company_id = ?'];
  const params: unknown[] = [query.companyId];
  if (query.status !== 'all') {
    where.push('status = ?');
    params.push(query.status);
  }
  if (query.since !== null) {
    where.push(`updated_at > ${TIMESTAMP_PARAM}`);
    params.push(...timestampParams(query.since));
  }
  if (query.after !== null) {
    where.push(`(updated_at, id) > (${TIMESTAMP_PARAM}, ?)`);
    params.push(...timestampParams(query.after.modifiedAt), query.after.id);
  }
  params.push(query.limit);
  const rows = await em.execute<VacancyListRow[]>(
    `select ${COLUMNS} from vacancies where ${where.join(' and ')} order by updated_at, id limit ?`,
    params,
  );
  return rows.map(toView);
}

function toView(r: VacancyListRow): VacancyView {
  return {
    id: r.id,
    title: r.title,
    status: r.status as VacancyStatus,
    city: r.city,
    officeAddress: r.office_address,
    experience: r.experience,
    workFormat: r.work_format as WorkFormat | null,
    workFormats: readStrings(r.work_formats),
    salaryFrom: r.salary_from,
    salaryTo: r.salary_to,
    salaryCurrency: r.salary_currency,
    salaryGross: r.salary_gross,
    employmentForm: r.employment_form,
    workSchedule: readStrings(r.work_schedule),
    skills: readStrings(r.skills),
    languages: readStrings(r.languages),
    professionalRoles: readStrings(r.professional_roles),
    description: r.description,
    responsibilities: r.responsibilities,
    positionsCount: r.positions_count,
    sourceUrl: r.source_url,
    publishedAt: nullableDateFromMs(r.published_at_ms),
    createdAt: dateFromMs(r.created_at_ms),
    updatedAt: dateFromMs(r.updated_at_ms),
  };
}
