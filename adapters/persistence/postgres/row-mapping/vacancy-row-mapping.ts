import { renderVacancy } from '../../../presenters/vacancy.presenter.js';
import { toVacancyView } from '../../../../application/views/vacancy-view.js';
import { Vacancy } from '../../../../domain/vacancy/vacancy.js';
import type { VacancyStatus } from '../../../../domain/vacancy/vacancy-status.js';
import type { WorkFormat } from '../../../../domain/vacancy/work-format.js';
import type { RenderedVacancyRow, VacancyRow } from '../entities/vacancy.entity.js';
import { readStrings } from './json-documents.js';

/** The vacancy's rendering (ADR 18), as every write stores it and as a list or the check renders a row without one. */
export function vacancyRendering(vacancy: Vacancy): string {
  return renderVacancy(toVacancyView(vacancy));
}

/** The row to write, with the vacancy's rendering (ADR 18): every write of a vacancy goes through here. */
export function toVacancyRow(vacancy: Vacancy): RenderedVacancyRow {
  const s = vacancy.toSnapshot();
  return {
    companyId: s.companyId,
    id: s.id,
    title: s.title,
    status: s.status,
    city: s.city,
    officeAddress: s.officeAddress,
    experience: s.experience,
    workFormat: s.workFormat,
    workFormats: [...s.workFormats],
    salaryFrom: s.salaryFrom,
    salaryTo: s.salaryTo,
    salaryCurrency: s.salaryCurrency,
    salaryGross: s.salaryGross,
    employmentForm: s.employmentForm,
    workSchedule: [...s.workSchedule],
    skills: [...s.skills],
    languages: [...s.languages],
    professionalRoles: [...s.professionalRoles],
    description: s.description,
    responsibilities: s.responsibilities,
    positionsCount: s.positionsCount,
    sourceUrl: s.sourceUrl,
    publishedAt: s.publishedAt,
    recruiter: s.recruiter,
    sourceRef: s.sourceRef,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    rendering: vacancyRendering(vacancy),
  };
}

export function fromVacancyRow(row: VacancyRow): Vacancy {
  return Vacancy.restore({
    id: row.id,
    companyId: row.companyId,
    title: row.title,
    status: row.status as VacancyStatus,
    city: row.city,
    officeAddress: row.officeAddress,
    experience: row.experience,
    workFormat: row.workFormat as WorkFormat | null,
    workFormats: readStrings(row.workFormats),
    salaryFrom: row.salaryFrom,
    salaryTo: row.salaryTo,
    salaryCurrency: row.salaryCurrency,
    salaryGross: row.salaryGross,
    employmentForm: row.employmentForm,
    workSchedule: readStrings(row.workSchedule),
    skills: readStrings(row.skills),
    languages: readStrings(row.languages),
    professionalRoles: readStrings(row.professionalRoles),
    description: row.description,
    responsibilities: row.responsibilities,
    positionsCount: row.positionsCount,
    sourceUrl: row.sourceUrl,
    publishedAt: row.publishedAt,
    recruiter: row.recruiter,
    sourceRef: row.sourceRef,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  });
}
