import { renderVacancy } from '../../../presenters/vacancy.presenter.js';
import { toVacancyView } from '../../../../application/views/vacancy-view.js';
import { Vacancy } from '../../../../domain/vacancy/vacancy.js';
import type { VacancyRendering, VacancyRow } from '../tables/vacancy.table.js';
import { readStrings } from './json-documents.js';

/** The vacancy's rendering (ADR 18), as every write stores it and as a list or the check renders a row without one. */
export function vacancyRendering(vacancy: Vacancy): string {
  return renderVacancy(toVacancyView(vacancy));
}

/** The row to write, with the vacancy's rendering (ADR 18): every write of a vacancy goes through here. */
export function toVacancyRow(vacancy: Vacancy): VacancyRow & VacancyRendering {
  return { ...vacancy.toSnapshot(), rendering: vacancyRendering(vacancy) };
}

/** A stored row as a vacancy; its jsonb lists are checked to hold strings. */
export function fromVacancyRow(row: VacancyRow): Vacancy {
  return Vacancy.restore({
    ...row,
    workFormats: readStrings(row.workFormats),
    workSchedule: readStrings(row.workSchedule),
    skills: readStrings(row.skills),
    languages: readStrings(row.languages),
    professionalRoles: readStrings(row.professionalRoles),
  });
}
