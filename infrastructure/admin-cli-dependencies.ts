import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { COMPANY_REPOSITORY } from '../application/ports/company-repository.port.js';
import type { AdminCliDependencies, AdminServices } from '../adapters/cli/admin-services.js';
import type { AppConfig } from './config.js';
import { buildContainer, disposeContainer } from './container/build-container.js';
import { resolve } from './container/typed-binding.js';
import { USE_CASES } from './container/use-case.tokens.js';

/**
 * What the admin CLI (adapters/cli) is given by its composition root: the use cases of a container built
 * only when a command needs one, and disposed of at the end.
 */
export function adminCliDependencies(config: AppConfig, logger: Logger): AdminCliDependencies {
  let container: Promise<Container> | undefined;
  const openContainer = () => {
    container ??= buildContainer({ config, logger });
    return container;
  };
  return {
    open: async () => servicesOf(await openContainer(), config),
    migrate: () => migrate(config),
    close: async () => {
      if (container !== undefined) await disposeContainer(await container);
    },
  };
}

function servicesOf(c: Container, config: AppConfig): AdminServices {
  return {
    companies: resolve(c, COMPANY_REPOSITORY),
    createCompany: resolve(c, USE_CASES.createCompany),
    issueKey: resolve(c, USE_CASES.issueKey),
    revokeKey: resolve(c, USE_CASES.revokeKey),
    listKeys: resolve(c, USE_CASES.listKeys),
    upsertVacancies: resolve(c, USE_CASES.upsertVacancies),
    deleteVacancy: resolve(c, USE_CASES.deleteVacancy),
    addCandidates: resolve(c, USE_CASES.addCandidates),
    updateResume: resolve(c, USE_CASES.updateResume),
    moveCandidate: resolve(c, USE_CASES.moveCandidate),
    transferCandidate: resolve(c, USE_CASES.transferCandidate),
    deleteCandidate: resolve(c, USE_CASES.deleteCandidate),
    setBoardColumns: resolve(c, USE_CASES.setBoardColumns),
    importJobBoardVacancies: resolve(c, USE_CASES.importJobBoardVacancies),
    importJobBoardResumes: resolve(c, USE_CASES.importJobBoardResumes),
    importCandidateBatch: resolve(c, USE_CASES.importCandidateBatch),
    jobBoardLabel: config.jobBoardLabel,
  };
}

/** Both databases' migrations (DESIGN 3, Regions); the memory store has no schema. */
async function migrate(config: AppConfig): Promise<{ registry: string[]; business: string[] }> {
  if (config.store === 'memory') return { registry: [], business: [] };
  const { openDatabases } = await import('./database/open-databases.js');
  const { migrateDatabases } = await import('./database/migrate-databases.js');
  // Opening first starts the embedded PostgreSQL when DATABASE_URL is unset, and tells its URL.
  const databases = await openDatabases({ databaseUrl: config.databaseUrl, keysDatabaseUrl: config.keysDatabaseUrl, dataDir: config.dataDir, poolMax: 2 });
  try {
    const applied = await migrateDatabases({ businessUrl: databases.businessUrl, registryUrl: databases.registryUrl });
    return { registry: [...applied.registry], business: [...applied.business] };
  } finally {
    await databases.close();
  }
}
