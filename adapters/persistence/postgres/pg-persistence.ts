import type { PgDatabase } from './pg-database.js';
import type { BoardRepository } from '../../../application/ports/board-repository.port.js';
import type { CandidateRepository } from '../../../application/ports/candidate-repository.port.js';
import type { CompanyRepository } from '../../../application/ports/company-repository.port.js';
import type { ServiceKeyRepository } from '../../../application/ports/service-key-repository.port.js';
import type { UnitOfWork } from '../../../application/ports/unit-of-work.port.js';
import type { VacancyRepository } from '../../../application/ports/vacancy-repository.port.js';
import { PgBoardRepository } from './pg-board-repository.js';
import { PgCandidateRepository } from './pg-candidate-repository.js';
import { PgCompanyRepository } from './pg-company-repository.js';
import { PgServiceKeyRepository } from './pg-service-key-repository.js';
import { PgUnitOfWork, type PgUnitOfWorkOptions } from './pg-unit-of-work.js';
import { PgVacancyRepository } from './pg-vacancy-repository.js';

export interface PgPersistence {
  readonly companies: CompanyRepository;
  readonly keys: ServiceKeyRepository;
  readonly vacancies: VacancyRepository;
  readonly boards: BoardRepository;
  readonly candidates: CandidateRepository;
  readonly unitOfWork: UnitOfWork;
}

/** Every PostgreSQL adapter: the registry's on its own instance, the business ones sharing the unit of work's. */
export function pgPersistence(
  databases: { readonly business: PgDatabase; readonly registry: PgDatabase },
  unitOfWorkOptions: PgUnitOfWorkOptions = {},
): PgPersistence {
  return {
    companies: new PgCompanyRepository(databases.registry),
    keys: new PgServiceKeyRepository(databases.registry),
    vacancies: new PgVacancyRepository(databases.business),
    boards: new PgBoardRepository(databases.business),
    candidates: new PgCandidateRepository(databases.business),
    unitOfWork: new PgUnitOfWork(databases.business, unitOfWorkOptions),
  };
}
