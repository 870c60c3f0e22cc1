import type pg from 'pg';
import { PgDatabase } from '../../adapters/persistence/postgres/pg-database.js';
import type { PgSession } from '../../adapters/persistence/postgres/pg-statements.js';

type Answer = pg.QueryResult | pg.QueryResult[];

/** What a statement hook is given: the text as sent (values inlined or numbered), and the statement's run on the real connection. */
export type StatementHook = (text: string, run: () => Promise<Answer>) => Promise<Answer>;

/** A database whose statements go through `hook`, which may run them (`run`) or answer in their place. */
class HookedDatabase extends PgDatabase {
  constructor(url: string, private readonly hook: StatementHook) {
    super({ url, poolMax: 2 });
  }

  override query(client: pg.PoolClient, config: pg.QueryConfig): Promise<Answer> {
    return this.hook(config.text, () => super.query(client, config));
  }
}

/**
 * A session in autocommit on a pool of its own on the database at `url`, whose every statement goes through `hook`:
 * a test can take down the SQL a list sends, or write from another connection between two of its statements. Close
 * it with `close()`.
 */
export function hookStatements(url: string, hook: StatementHook): PgSession & { close(): Promise<void> } {
  const db = new HookedDatabase(url, hook);
  return { db, transaction: undefined, close: () => db.close() };
}

/** A query result of these rows, as pg answers a SELECT. */
export function answerOf(rows: readonly object[]): pg.QueryResult {
  return { command: 'SELECT', rowCount: rows.length, oid: 0, fields: [], rows: [...rows] } as pg.QueryResult;
}
