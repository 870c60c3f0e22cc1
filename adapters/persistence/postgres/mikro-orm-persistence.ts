import type { MikroORM } from '@mikro-orm/postgresql';
import type { BoardRepository } from '../../../application/ports/board-repository.port.js';
import type { CandidateRepository } from '../../../application/ports/candidate-repository.port.js';
import type { CompanyRepository } from '../../../application/ports/company-repository.port.js';
import type { ServiceKeyRepository } from '../../../application/ports/service-key-repository.port.js';
import type { UnitOfWork } from '../../../application/ports/unit-of-work.port.js';
import type { VacancyRepository } from '../../../application/ports/vacancy-repository.port.js';
import { MikroOrmBoardRepository } from './mikro-orm-board-repository.js';
import { MikroOrmCandidateRepository } from './mikro-orm-candidate-repository.js';
import { MikroOrmCompanyRepository } from './mikro-orm-company-repository.js';
import { MikroOrmServiceKeyRepository } from './mikro-orm-service-key-repository.js';
import { MikroOrmUnitOfWork, type MikroOrmUnitOfWorkOptions } from './mikro-orm-unit-of-work.js';
import { MikroOrmVacancyRepository } from './mikro-orm-vacancy-repository.js';

export interface MikroOrmPersistence {
  readonly companies: CompanyRepository;
  readonly keys: ServiceKeyRepository;
  readonly vacancies: VacancyRepository;
  readonly boards: BoardRepository;
  readonly candidates: CandidateRepository;
  readonly unitOfWork: UnitOfWork;
}

/** Every PostgreSQL adapter: the registry's on its own instance, the business ones sharing the unit of work's. */
export function mikroOrmPersistence(
  orms: { readonly business: MikroORM; readonly registry: MikroORM },
  unitOfWorkOptions: MikroOrmUnitOfWorkOptions = {},
): MikroOrmPersistence {
  return {
    companies: new MikroOrmCompanyRepository(orms.registry),
    keys: new MikroOrmServiceKeyRepository(orms.registry),
    vacancies: new MikroOrmVacancyRepository(orms.business),
    boards: new MikroOrmBoardRepository(orms.business),
    candidates: new MikroOrmCandidateRepository(orms.business),
    unitOfWork: new MikroOrmUnitOfWork(orms.business, unitOfWorkOptions),
  };
}
