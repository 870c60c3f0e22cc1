import type { VacancyView } from '../../application/ports/vacancy-repository.port.js';
import type { VacancySnapshot } from '../../domain/vacancy/vacancy.js';
import { isoTimestamp, isoTimestampOrNull } from './timestamp.js';

/** The API's Vacancy (spec 2.1): every field present, nullable ones as null, in the order of the spec. */
export interface VacancyJson {
  readonly id: string;
  readonly title: string;
  readonly status: string;
  readonly city: string | null;
  readonly officeAddress: string | null;
  readonly experience: string | null;
  readonly workFormat: string | null;
  readonly workFormats: string[];
  readonly salaryFrom: number | null;
  readonly salaryTo: number | null;
  readonly salaryCurrency: string | null;
  readonly salaryGross: boolean | null;
  readonly employmentForm: string | null;
  readonly workSchedule: string[];
  readonly skills: string[];
  readonly languages: string[];
  readonly professionalRoles: string[];
  readonly description: string | null;
  readonly responsibilities: string | null;
  readonly positionsCount: number | null;
  readonly sourceUrl: string | null;
  readonly publishedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What the admin CLI shows: the API's Vacancy plus the lead recruiter, which the API does not publish. */
export interface AdminVacancyJson extends VacancyJson {
  readonly recruiter: string | null;
}

/** Fields are copied one by one, so that nothing the platform keeps privately (company, sourceRef) can leak. */
export function presentVacancy(v: VacancyView): VacancyJson {
  return {
    id: v.id,
    title: v.title,
    status: v.status,
    city: v.city,
    officeAddress: v.officeAddress,
    experience: v.experience,
    workFormat: v.workFormat,
    workFormats: [...v.workFormats],
    salaryFrom: v.salaryFrom,
    salaryTo: v.salaryTo,
    salaryCurrency: v.salaryCurrency,
    salaryGross: v.salaryGross,
    employmentForm: v.employmentForm,
    workSchedule: [...v.workSchedule],
    skills: [...v.skills],
    languages: [...v.languages],
    professionalRoles: [...v.professionalRoles],
    description: v.description,
    responsibilities: v.responsibilities,
    positionsCount: v.positionsCount,
    sourceUrl: v.sourceUrl,
    publishedAt: isoTimestampOrNull(v.publishedAt),
    createdAt: isoTimestamp(v.createdAt),
    updatedAt: isoTimestamp(v.updatedAt),
  };
}

/**
 * The Vacancy as the list sends it, rendered once when the vacancy is written (ADR 18): the read model keeps
 * this text, so the presenter stays the one place where the wire form is decided.
 */
export function renderVacancy(v: VacancyView): string {
  return JSON.stringify(presentVacancy(v));
}

export function presentAdminVacancy(v: VacancySnapshot): AdminVacancyJson {
  return { ...presentVacancy(v), recruiter: v.recruiter };
}
