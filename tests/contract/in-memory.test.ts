import { InMemoryDatabase } from '../../adapters/persistence/in-memory/in-memory-database.js';
import { InMemoryPlatformTokenRepository } from '../../adapters/persistence/in-memory/in-memory-platform-token.repository.js';
import { SystemClock } from '../../adapters/system/system-clock.js';
import { boardRepositoryContract } from './board-repository.contract.js';
import { candidateRepositoryContract } from './candidate-repository.contract.js';
import { feedLedgerContract } from './feed-ledger.contract.js';
import { inMemoryAdapters } from './in-memory-adapters.js';
import { keyEventTrailContract } from './key-event-trail.contract.js';
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
    return inMemoryAdapters(new SystemClock());
  },
  async release() {},
};

describe('persistence contract on the in-memory adapters', () => {
  registryContract(inMemory);
  keyRegistryWriteContract(inMemory);
  keyEventsContract(inMemory);
  keyEventTrailContract(inMemory);
  platformTokenRepositoryContract({ name: 'in-memory', make: () => new InMemoryPlatformTokenRepository(new InMemoryDatabase()) });
  vacancyRepositoryContract(inMemory);
  boardRepositoryContract(inMemory);
  candidateRepositoryContract(inMemory);
  unitOfWorkContract(inMemory);
  feedLedgerContract(inMemory);
});
