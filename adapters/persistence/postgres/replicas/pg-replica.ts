import pg from 'pg';
import { pgConnectionOf } from '../connection-fields.js';
import { ReplicaPosition, type ReplicaPositionOptions } from './replica-position.js';
import { ReplicaBehindError, type PageStatements, type ReplicaCopy } from './replica-router.js';
import { walPositionOf, type WalPosition } from './wal-position.js';

export interface PgReplicaSettings {
  readonly name: string;
  /** One of DATABASE_REPLICA_URLS: the replica, or a pooler in front of it. */
  readonly url: string;
  /** Most connections of the replica's pool of pages (DB_POOL_MAX, as the primary's). */
  readonly poolMax: number;
  /** DB_STATEMENT_TIMEOUT_MS (0: none) and DB_CONNECT_TIMEOUT_MS, as on the primary. */
  readonly statementMs: number;
  readonly connectMs: number;
  /** The statement's text with its values inlined, exactly as the primary's page is sent (the same bytes back). */
  readonly inline: (sql: string, params: readonly unknown[]) => string;
  readonly position: ReplicaPositionOptions;
  /** An idle pooled connection that broke (the replica stopped): the pool drops it. */
  readonly onIdleError?: (error: Error) => void;
}

/** How long a question for the replay position may go unanswered before the replica counts as down. */
const POSITION_QUERY_TIMEOUT_MS = 1_000;
/** How much later than statement_timeout the client stops waiting for a page (as on the primary's pool). */
const CLIENT_READ_TIMEOUT_MARGIN_MS = 2_000;
const REPLAYED = 'select pg_last_wal_replay_lsn()::text as replayed';

/**
 * One replica of DATABASE_REPLICA_URLS on node-postgres's documented pg.Pool: one pool for the pages, and one of a
 * single connection for the shared replay position (ReplicaPosition), so that the question is never queued behind
 * pages. Nothing stays on a server connection (ADR 15): a page goes as one simple-protocol message, in autocommit,
 * `SET LOCAL statement_timeout` and the replay position in front of the statement, which a pooler in transaction
 * mode keeps on one server connection. The position read there is the one the page's snapshot holds at least:
 * a statement's snapshot is taken after the statements before it in the message.
 */
export class PgReplica implements ReplicaCopy {
  readonly name: string;
  readonly position: ReplicaPosition;
  private readonly pages: pg.Pool;
  private readonly asker: pg.Pool;
  private readonly prefix: string;

  constructor(private readonly settings: PgReplicaSettings) {
    this.name = settings.name;
    const common = { ...pgConnectionOf(settings.url), connectionTimeoutMillis: settings.connectMs, idleTimeoutMillis: 30_000, allowExitOnIdle: true };
    this.pages = new pg.Pool({
      ...common,
      max: settings.poolMax,
      ...(settings.statementMs > 0 ? { query_timeout: settings.statementMs + CLIENT_READ_TIMEOUT_MARGIN_MS } : {}),
      application_name: 'integration-api replica reads',
    });
    this.asker = new pg.Pool({ ...common, max: 1, query_timeout: POSITION_QUERY_TIMEOUT_MS, application_name: 'integration-api replica position' });
    for (const pool of [this.pages, this.asker]) pool.on('error', (error) => settings.onIdleError?.(error));
    this.prefix = settings.statementMs > 0 ? `set local statement_timeout = ${Math.floor(settings.statementMs)}; ` : '';
    this.position = new ReplicaPosition(() => this.askPosition(), settings.position);
  }

  statements(target: WalPosition): PageStatements {
    return async <T>(sql: string, params: readonly unknown[]): Promise<T[]> => {
      const text = `${this.prefix}${REPLAYED}; ${this.settings.inline(sql, params)}`;
      const client = await this.pages.connect();
      let results: pg.QueryResult[];
      try {
        results = (await client.query(text)) as unknown as pg.QueryResult[];
      } catch (error) {
        // Whatever state the session is in (a broken line, a read timeout), the connection is not lent again.
        client.release(error as Error);
        throw error;
      }
      client.release();
      const replayed = (results.at(-2)?.rows[0] as { replayed: string | null } | undefined)?.replayed ?? null;
      if (replayed === null || walPositionOf(replayed) < target) throw new ReplicaBehindError(this.name);
      return (results.at(-1)?.rows ?? []) as T[];
    };
  }

  async close(): Promise<void> {
    this.position.stop();
    await Promise.all([this.pages.end(), this.asker.end()]);
  }

  private async askPosition(): Promise<WalPosition | null> {
    const rows = (await this.asker.query<{ replayed: string | null }>(REPLAYED)).rows;
    const replayed = rows[0]?.replayed ?? null;
    return replayed === null ? null : walPositionOf(replayed);
  }
}
