import type { ListedId } from './candidate-repository.port.js';
import type { PagePosition } from '../../domain/paging/cursor.js';
import type { Vacancy, VacancySnapshot } from '../../domain/vacancy/vacancy.js';
import type { VacancyStatusFilter } from '../../domain/vacancy/vacancy-status.js';
import { portToken } from './port-token.js';

/** The public fields of a vacancy, a projection rather than an aggregate: what the presenters render. */
export type VacancyView = Omit<VacancySnapshot, 'companyId' | 'recruiter' | 'sourceRef'>;

/**
 * A listed vacancy as the read model keeps it (ADR 18): its place in the order and its API JSON as the
 * presenters rendered it when the vacancy was last written.
 */
export interface ListedVacancy {
  readonly id: string;
  readonly updatedAt: Date;
  /** Opaque to the application. */
  readonly rendering: string;
  /** The UTF-8 bytes of the vacancy's JSON as an item of a page: the rendering's. */
  readonly bytes: number;
}

export interface VacancyListQuery {
  readonly companyId: string;
  /** Only vacancies modified strictly later than this. */
  readonly since: Date | null;
  readonly status: VacancyStatusFilter;
  /** Only vacancies strictly after this position in the order (updatedAt, id). */
  readonly after: PagePosition | null;
  readonly limit: number;
  /** As CandidateListQuery's: a last vacancy past it comes without its rendering, its bytes PAST_BUDGET_BYTES. */
  readonly maxBytes?: number;
}

export interface VacancyRepository {
  findById(companyId: string, id: string): Promise<Vacancy | null>;
  findBySourceRef(companyId: string, sourceRef: string): Promise<Vacancy | null>;
  insert(vacancy: Vacancy): Promise<void>;
  update(vacancy: Vacancy): Promise<void>;
  delete(companyId: string, id: string): Promise<boolean>;
  /** Up to `limit` vacancies in the order (updatedAt, id) ascending, ended early by `maxBytes`. */
  list(query: VacancyListQuery): Promise<ListedVacancy[]>;
  /** The same order and filters as list, up to `limit` vacancies, of each only its id and place. */
  listIds(query: Omit<VacancyListQuery, 'maxBytes'>): Promise<ListedId[]>;
}

export const VACANCY_REPOSITORY = portToken<VacancyRepository>('VacancyRepository');
