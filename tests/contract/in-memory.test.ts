import { InMemoryBoardRepository } from '../../adapters/persistence/in-memory/in-memory-board.repository.js';
import { InMemoryCandidateRepository } from '../../adapters/persistence/in-memory/in-memory-candidate.repository.js';
import { InMemoryCompanyRepository } from '../../adapters/persistence/in-memory/in-memory-company.repository.js';
import { InMemoryDatabase } from '../../adapters/persistence/in-memory/in-memory-database.js';
import { InMemoryFeedLedger } from '../../adapters/persistence/in-memory/in-memory-feed-ledger.js';
import { InMemoryPlatformTokenRepository } from '../../adapters/persistence/in-memory/in-memory-platform-token.repository.js';
import { InMemoryServiceKeyRepository } from '../../adapters/persistence/in-memory/in-memory-service-key.repository.js';
import { InMemoryUnitOfWork } from '../../adapters/persistence/in-memory/in-memory-unit-of-work.js';
import { InMemoryVacancyRepository } from '../../adapters/persistence/in-memory/in-memory-vacancy.repository.js';
import { SystemClock } from '../../adapters/system/system-clock.js';
import { candidateRepositoryContract } from './candidate-repository.contract.js';
import { feedLedgerContract } from './feed-ledger.contract.js';
import { keyEventsContract } from './key-events.contract.js';
import { keyRegistryWriteContract } from './key-registry-write.contract.js';
import type { AdapterFactory } from './persistence-adapters.js';
import { platformTokenRepositoryContract } from './platform-token-repository.contract.js';
import { registryContract } from './registry.contract.js';
import { unitOfWorkContract } from './unit-of-work.contract.js';
import { vacancyRepositoryContract } from './vacancy-repository.contract.js';

const inMemory: AdapterFactory = {
  name: 'in-memory',
  async make() {
    const db = new InMemoryDatabase();
    return {
      companies: new InMemoryCompanyRepository(db),
      keys: new InMemoryServiceKeyRepository(db),
      vacancies: new InMemoryVacancyRepository(db),
      boards: new InMemoryBoardRepository(db),
      candidates: new InMemoryCandidateRepository(db),
      unitOfWork: new InMemoryUnitOfWork(db, new SystemClock()),
      feedLedger: new InMemoryFeedLedger(db),
    };
  },
  async release() {},
};

describe('persistence contract on the in-memory adapters', () => {
  registryContract(inMemory);
  keyRegistryWriteContract(inMemory);
  keyEventsContract(inMemory);
  platformTokenRepositoryContract({ name: 'in-memory', make: () => new InMemoryPlatformTokenRepository(new InMemoryDatabase()) });
  vacancyRepositoryContract(inMemory);
  candidateRepositoryContract(inMemory);
  unitOfWorkContract(inMemory);
  feedLedgerContract(inMemory);
});
