import type { VacancyUpsert } from '../../application/use-cases/upsert-vacancies.use-case.js';
import { ValidationError, type ProblemCollector } from '../../domain/shared/domain-error.js';
import { Vacancy } from '../../domain/vacancy/vacancy.js';
import { VACANCY_STATUSES, isVacancyStatus } from '../../domain/vacancy/vacancy-status.js';
import { WORK_FORMATS, isWorkFormat, type WorkFormat } from '../../domain/vacancy/work-format.js';
import type { JsonFields } from './json-fields.js';
import { readRecordFile } from './record-batch.js';

/**
 * The records of a `vacancy upsert` file: the API's Vacancy fields (id optional, createdAt and updatedAt
 * ignored) plus an optional recruiter. Every record is checked before the use case sees any.
 */
export function readVacancyFile(json: unknown): VacancyUpsert[] {
  return readRecordFile(json, { read: readVacancy, rules: vacancyRules }, 'The file is invalid; nothing was stored.');
}

/** The domain's rules of a vacancy, as creating one checks them; nothing is stored. */
function vacancyRules(upsert: VacancyUpsert, problems: ProblemCollector): void {
  const { id: _id, ...input } = upsert;
  try {
    Vacancy.create({ id: 'unsaved', companyId: 'unsaved', input, now: new Date() });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    for (const p of error.problems) problems.add(p.pointer, p.message);
  }
}

function readVacancy(v: JsonFields): VacancyUpsert {
  const id = v.string('id');
  const title = v.requiredString('title');
  const status = v.requiredString('status');
  if (status !== '' && !isVacancyStatus(status)) v.problem('status', `must be one of ${VACANCY_STATUSES.join(', ')}`);
  return {
    ...(id === null ? {} : { id }),
    title,
    status: isVacancyStatus(status) ? status : 'draft',
    city: v.string('city'),
    officeAddress: v.string('officeAddress'),
    experience: v.string('experience'),
    // Absent: derived from workFormats (DESIGN 3, workFormat). Given, even as null: taken as it is.
    ...(v.has('workFormat') ? { workFormat: workFormatOf(v) } : {}),
    workFormats: v.strings('workFormats'),
    salaryFrom: v.number('salaryFrom'),
    salaryTo: v.number('salaryTo'),
    salaryCurrency: v.string('salaryCurrency'),
    salaryGross: v.boolean('salaryGross'),
    employmentForm: v.string('employmentForm'),
    workSchedule: v.strings('workSchedule'),
    skills: v.strings('skills'),
    languages: v.strings('languages'),
    professionalRoles: v.strings('professionalRoles'),
    description: v.string('description'),
    // Absent: the description's text. Given, even as null: taken as it is.
    ...(v.has('responsibilities') ? { responsibilities: v.string('responsibilities') } : {}),
    positionsCount: v.integer('positionsCount'),
    sourceUrl: v.string('sourceUrl'),
    publishedAt: v.dateTime('publishedAt'),
    recruiter: v.string('recruiter'),
    sourceRef: null,
  };
}

function workFormatOf(v: JsonFields): WorkFormat | null {
  const format = v.string('workFormat');
  if (format === null || isWorkFormat(format)) return format;
  v.problem('workFormat', `must be one of ${WORK_FORMATS.join(', ')}, or null`);
  return null;
}
