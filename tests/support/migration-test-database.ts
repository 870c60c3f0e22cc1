import pg from 'pg';
import { createThrowawayDatabaseUrl } from './postgres-test-database.js';

/** A migrated throwaway database turned back to before one migration, with a client on it. */
export interface MigrationTestDatabase {
  readonly url: string;
  readonly client: pg.Client;
}

/**
 * For a migration's suite (call it in the describe): before each test, a throwaway database with a client
 * connected and `turnBack` run on it, to the schema before the migration; after each, the client ends and
 * the database is dropped. Read `url` and `client` inside a test or hook.
 */
export function migrationTestDatabase(turnBack: (client: pg.Client) => Promise<void>): MigrationTestDatabase {
  let current: { database: { url: string; drop: () => Promise<void> }; client: pg.Client } | undefined;
  beforeEach(async () => {
    const database = await createThrowawayDatabaseUrl();
    const client = new pg.Client({ connectionString: database.url });
    current = { database, client };
    await client.connect();
    await turnBack(client);
  });
  afterEach(async () => {
    await current?.client.end();
    await current?.database.drop();
    current = undefined;
  });
  const opened = () => {
    if (current === undefined) throw new Error('migrationTestDatabase is read only inside a test or hook');
    return current;
  };
  return {
    get url() {
      return opened().database.url;
    },
    get client() {
      return opened().client;
    },
  };
}

/** The statements of a migration's down(): it only adds SQL, so it needs no driver. */
export async function downStatements(of: new (...args: never[]) => { down(): Promise<void>; getQueries(): unknown[] }): Promise<string[]> {
  const migration = new of(undefined as never, undefined as never);
  await migration.down();
  return migration.getQueries().map((query) => String(query));
}
