import { processCpuMs } from './proc.js';
import { note } from './progress.js';
import { PgBouncerMissingError, startPgBouncer, type RunningPgBouncer } from '../tests/pooler/support/pgbouncer.js';

/**
 * The private PgBouncer of the bench: the test harness's (tests/pooler/support/pgbouncer.ts), in
 * pool_mode = transaction and otherwise at PgBouncer's defaults (default_pool_size 20, no
 * ignore_startup_parameters), in front of the bench database's server.
 */
export interface BenchPooler {
  readonly bouncer: RunningPgBouncer;
  /** The bench database's URL through PgBouncer. */
  readonly url: string;
}

/** Why the pooler runs were left out, when they were; null when they ran. */
export type PoolerSkipped = string | null;

/**
 * Starts it, or says why not: the bench is no test, so a missing binary or a PgBouncer that does not start
 * is a warning and the direct figures are still taken.
 */
export async function startBenchPooler(wanted: boolean, adminUrl: string, database: string): Promise<{ pooler: BenchPooler | null; skipped: PoolerSkipped }> {
  if (!wanted) return { pooler: null, skipped: '--no-pooler' };
  try {
    const bouncer = await startPgBouncer({ serverUrl: adminUrl });
    note(`bench: PgBouncer (transaction pooling, defaults) on 127.0.0.1:${bouncer.port}`);
    return { pooler: { bouncer, url: bouncer.urlOf(database) }, skipped: null };
  } catch (error) {
    // The harness's message names the path it looked at (PGBOUNCER_BINARY, else Debian's) and the package.
    const reason = error instanceof PgBouncerMissingError
      ? error.message
      : `PgBouncer did not start: ${error instanceof Error ? error.message : String(error)}`;
    note(`bench: WARNING: no pooler runs: ${reason}`);
    return { pooler: null, skipped: reason };
  }
}

/**
 * What PgBouncer saw of the bench database: that the pooled service's traffic went through it, and how long
 * clients waited. PgBouncer folds its counters into SHOW STATS once a stats_period (60 s at its defaults), so
 * the last minute of the run is mostly missing from them.
 */
export interface PoolerFigures {
  readonly statsNote: string;
  readonly transactions: number;
  readonly queries: number;
  /** Microseconds, PgBouncer's SHOW STATS: averages over the whole run. */
  readonly averageTransactionUs: number;
  readonly totalWaitUs: number;
  /** Log lines refusing a startup parameter: a client that transaction pooling cannot serve. None expected. */
  readonly refusedStartupParameters: readonly string[];
  readonly serverConnectionsAtEnd: number;
  /** CPU PgBouncer spent over the whole run (user + system), taken from the same two cores as everything else. */
  readonly cpuSeconds: number | null;
}

export async function poolerFigures(pooler: BenchPooler, database: string): Promise<PoolerFigures> {
  const stats = (await pooler.bouncer.console('SHOW STATS')).find((row) => row.database === database) ?? {};
  const pools = (await pooler.bouncer.showPools()).filter((row) => row.database === database);
  const n = (column: string) => Number(stats[column] ?? 0);
  return {
    statsNote: 'SHOW STATS as of PgBouncer\'s last stats_period (60 s): the last minute of the run is mostly missing',
    transactions: n('total_xact_count'),
    queries: n('total_query_count'),
    averageTransactionUs: n('avg_xact_time'),
    totalWaitUs: n('total_wait_time'),
    refusedStartupParameters: await pooler.bouncer.refusedStartupParameters(),
    serverConnectionsAtEnd: pools.reduce((sum, row) => sum + row.servers, 0),
    cpuSeconds: cpuSecondsOf(pooler.bouncer.pid),
  };
}

/** utime + stime of /proc/<pid>/stat (fields 14 and 15, in clock ticks of 1/100 s on Linux). */
function cpuSecondsOf(pid: number): number | null {
  try {
    return processCpuMs(pid) / 1_000;
  } catch {
    return null;
  }
}
