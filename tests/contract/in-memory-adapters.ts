import { InMemoryBoardRepository } from '../../adapters/persistence/in-memory/in-memory-board.repository.js';
import { InMemoryCandidateRepository } from '../../adapters/persistence/in-memory/in-memory-candidate.repository.js';
import { InMemoryCompanyRepository } from '../../adapters/persistence/in-memory/in-memory-company.repository.js';
import { InMemoryDatabase } from '../../adapters/persistence/in-memory/in-memory-database.js';
import { InMemoryFeedLedger } from '../../adapters/persistence/in-memory/in-memory-feed-ledger.js';
import { InMemoryServiceKeyRepository } from '../../adapters/persistence/in-memory/in-memory-service-key.repository.js';
import { InMemoryUnitOfWork } from '../../adapters/persistence/in-memory/in-memory-unit-of-work.js';
import { InMemoryVacancyRepository } from '../../adapters/persistence/in-memory/in-memory-vacancy.repository.js';
import type { Clock } from '../../application/ports/clock.port.js';
import type { PersistenceAdapters } from './persistence-adapters.js';

/** Every in-memory adapter of the contract suites, on one fresh database, its unit of work on `clock`. */
export function inMemoryAdapters(clock: Clock): PersistenceAdapters {
  const db = new InMemoryDatabase();
  return {
    companies: new InMemoryCompanyRepository(db),
    keys: new InMemoryServiceKeyRepository(db),
    vacancies: new InMemoryVacancyRepository(db),
    boards: new InMemoryBoardRepository(db),
    candidates: new InMemoryCandidateRepository(db),
    unitOfWork: new InMemoryUnitOfWork(db, clock),
    feedLedger: new InMemoryFeedLedger(db),
  };
}
