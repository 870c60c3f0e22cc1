import type { VacancySnapshot } from '../../../../domain/vacancy/vacancy.js';
import { Table } from '../table.js';

/**
 * A row of `vacancies` is a vacancy's snapshot, column for column: a field added to the vacancy is a type error here
 * until it has its column. String lists are jsonb: exact round trip of any string, unlike text[] literals.
 */
export type VacancyRow = VacancySnapshot;

/**
 * What a write stores beside the row: the presenters' JSON of the vacancy that the list sends (ADR 18). This service
 * always writes one; the column is nullable for the rows of the previous version (ADR 18).
 */
export interface VacancyRendering {
  rendering: string;
}

/** The columns of `vacancies` (Migration20251122000000BusinessTables and later), listed once. */
export const VACANCIES = new Table<VacancyRow, VacancyRendering>(
  'vacancies',
  {
    companyId: ['company_id', 'text'],
    id: ['id', 'text'],
    title: ['title', 'text'],
    status: ['status', 'text'],
    city: ['city', 'text'],
    officeAddress: ['office_address', 'text'],
    experience: ['experience', 'text'],
    workFormat: ['work_format', 'text'],
    workFormats: ['work_formats', 'jsonb'],
    salaryFrom: ['salary_from', 'float8'],
    salaryTo: ['salary_to', 'float8'],
    salaryCurrency: ['salary_currency', 'text'],
    salaryGross: ['salary_gross', 'boolean'],
    employmentForm: ['employment_form', 'text'],
    workSchedule: ['work_schedule', 'jsonb'],
    skills: ['skills', 'jsonb'],
    languages: ['languages', 'jsonb'],
    professionalRoles: ['professional_roles', 'jsonb'],
    description: ['description', 'text'],
    responsibilities: ['responsibilities', 'text'],
    positionsCount: ['positions_count', 'integer'],
    sourceUrl: ['source_url', 'text'],
    publishedAt: ['published_at', 'timestamptz'],
    recruiter: ['recruiter', 'text'],
    sourceRef: ['source_ref', 'text'],
    createdAt: ['created_at', 'timestamptz'],
    updatedAt: ['updated_at', 'timestamptz'],
  },
  ['companyId', 'id'],
  { rendering: ['rendering', 'text'] },
);
