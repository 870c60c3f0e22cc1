import { PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';

/**
 * The server version knex is told, so that it never asks: unset, knex sends `select version()` on the first
 * connection of a pool before handing it over, and when that query fails (a pooler that is paused) knex drops the
 * connection without closing it, whose open socket then keeps a finished process (the admin CLI) alive. knex's
 * PostgreSQL dialect uses the version only to choose json column types in its schema builder, which nothing here
 * uses (the migrations are SQL): PostgreSQL 15, the oldest server the project runs on.
 */
const KNEX_SERVER_VERSION = '15';

/**
 * MikroORM options for applying one database's committed migrations (migrate-databases.ts), MikroORM's part in the
 * service (ADR 25): the schema belongs to the migrations, never to entity metadata (no ensureDatabase, no schema
 * update), and the statements of requests go through pg (pg-database.ts).
 */
export function mikroOrmMigrationOptions(url: string, contextName: string): Options {
  return {
    driver: PostgreSqlDriver,
    clientUrl: url,
    entities: [],
    contextName,
    discovery: { warnWhenNoEntities: false },
    ensureDatabase: false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
    pool: { min: 0, max: 2, idleTimeoutMillis: 30_000 },
    driverOptions: { version: KNEX_SERVER_VERSION },
    debug: false,
  };
}
