import type { DatabasePoolStatsSource, ReplicaReadStats } from '../../adapters/http/metrics/http-metrics.js';
import { portToken } from '../../application/ports/port-token.js';

/**
 * How busy the connection pools are, for GET /metrics. A store profile with pools binds it (postgres: from
 * the knex/tarn pool of each MikroORM instance); the memory profile binds nothing and no pool series appear.
 */
export const DATABASE_POOL_STATS = portToken<DatabasePoolStatsSource>('DatabasePoolStats');

/** Pages per copy, fallbacks per reason and each replica's lag (ADR 26): bound only when DATABASE_REPLICA_URLS is set. */
export const REPLICA_READ_STATS = portToken<ReplicaReadStats>('ReplicaReadStats');
