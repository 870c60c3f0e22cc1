import { ADMIN_CLI_ACTOR } from '../../../application/use-cases/actor.js';
import { tmpdir } from 'node:os';
import { pino } from 'pino';
import type { Scope } from '../../../domain/service-key/scope.js';
import type { VacancyInput } from '../../../domain/vacancy/vacancy.js';
import { buildContainer, disposeContainer } from '../../../infrastructure/container/build-container.js';
import { resolve } from '../../../infrastructure/container/typed-binding.js';
import { USE_CASES } from '../../../infrastructure/container/use-case.tokens.js';
import { aVacancyInput } from '../../support/builders.js';

export interface AdminUrls {
  /** DATABASE_URL: the region's business data. */
  readonly businessUrl: string;
  /** KEYS_DATABASE_URL: companies and keys; default the business database. */
  readonly registryUrl?: string;
}

/**
 * What `npm run admin` does, on the databases a deployment uses: the composition root's own container
 * (profile postgres) on the given URLs, so that companies and keys go to the registry and business data
 * to the business database exactly as the CLI would send them. Dispose it before its databases go away.
 */
export async function adminContainer(urls: AdminUrls) {
  const container = await buildContainer({
    profile: 'postgres',
    logger: pino({ level: 'silent' }),
    config: {
      databaseUrl: urls.businessUrl,
      keysDatabaseUrl: urls.registryUrl ?? urls.businessUrl,
      // Unused with both URLs given (no embedded server); never the working directory's ./var.
      dataDir: tmpdir(),
      rateLimitStore: 'memory',
    },
  });
  return {
    async company(name = 'ТОО «Масштаб»'): Promise<string> {
      return (await resolve(container, USE_CASES.createCompany).execute({ name })).id;
    },
    issueKey(companyId: string, scopes: readonly Scope[] = ['vacancies:read', 'candidates:read', 'applications:write']) {
      return resolve(container, USE_CASES.issueKey).execute({ companyId, scopes, name: 'scale test', expiresAt: null, actor: ADMIN_CLI_ACTOR });
    },
    revokeKey(keyId: string) {
      return resolve(container, USE_CASES.revokeKey).execute({ keyId, actor: ADMIN_CLI_ACTOR });
    },
    /** Upserts the vacancies; returns their ids in input order. */
    async vacancies(companyId: string, inputs: readonly Partial<VacancyInput>[]): Promise<string[]> {
      const saved = await resolve(container, USE_CASES.upsertVacancies).execute({ companyId, vacancies: inputs.map((input) => aVacancyInput(input)) });
      return saved.map((vacancy) => vacancy.id);
    },
    moveCandidate(companyId: string, id: string, stage: string) {
      return resolve(container, USE_CASES.moveCandidate).execute({ companyId, id, stage });
    },
    dispose: () => disposeContainer(container),
  };
}

export type AdminContainer = Awaited<ReturnType<typeof adminContainer>>;
