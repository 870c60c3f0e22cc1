import { ContainerModule } from 'inversify';
import { BOARD_REPOSITORY } from '../../application/ports/board-repository.port.js';
import { CANDIDATE_REPOSITORY } from '../../application/ports/candidate-repository.port.js';
import { CLOCK } from '../../application/ports/clock.port.js';
import { COMPANY_REPOSITORY } from '../../application/ports/company-repository.port.js';
import { FEED_LEDGER } from '../../application/ports/feed-ledger.port.js';
import { PLATFORM_TOKEN_REPOSITORY } from '../../application/ports/platform-token-repository.port.js';
import { SERVICE_KEY_REPOSITORY } from '../../application/ports/service-key-repository.port.js';
import { UNIT_OF_WORK } from '../../application/ports/unit-of-work.port.js';
import { VACANCY_REPOSITORY } from '../../application/ports/vacancy-repository.port.js';
import { InMemoryBoardRepository } from '../../adapters/persistence/in-memory/in-memory-board.repository.js';
import { InMemoryCandidateRepository } from '../../adapters/persistence/in-memory/in-memory-candidate.repository.js';
import { InMemoryCompanyRepository } from '../../adapters/persistence/in-memory/in-memory-company.repository.js';
import { InMemoryDatabase } from '../../adapters/persistence/in-memory/in-memory-database.js';
import { InMemoryFeedLedger } from '../../adapters/persistence/in-memory/in-memory-feed-ledger.js';
import { InMemoryPlatformTokenRepository } from '../../adapters/persistence/in-memory/in-memory-platform-token.repository.js';
import { InMemoryServiceKeyRepository } from '../../adapters/persistence/in-memory/in-memory-service-key.repository.js';
import { InMemoryUnitOfWork } from '../../adapters/persistence/in-memory/in-memory-unit-of-work.js';
import { InMemoryVacancyRepository } from '../../adapters/persistence/in-memory/in-memory-vacancy.repository.js';
import { IN_MEMORY_DATABASE, READINESS } from './infrastructure.tokens.js';
import { bindPort, resolve } from './typed-binding.js';

/** STORE=memory: every store is in this process, lost at exit. Development and tests only. */
export const memoryModule = new ContainerModule(({ bind }) => {
  bindPort(bind, IN_MEMORY_DATABASE).toConstantValue(new InMemoryDatabase());
  bindPort(bind, COMPANY_REPOSITORY).toDynamicValue((ctx) => new InMemoryCompanyRepository(resolve(ctx, IN_MEMORY_DATABASE)));
  bindPort(bind, SERVICE_KEY_REPOSITORY).toDynamicValue((ctx) => new InMemoryServiceKeyRepository(resolve(ctx, IN_MEMORY_DATABASE)));
  bindPort(bind, PLATFORM_TOKEN_REPOSITORY).toDynamicValue((ctx) => new InMemoryPlatformTokenRepository(resolve(ctx, IN_MEMORY_DATABASE)));
  bindPort(bind, VACANCY_REPOSITORY).toDynamicValue((ctx) => new InMemoryVacancyRepository(resolve(ctx, IN_MEMORY_DATABASE)));
  bindPort(bind, BOARD_REPOSITORY).toDynamicValue((ctx) => new InMemoryBoardRepository(resolve(ctx, IN_MEMORY_DATABASE)));
  bindPort(bind, CANDIDATE_REPOSITORY).toDynamicValue((ctx) => new InMemoryCandidateRepository(resolve(ctx, IN_MEMORY_DATABASE)));
  bindPort(bind, UNIT_OF_WORK).toDynamicValue((ctx) => new InMemoryUnitOfWork(resolve(ctx, IN_MEMORY_DATABASE), resolve(ctx, CLOCK)));
  bindPort(bind, FEED_LEDGER).toDynamicValue((ctx) => new InMemoryFeedLedger(resolve(ctx, IN_MEMORY_DATABASE)));
  bindPort(bind, READINESS).toConstantValue(async () => true);
});
