import type pg from 'pg';
import { PgDatabase, type PgDatabaseSettings } from '../../../adapters/persistence/postgres/pg-database.js';

type Answer = pg.QueryResult | pg.QueryResult[];

/** What a test may put in front of a message: run it, or fail it as the line would, before it reaches the server. */
export type MessageFault = (text: string) => Error | undefined;

/**
 * A database whose every message to the server is written down as it goes (its text, values numbered when bound),
 * with the server process it went to, and may be failed before it is sent (`fail`). It overrides PgDatabase.query,
 * the one place the service's statements meet node-postgres, so it sees what the service sends and nothing else.
 */
export class RecordingDatabase extends PgDatabase {
  readonly messages: string[] = [];
  /** Set: the messages for which it answers an error are not sent, as a line that broke would fail them. */
  fail: MessageFault | undefined;

  constructor(settings: PgDatabaseSettings) {
    super(settings);
  }

  override query(client: pg.PoolClient, config: pg.QueryConfig): Promise<Answer> {
    this.messages.push(config.text);
    const failure = this.fail?.(config.text);
    if (failure !== undefined) return Promise.reject(failure);
    return super.query(client, config);
  }

  /** The messages sent from now on (the list is emptied). */
  watch(): string[] {
    this.messages.splice(0);
    return this.messages;
  }
}
