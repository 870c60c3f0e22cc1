import { postgresAdapterFactory, usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { candidateRepositoryContract } from './candidate-repository.contract.js';
import { feedLedgerContract } from './feed-ledger.contract.js';
import { registryContract } from './registry.contract.js';
import { unitOfWorkContract } from './unit-of-work.contract.js';
import { vacancyRepositoryContract } from './vacancy-repository.contract.js';

describe('persistence contract on the PostgreSQL adapters', () => {
  const database = usePostgresTestDatabase();
  const postgres = postgresAdapterFactory(database);
  registryContract(postgres);
  vacancyRepositoryContract(postgres);
  candidateRepositoryContract(postgres);
  unitOfWorkContract(postgres);
  feedLedgerContract(postgres);
});

describe('persistence contract on the PostgreSQL adapters with the key registry in its own database', () => {
  const database = usePostgresTestDatabase({ separateRegistry: true });
  registryContract(postgresAdapterFactory(database));
});
