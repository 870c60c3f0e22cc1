export const VACANCY_STATUSES = ['open', 'paused', 'closed', 'archived', 'draft'] as const;
export type VacancyStatus = (typeof VACANCY_STATUSES)[number];

/** The list filter: one status, or every status. */
export const VACANCY_STATUS_FILTERS = [...VACANCY_STATUSES, 'all'] as const;
export type VacancyStatusFilter = (typeof VACANCY_STATUS_FILTERS)[number];
export const DEFAULT_VACANCY_STATUS_FILTER: VacancyStatusFilter = 'open';

export function isVacancyStatus(value: unknown): value is VacancyStatus {
  return typeof value === 'string' && (VACANCY_STATUSES as readonly string[]).includes(value);
}
