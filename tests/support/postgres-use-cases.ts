import { NodeCryptoSecrets } from '../../adapters/system/node-crypto-secrets.js';
import { SystemClock } from '../../adapters/system/system-clock.js';
import { UuidV7IdGenerator } from '../../adapters/system/uuid-v7-id-generator.js';
import type { PgUnitOfWorkOptions } from '../../adapters/persistence/postgres/pg-unit-of-work.js';
import { CreateCompany } from '../../application/use-cases/create-company.use-case.js';
import { ListCandidates } from '../../application/use-cases/list-candidates.use-case.js';
import { ListVacancies } from '../../application/use-cases/list-vacancies.use-case.js';
import { MoveCandidate } from '../../application/use-cases/move-candidate.use-case.js';
import { RepeatForecast } from '../../application/use-cases/repeat-forecast.js';
import { SubmitApplication } from '../../application/use-cases/submit-application.use-case.js';
import { UpsertVacancies } from '../../application/use-cases/upsert-vacancies.use-case.js';
import type { PostgresTestDatabase } from './postgres-test-database.js';
import { countingLookups } from './repeat-ways.js';
import { PAGE_MAX_BYTES_DEFAULT } from '../../domain/paging/page-budget.js';

/**
 * The use cases of the sync and application paths, wired by hand on the PostgreSQL adapters; `forecast` decides
 * whether an application is looked up before it is stored (ADR 21).
 */
export function postgresUseCases(database: PostgresTestDatabase, unitOfWork: PgUnitOfWorkOptions = {}, forecast = new RepeatForecast()) {
  const a = database.adapters(unitOfWork);
  const ids = new UuidV7IdGenerator();
  // SubmitApplication's lookups counted, so that a test can tell which way a repeat was answered.
  let lookups = 0;
  const candidates = countingLookups(a.candidates, () => lookups++);
  return {
    lookups: () => lookups,
    createCompany: new CreateCompany(a.companies, ids, new SystemClock()),
    upsertVacancies: new UpsertVacancies(a.companies, a.vacancies, a.boards, a.unitOfWork, ids),
    submitApplication: new SubmitApplication(a.boards, candidates, a.unitOfWork, ids, new NodeCryptoSecrets(), { forecast }),
    moveCandidate: new MoveCandidate(a.vacancies, a.boards, a.candidates, a.unitOfWork),
    listCandidates: new ListCandidates(a.candidates, a.unitOfWork, PAGE_MAX_BYTES_DEFAULT),
    listVacancies: new ListVacancies(a.vacancies, a.unitOfWork, PAGE_MAX_BYTES_DEFAULT),
  };
}

export type PostgresUseCases = ReturnType<typeof postgresUseCases>;
