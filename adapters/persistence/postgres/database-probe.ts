import pg from 'pg';
import { pgConnectionOf } from './connection-fields.js';

/** How long the probe's question may go unanswered before its connection is given up (a new one next time). */
const PROBE_QUERY_TIMEOUT_MS = 10_000;

/**
 * A question to one database on a connection of its own, for readiness (`/readyz`, the feed consumer's wait
 * through an outage): `select 1` on a pool of one connection, apart from the pools of the requests. Busy
 * requests holding every pooled connection then cannot make a probe say "not ready" (the database answers; the
 * instance is busy, which a balancer must not read as down), and a probe never waits behind them. The connection
 * is opened at the first question and closed after 30 s without one; one that breaks (the server restarted) is
 * dropped, and the next question opens another. No session state: `select 1` in autocommit, as a transaction
 * pooler wants (ADR 15).
 */
export class DatabaseProbe {
  private readonly pool: pg.Pool;

  constructor(url: string, options: { readonly connectTimeoutMs: number; readonly onIdleError?: (error: Error) => void }) {
    this.pool = new pg.Pool({
      ...pgConnectionOf(url),
      max: 1,
      connectionTimeoutMillis: options.connectTimeoutMs,
      query_timeout: PROBE_QUERY_TIMEOUT_MS,
      idleTimeoutMillis: 30_000,
      allowExitOnIdle: true,
      application_name: 'integration-api readiness',
    });
    // An idle connection that breaks is reported on the pool (which drops it); unheard, the error would end the process.
    this.pool.on('error', (error) => options.onIdleError?.(error));
  }

  /** Whether the database answers; false for any failure (it is asked again next time, on a new connection). */
  async answers(): Promise<boolean> {
    try {
      await this.pool.query('select 1');
      return true;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
