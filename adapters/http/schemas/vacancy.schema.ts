import { VACANCY_STATUSES } from '../../../domain/vacancy/vacancy-status.js';
import { WORK_FORMATS } from '../../../domain/vacancy/work-format.js';
import { closedObject, nullableNum, nullableStr, nullableTimestamp, str, strList, timestamp } from './schema-helpers.js';

/** A vacancy as GET /vacancies returns it (spec 2.1). */
export const vacancySchema = closedObject({
  id: { ...str(), minLength: 1, description: 'Also the vacancyId of an application.' },
  title: { ...str(), minLength: 1 },
  status: { type: 'string', enum: [...VACANCY_STATUSES], description: 'archived vacancies are still delivered, with this status.' },
  city: { ...nullableStr(), description: 'A region name of the source; may be a province rather than a city.' },
  officeAddress: nullableStr(),
  experience: { ...nullableStr(), description: 'Free text in the wording of the source.' },
  workFormat: { type: ['string', 'null'], enum: [...WORK_FORMATS, null], description: 'Normalised; remote plus on-site is hybrid.' },
  workFormats: { ...strList(), description: 'The names the source gave, not normalised.' },
  salaryFrom: { ...nullableNum(), description: 'Equals salaryTo when the source gave only an upper bound.' },
  salaryTo: nullableNum(),
  salaryCurrency: nullableStr(),
  salaryGross: { type: ['boolean', 'null'] },
  employmentForm: nullableStr(),
  workSchedule: strList(),
  skills: strList(),
  languages: strList(),
  professionalRoles: strList(),
  description: { ...nullableStr(), description: 'HTML, passed through as received.' },
  responsibilities: { ...nullableStr(), description: 'The description without markup.' },
  positionsCount: nullableNum(),
  sourceUrl: nullableStr(),
  publishedAt: nullableTimestamp(),
  createdAt: timestamp(),
  updatedAt: { ...timestamp(), description: 'Last modification; what since compares with and the list is ordered by.' },
});
