import { PgPlatformTokenRepository } from '../../adapters/persistence/postgres/pg-platform-token-repository.js';
import { postgresAdapterFactory, usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { boardRepositoryContract } from './board-repository.contract.js';
import { candidateRepositoryContract } from './candidate-repository.contract.js';
import { feedLedgerContract } from './feed-ledger.contract.js';
import { keyEventTrailContract } from './key-event-trail.contract.js';
import { keyEventsContract } from './key-events.contract.js';
import { keyRegistryWriteContract } from './key-registry-write.contract.js';
import { platformTokenRepositoryContract } from './platform-token-repository.contract.js';
import { registryContract } from './registry.contract.js';
import { unitOfWorkContract } from './unit-of-work.contract.js';
import { vacancyRepositoryContract } from './vacancy-repository.contract.js';

describe('persistence contract on the PostgreSQL adapters', () => {
  const database = usePostgresTestDatabase();
  const postgres = postgresAdapterFactory(database);
  registryContract(postgres);
  keyRegistryWriteContract(postgres);
  keyEventsContract(postgres);
  keyEventTrailContract(postgres);
  platformTokenRepositoryContract({ name: 'postgres', make: () => new PgPlatformTokenRepository(database().databases.registry) });
  vacancyRepositoryContract(postgres);
  boardRepositoryContract(postgres);
  candidateRepositoryContract(postgres);
  unitOfWorkContract(postgres);
  feedLedgerContract(postgres);
});

describe('persistence contract on the PostgreSQL adapters with the key registry in its own database', () => {
  const database = usePostgresTestDatabase({ separateRegistry: true });
  const postgres = postgresAdapterFactory(database);
  registryContract(postgres);
  keyRegistryWriteContract(postgres);
  keyEventsContract(postgres);
  keyEventTrailContract(postgres);
  platformTokenRepositoryContract({ name: 'postgres', make: () => new PgPlatformTokenRepository(database().databases.registry) });
});

// DB_PREPARED_STATEMENTS=on (ADR 22): the statements of a fixed text that run in a transaction go bound and
// prepared on its connection instead of inlined; every answer must stay the same. The suites whose calls run in
// units of work (the unit of work's, the ledger's, some of the candidates'); the vacancy and board suites call
// outside one, where nothing is prepared, so they would only repeat the run above.
describe('persistence contract on the PostgreSQL adapters with prepared statements', () => {
  const database = usePostgresTestDatabase({ preparedStatements: true });
  const postgres = postgresAdapterFactory(database);
  candidateRepositoryContract(postgres);
  unitOfWorkContract(postgres);
  feedLedgerContract(postgres);
});
