import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from 'pino';
import { BUSINESS_MIGRATIONS, REGISTRY_MIGRATIONS, type MigrationSet } from '../../adapters/persistence/postgres/migrations/migration-sets.js';
import { mikroOrmMigrationOptions } from '../../adapters/persistence/postgres/mikro-orm-options.js';

export interface MigrationTargets {
  readonly businessUrl: string;
  readonly registryUrl: string;
}

export interface MigrationReport {
  readonly registry: string[];
  readonly business: string[];
}

/**
 * First key of the advisory lock that serialises migrators of one set on one database (the second is
 * hashtext of the set's history table). The same key as the session lock that earlier versions took, so
 * that an older instance and a newer one still wait for each other during a rolling update.
 */
export const MIGRATION_LOCK_NAMESPACE = 0x4d_49_47_52;

/** How often a start (or `admin migrate`) still waiting on its migrations says so, when given a logger. */
export const MIGRATION_PATIENCE_MS = 5_000;

/**
 * Applies the committed migrations: the registry set to KEYS_DATABASE_URL and the business set to
 * DATABASE_URL (both to one database when the URLs are equal; each set keeps its own history table).
 * Used at start and by `npm run admin -- migrate`. Returns the names of the migrations it applied.
 *
 * The migrations have no time bound (an index build may take long). Given a logger, it says every few seconds
 * that it still waits: for a database or a pooler that does not answer (a PgBouncer PAUSE), or for another
 * instance's migration lock. Without it a start would wait in silence.
 */
export async function migrateDatabases(targets: MigrationTargets, options: { readonly logger?: Logger | undefined } = {}): Promise<MigrationReport> {
  const { logger } = options;
  const started = Date.now();
  const timer =
    logger === undefined
      ? undefined
      : setInterval(() => {
          logger.warn({ waitedMs: Date.now() - started }, "still applying the migrations: waiting for the database to answer, or for another instance's migration lock");
        }, MIGRATION_PATIENCE_MS);
  timer?.unref();
  try {
    const registry = await migrate(targets.registryUrl, REGISTRY_MIGRATIONS);
    const business = await migrate(targets.businessUrl, BUSINESS_MIGRATIONS);
    return { registry, business };
  } finally {
    clearInterval(timer);
  }
}

/**
 * One set in one transaction whose first statement takes the set's transaction-level advisory lock: the
 * history table's creation, the reading of what was applied, every pending migration and its history
 * row (ADR 15). A second migrator waits at the lock, then finds everything applied. Nothing outlives the
 * transaction, so it holds behind a transaction pooler (a session lock would stay on whichever server
 * connection the pooler gave, after the client had gone), and a migrator that dies (SIGKILL) only rolls
 * back: its server session ends, or the pooler closes the server connection of a client that left inside a
 * transaction.
 */
async function migrate(url: string, set: MigrationSet): Promise<string[]> {
  const orm = await MikroORM.init({
    ...mikroOrmMigrationOptions(url, `migrate-${set.name}`),
    extensions: [Migrator],
    onQuery: withoutSessionSettings,
    migrations: {
      tableName: set.tableName,
      migrationsList: [...set.migrations],
      transactional: true,
      allOrNothing: true,
      // Would wrap the statements in `set session_replication_role`, which needs a superuser.
      disableForeignKeys: false,
      snapshot: false,
      silent: true,
    },
  });
  try {
    const migrator = orm.getMigrator();
    const connection = orm.em.getConnection();
    return await connection.transactional(async (trx) => {
      await connection.execute('select pg_advisory_xact_lock(?, hashtext(?))', [MIGRATION_LOCK_NAMESPACE, set.tableName], 'run', trx);
      // MikroORM creates the history table before it enters the transaction given to up(), on a connection
      // of its own, where two migrators would race (`relation … already exists`); with the transaction set
      // on the storage first, that happens here, after the lock.
      migrator.getStorage().setMasterMigration(trx);
      try {
        const applied = await migrator.up({ transaction: trx });
        return applied.map((migration) => migration.name);
      } finally {
        migrator.getStorage().unsetMasterMigration();
      }
    });
  } finally {
    await orm.close(true);
  }
}

/**
 * MikroORM starts every migration with `set names '<charset>'`, a session setting that would stay on the
 * server connection after the transaction; the same setting for the transaction only does what it wants.
 */
function withoutSessionSettings(sql: string): string {
  const names = /^\s*set\s+names\s+('[^']*')\s*;?\s*$/i.exec(sql);
  return names === null ? sql : `set local client_encoding = ${names[1]}`;
}
