import type { BoardRepository } from '../../application/ports/board-repository.port.js';
import type { CandidateRepository } from '../../application/ports/candidate-repository.port.js';
import type { CompanyRepository } from '../../application/ports/company-repository.port.js';
import type { FeedLedger } from '../../application/ports/feed-ledger.port.js';
import type { ServiceKeyRepository } from '../../application/ports/service-key-repository.port.js';
import type { UnitOfWork } from '../../application/ports/unit-of-work.port.js';
import type { VacancyRepository } from '../../application/ports/vacancy-repository.port.js';

/** One adapter of every persistence port, as a profile binds them. */
export interface PersistenceAdapters {
  readonly companies: CompanyRepository;
  readonly keys: ServiceKeyRepository;
  readonly vacancies: VacancyRepository;
  readonly boards: BoardRepository;
  readonly candidates: CandidateRepository;
  readonly unitOfWork: UnitOfWork;
  readonly feedLedger: FeedLedger;
}

/**
 * Makes the adapters for one test. The suites use fresh company ids in every test, so a factory may
 * hand out the same database each time; `release` is called after each test.
 */
export interface AdapterFactory {
  readonly name: string;
  make(): Promise<PersistenceAdapters>;
  release(adapters: PersistenceAdapters): Promise<void>;
}

export function withAdapters(factory: AdapterFactory): () => PersistenceAdapters {
  let current: PersistenceAdapters | undefined;
  beforeEach(async () => {
    current = await factory.make();
  });
  afterEach(async () => {
    if (current !== undefined) await factory.release(current);
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error('adapters are made in beforeEach');
    return current;
  };
}
