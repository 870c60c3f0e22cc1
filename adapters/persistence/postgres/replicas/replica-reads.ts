import type { PgDatabase } from '../pg-database.js';
import { executeInlined } from '../pg-statements.js';
import { inlinedValues } from '../sql-values.js';
import { PgReplica } from './pg-replica.js';
import { ReplicaRouter } from './replica-router.js';
import { walPositionOf } from './wal-position.js';

export interface ReplicaReadsSettings {
  /** DATABASE_REPLICA_URLS, in order: named `replica-1`, `replica-2`, … in the metrics. */
  readonly urls: readonly string[];
  /** DB_REPLICA_WAIT_MS. */
  readonly waitMs: number;
  readonly poolMax: number;
  readonly statementMs: number;
  readonly connectMs: number;
  /** A replica's failed question or page, for the log (the read itself goes on, on the primary). */
  readonly onReplicaError?: (replica: string, error: unknown) => void;
}

/** Between two questions for a replica's position while no page waits for it (ADR 26). */
export const IDLE_REFRESH_MS = 100;
/** Between two questions while pages wait: at most one in flight per replica either way. */
export const BUSY_REFRESH_MS = 1;
/** Between two readings of the primary's own position, for the lag metric while no page is read. */
const PRIMARY_POSITION_MS = 1_000;

/**
 * The replicas of DATABASE_REPLICA_URLS for the business database (`primary`), started and closed together:
 * their pools and shared positions, the router the list repositories take, and the primary's position read
 * once a second for the lag metric.
 */
export class ReplicaReads {
  readonly router: ReplicaRouter;
  private readonly replicas: PgReplica[];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(primary: PgDatabase, settings: ReplicaReadsSettings) {
    this.replicas = settings.urls.map(
      (url, index) =>
        new PgReplica({
          name: `replica-${index + 1}`,
          url,
          poolMax: settings.poolMax,
          statementMs: settings.statementMs,
          connectMs: settings.connectMs,
          inline: inlinedValues,
          position: { idleRefreshMs: IDLE_REFRESH_MS, busyRefreshMs: BUSY_REFRESH_MS, onError: (error) => settings.onReplicaError?.(`replica-${index + 1}`, error) },
          onIdleError: (error) => settings.onReplicaError?.(`replica-${index + 1}`, error),
        }),
    );
    const notePrimary = () =>
      executeInlined<{ position: string }>({ db: primary, transaction: undefined }, 'select pg_current_wal_lsn()::text as position').then(
        (rows) => rows[0] !== undefined && this.router.notePrimaryPosition(walPositionOf(rows[0].position)),
        () => undefined,
      );
    // From the first page on: a process that reads no list asks neither the replicas nor the primary.
    const startAsking = () => {
      if (this.closed) return;
      this.timer = setInterval(() => void notePrimary(), PRIMARY_POSITION_MS);
      this.timer.unref();
    };
    this.router = new ReplicaRouter(this.replicas, {
      waitMs: settings.waitMs,
      onFirstRead: startAsking,
      ...(settings.onReplicaError === undefined ? {} : { onPageError: settings.onReplicaError }),
    });
  }

  /** Pages per copy, fallbacks per reason, lags: the router's counts. */
  get stats(): ReplicaRouter {
    return this.router;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await Promise.all(this.replicas.map((replica) => replica.close()));
  }
}
