import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import pg from 'pg';
import { BUSINESS_MIGRATIONS, REGISTRY_MIGRATIONS, type MigrationSet } from '../../adapters/persistence/postgres/migrations/migration-sets.js';
import { mikroOrmOptions } from '../../adapters/persistence/postgres/mikro-orm-options.js';

export interface MigrationTargets {
  readonly businessUrl: string;
  readonly registryUrl: string;
}

export interface MigrationReport {
  readonly registry: string[];
  readonly business: string[];
}

/** Key of the session advisory lock that serialises migrators of one set on one database. */
const MIGRATION_LOCK_NAMESPACE = 0x4d_49_47_52;

/**
 * Applies the committed migrations: the registry set to KEYS_DATABASE_URL and the business set to
 * DATABASE_URL (both to one database when the URLs are equal; each set keeps its own history table).
 * Used at start and by `npm run admin -- migrate`. Returns the names of the migrations it applied.
 */
export async function migrateDatabases(targets: MigrationTargets): Promise<MigrationReport> {
  const registry = await migrate(targets.registryUrl, REGISTRY_MIGRATIONS);
  const business = await migrate(targets.businessUrl, BUSINESS_MIGRATIONS);
  return { registry, business };
}

async function migrate(url: string, set: MigrationSet): Promise<string[]> {
  // Two instances starting at once: the second waits here, then finds nothing pending.
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1, hashtext($2))', [MIGRATION_LOCK_NAMESPACE, set.tableName]);
    const orm = await MikroORM.init({
      ...mikroOrmOptions({ url, poolMax: 2, contextName: `migrate-${set.name}` }, []),
      extensions: [Migrator],
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
      const applied = await orm.getMigrator().up();
      return applied.map((migration) => migration.name);
    } finally {
      await orm.close(true);
    }
  } finally {
    await lock.end();
  }
}
