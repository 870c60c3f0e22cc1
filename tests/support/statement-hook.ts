import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';

/** What a statement hook is given: the text as sent (values inlined), and the statement's run on the real connection. */
export type StatementHook = (text: string, run: () => Promise<pg.QueryResult>) => Promise<pg.QueryResult>;

/** The part of knex's client that lends the pool's connections (what direct-statement.ts takes them from). */
interface Pool {
  acquireConnection(): Promise<pg.Client>;
  releaseConnection(connection: pg.Client): Promise<unknown>;
}

/**
 * An EntityManager like `em` whose statements sent on a pooled connection (direct-statement.ts: the lists' pages,
 * the point reads outside a unit of work) go through `hook`, which may run them (`run`) or answer in their place:
 * a test can take down the SQL a list sends, or write from another connection between two of its statements. The
 * connection is lent and given back by the pool as usual; only its `query` is seen through the hook.
 */
export function hookStatements(em: EntityManager, hook: StatementHook): EntityManager {
  const pool = em.getKnex().client as Pool;
  const lent = new WeakMap<object, pg.Client>();
  const hooked: Pool = {
    acquireConnection: async () => {
      const connection = await pool.acquireConnection();
      const run = (config: pg.QueryConfig) =>
        new Promise<pg.QueryResult>((resolve, reject) => {
          (connection.query as unknown as (c: pg.QueryConfig, done: (error: Error | null, result: pg.QueryResult) => void) => void)(config, (error, result) =>
            error ? reject(error) : resolve(result),
          );
        });
      const seen = {
        query: (config: pg.QueryConfig, done: (error: Error | null, result?: pg.QueryResult) => void) => {
          hook(config.text, () => run(config)).then((result) => done(null, result), (error: Error) => done(error));
        },
      };
      lent.set(seen, connection);
      return seen as unknown as pg.Client;
    },
    releaseConnection: (connection) => pool.releaseConnection(lent.get(connection) ?? connection),
  };
  return new Proxy(em, {
    get: (target, key, receiver) => (key === 'getKnex' ? () => ({ client: hooked }) : Reflect.get(target, key, receiver)),
  });
}

/** A query result of these rows, as pg answers a SELECT. */
export function answerOf(rows: readonly object[]): pg.QueryResult {
  return { command: 'SELECT', rowCount: rows.length, oid: 0, fields: [], rows: [...rows] } as pg.QueryResult;
}
