import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { COMPANY_REPOSITORY } from '../application/ports/company-repository.port.js';
import type { AdminCliDependencies, AdminServices } from '../adapters/cli/admin-services.js';
import { CliFailure } from '../adapters/cli/cli-failure.js';
import { unavailabilityReason } from '../adapters/persistence/postgres/store-errors.js';
import type { AppConfig } from './config.js';
import { buildContainer, disposeContainer } from './container/build-container.js';
import { serviceHolding, serviceLockFile } from './database/embedded-postgres-service-lock.js';
import { displayUrl, withoutPasswords } from './display-url.js';
import { resolve } from './container/typed-binding.js';
import { USE_CASES } from './container/use-case.tokens.js';

/**
 * The in-memory store lives and dies inside one process: what the CLI stored there would be gone when it
 * exits, and the keys it printed would answer 401 from a service that never saw them.
 */
export const MEMORY_STORE_REFUSAL =
  'The admin CLI does not work with STORE=memory: the in-memory store lives only inside one process, so what this command ' +
  'stored would vanish when it exits and the service would never see it (its keys would answer 401). Run the CLI against ' +
  "the service's database instead (unset STORE, or STORE=postgres, with the service's DATABASE_URL or DATA_DIR); or start " +
  'the service with STORE=memory alone: it seeds a demo company at start and logs its key.';

/**
 * What the admin CLI (adapters/cli) is given by its composition root: the use cases of a container built
 * only when a command needs one, and disposed of at the end. Commands that need no store (--help, sync)
 * work with any STORE, and so do the `feed` commands, which reach the broker; the others refuse STORE=memory.
 */
export function adminCliDependencies(config: AppConfig, logger: Logger): AdminCliDependencies & EmbeddedDatabaseNotice {
  let container: Promise<Container> | undefined;
  let openedEmbedded = false;
  const embedded = config.store === 'postgres' && (config.databaseUrl === null || config.databaseUrl.trim() === '');
  const openContainer = () => {
    if (config.store === 'memory') return Promise.reject(new CliFailure(MEMORY_STORE_REFUSAL));
    container ??= buildContainer({ config, logger }).then(
      (built) => {
        openedEmbedded = embedded;
        return built;
      },
      (error: unknown) => {
        throw cannotOpenTheDatabase(config, error);
      },
    );
    return container;
  };
  return {
    open: async () => adminServices(await openContainer(), config),
    migrate: async () => {
      if (config.store === 'memory') throw new CliFailure(MEMORY_STORE_REFUSAL);
      const applied = await migrate(config, logger);
      openedEmbedded = embedded;
      return applied;
    },
    embeddedDatabaseNotice: async () => (openedEmbedded ? noServiceNotice(config.dataDir) : null),
    // The feed's broker, with any STORE: the `feed` commands touch no database. Loaded only when one runs.
    feed: {
      url: config.feedUrl,
      open: async (url) => {
        const { openFeedAdminBroker } = await import('./feed/feed-admin-broker.js');
        return openFeedAdminBroker(url, { queue: config.feedQueue, retryDelaysMs: config.feedRetryDelaysMs });
      },
    },
    close: async () => {
      // A container that failed to build has closed whatever it had opened.
      const built = await container?.catch(() => undefined);
      if (built !== undefined) await disposeContainer(built);
    },
  };
}

/** What the CLI's entry asks once a command has succeeded: whether to say which database it used. */
export interface EmbeddedDatabaseNotice {
  /**
   * A line for stderr when the command used the embedded PostgreSQL of a DATA_DIR on which no service runs (it
   * started that server itself, or joined one without a service): what it wrote is invisible to a service that
   * runs elsewhere, and its keys answer 401 there. Null when it used no embedded database, or a service holds it.
   */
  embeddedDatabaseNotice(): Promise<string | null>;
}

async function noServiceNotice(dataDir: string): Promise<string | null> {
  if ((await serviceHolding(dataDir)) !== null) return null;
  return (
    `note: this command used the embedded PostgreSQL in DATA_DIR ${dataDir}, and no service runs on that DATA_DIR ` +
    `(${serviceLockFile(dataDir)} names none): only a service started with DATA_DIR=${dataDir} will see what it wrote, ` +
    'not one running on another DATA_DIR or DATABASE_URL.\n'
  );
}

/**
 * A failure to open the databases (or to migrate them, which every command but `migrate` does on opening), on
 * one line: where the CLI looked and why, never a password.
 */
function cannotOpenTheDatabase(config: AppConfig, error: unknown): CliFailure {
  return new CliFailure(`Cannot open the database${whereOf(config)}: ${whyOf(config, error)}`);
}

