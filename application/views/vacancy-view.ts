import type { Vacancy } from '../../domain/vacancy/vacancy.js';
import type { VacancyView } from '../ports/vacancy-repository.port.js';

export function toVacancyView(vacancy: Vacancy): VacancyView {
  const { companyId: _company, recruiter: _recruiter, sourceRef: _ref, ...view } = vacancy.toSnapshot();
  return view;
}
