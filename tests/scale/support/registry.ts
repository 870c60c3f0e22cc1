import { ADMIN_CLI_ACTOR } from '../../../application/use-cases/actor.js';
import { NodeCryptoSecrets } from '../../../adapters/system/node-crypto-secrets.js';
import { SystemClock } from '../../../adapters/system/system-clock.js';
import { UuidV7IdGenerator } from '../../../adapters/system/uuid-v7-id-generator.js';
import { CreateCompany } from '../../../application/use-cases/create-company.use-case.js';
import { IssueKey } from '../../../application/use-cases/issue-key.use-case.js';
import { ListKeys } from '../../../application/use-cases/list-keys.use-case.js';
import { RevokeKey } from '../../../application/use-cases/revoke-key.use-case.js';
import { UpsertVacancies } from '../../../application/use-cases/upsert-vacancies.use-case.js';
import type { Scope } from '../../../domain/service-key/scope.js';
import { aVacancyInput } from '../../support/builders.js';
import type { PostgresTestDatabase } from '../../support/postgres-test-database.js';

/** The admin side, run by the test on the database that the server processes use: what the CLI would do. */
export function adminOn(database: PostgresTestDatabase) {
  const a = database.adapters();
  const clock = new SystemClock();
  const secrets = new NodeCryptoSecrets();
  const ids = new UuidV7IdGenerator();
  return {
    async company(): Promise<string> {
      return (await new CreateCompany(a.companies, ids, clock).execute({ name: 'ТОО «Масштаб»' })).id;
    },
    issueKey(companyId: string, options: { scopes?: readonly Scope[]; expiresAt?: Date | null } = {}) {
      return new IssueKey(a.companies, a.keys, secrets, ids, clock).execute({
        companyId, scopes: options.scopes ?? ['vacancies:read', 'applications:write'], name: 'scale test', expiresAt: options.expiresAt ?? null, actor: ADMIN_CLI_ACTOR,
      });
    },
    revokeKey(keyId: string) {
      return new RevokeKey(a.keys, ids, clock).execute({ keyId, actor: ADMIN_CLI_ACTOR });
    },
    async lastUsedAt(companyId: string, keyId: string): Promise<Date | null> {
      const keys = await new ListKeys(a.companies, a.keys, clock).execute({ companyId });
      return keys.find((k) => k.id === keyId)?.lastUsedAt ?? null;
    },
    async vacancy(companyId: string): Promise<string> {
      const [created] = await new UpsertVacancies(a.companies, a.vacancies, a.boards, a.unitOfWork, ids).execute({ companyId, vacancies: [aVacancyInput()] });
      return (created as { id: string }).id;
    },
  };
}