/**
 * The reasons of unavailabilityReason that say a connection could not be made: the server out of reach, no
 * answer to the connect, no connection from the pool, too many connections, a server starting up. Not those that
 * end work under way (a statement timeout, a session ended, a connection lost mid-statement): the database was
 * open then, and a migration failed.
 */
const CANNOT_CONNECT = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '53300', '57P03', 'connect_timeout', 'pool_timeout', 'pool_closed']);

/**
 * Whether an error says the database could not be opened: no connection could be made (CANNOT_CONNECT, or a
 * connection exception, SQLSTATE class 08), or it answered that the login is refused (class 28) or the database
 * does not exist (3D000). Looks through `cause`.
 */
function isOpeningFailure(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const reason = depth === 0 ? unavailabilityReason(error) : null;
  if (reason !== null && (CANNOT_CONNECT.has(reason) || reason.startsWith('08'))) return true;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  if (typeof code === 'string' && (code.startsWith('28') || code === '3D000')) return true;
  return isOpeningFailure(cause, depth + 1);
}

/** What failed, in one line without a password. */
function whyOf(config: AppConfig, error: unknown): string {
  const why = error instanceof Error ? error.message || error.name : String(error);
  return withoutPasswords(why, [config.databaseUrl, config.keysDatabaseUrl]);
}

/** Where the CLI looked for its database, for a message: never a password. */
function whereOf(config: AppConfig): string {
  if (config.databaseUrl === null || config.databaseUrl.trim() === '') return ` (the embedded PostgreSQL in DATA_DIR ${config.dataDir})`;
  const keys = config.keysDatabaseUrl !== null && config.keysDatabaseUrl.trim() !== '' && config.keysDatabaseUrl !== config.databaseUrl ? `, KEYS_DATABASE_URL ${displayUrl(config.keysDatabaseUrl)}` : '';
  return ` (DATABASE_URL ${displayUrl(config.databaseUrl)}${keys})`;
}

/** The use cases the CLI drives, from a container; the service's STORE=memory demo seeding uses them too. */
export function adminServices(c: Container, config: Pick<AppConfig, 'jobBoardLabel'>): AdminServices {
  return {
    companies: resolve(c, COMPANY_REPOSITORY),
    createCompany: resolve(c, USE_CASES.createCompany),
    issueKey: resolve(c, USE_CASES.issueKey),
    revokeKey: resolve(c, USE_CASES.revokeKey),
    listKeys: resolve(c, USE_CASES.listKeys),
    issuePlatformToken: resolve(c, USE_CASES.issuePlatformToken),
    revokePlatformToken: resolve(c, USE_CASES.revokePlatformToken),
    listPlatformTokens: resolve(c, USE_CASES.listPlatformTokens),
    listPlatformTokenEvents: resolve(c, USE_CASES.listPlatformTokenEvents),
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
    // Resolved when it runs: the in-memory store keeps no renderings and binds no RenderingCheck, and the
    // STORE=memory demo seeding takes its services from here too (the CLI itself refuses STORE=memory).
    checkRenderings: { execute: (command) => resolve(c, USE_CASES.checkRenderings).execute(command) },
    jobBoardLabel: config.jobBoardLabel,
  };
}

/**
 * Both databases' migrations (DESIGN 3, Regions), as a start applies them: opened with the same bounds (a
 * database that does not answer fails after DB_CONNECT_TIMEOUT_MS), and saying every few seconds that it still
 * waits (a paused pooler, another instance's migration lock).
 */
async function migrate(config: AppConfig, logger: Logger): Promise<{ registry: string[]; business: string[] }> {
  const { openDatabases } = await import('./database/open-databases.js');
  const { migrateDatabases } = await import('./database/migrate-databases.js');
  // Opening first starts the embedded PostgreSQL when DATABASE_URL is unset, and tells its URL.
  const databases = await openDatabases({
    databaseUrl: config.databaseUrl,
    keysDatabaseUrl: config.keysDatabaseUrl,
    dataDir: config.dataDir,
    embeddedPort: config.embeddedPgPort,
    poolMax: 2,
    timeouts: config.dbTimeouts,
  }).catch((error: unknown) => {
    throw cannotOpenTheDatabase(config, error);
  });
  try {
    const applied = await migrateDatabases({ businessUrl: databases.businessUrl, registryUrl: databases.registryUrl }, { logger }).catch((error: unknown) => {
      // The pools connect at their first statement: a database that cannot be reached, or refuses the login or
      // does not exist, fails here, not on opening.
      if (isOpeningFailure(error)) throw cannotOpenTheDatabase(config, error);
      throw new CliFailure(`Cannot apply the migrations${whereOf(config)}: ${whyOf(config, error)}`);
    });
    return { registry: [...applied.registry], business: [...applied.business] };
  } finally {
    await databases.close();
  }
}
