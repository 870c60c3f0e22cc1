import pg from 'pg';
import { assertPostgresServerInstalled, startReplicaCluster, type ReplicaCluster } from '../tests/postgres/support/replica-cluster.js';
import { bulkSeed } from './bulk-seed.js';
import { processStats } from './proc.js';
import { note } from './progress.js';
import { newApplications } from './application-bodies.js';
import { listLoad, postLoad, type Settings, type Target } from './scenarios.js';
import { freePort, startServer, type ServerProcess } from './server-process.js';

/**
 * PostgreSQL 15 flushes an idle backend's table counters (pg_stat_database) at most every 10 s
 * (PGSTAT_IDLE_INTERVAL): the counters are read that long after the load has stopped.
 */
const STATS_FLUSH_MS = 11_000;
/** The replica stage seeds a database of its own: at most these sizes, since the work of a page does not grow with the table. */
const MAX_VACANCIES = 20_000;
const MAX_CANDIDATES = 200_000;

/** The primary's work while one list path was loaded, per answered request. */
export interface PrimaryWork {
  readonly requests: number;
  readonly requestsPerSecond: number;
  /** Rows the primary's backends read (pg_stat_database: tup_returned + tup_fetched). */
  readonly rowsReadPerRequest: number;
  /** Shared buffers the primary's statements touched (pg_stat_statements: hit + read). */
  readonly blocksPerRequest: number;
  /** CPU of the primary's processes (its postmaster's children, /proc), in ms. */
  readonly cpuMsPerRequest: number;
  /** Statements the primary ran (pg_stat_statements calls). */
  readonly statementsPerRequest: number;
}

export interface ReplayDelay {
  readonly samples: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly applicationsPerSecond: number;
}

export interface ReplicaReadFigures {
  readonly vacancies: { readonly primaryOnly: PrimaryWork; readonly withReplica: PrimaryWork };
  readonly candidates: { readonly primaryOnly: PrimaryWork; readonly withReplica: PrimaryWork };
  /** How long the replica took to replay up to a position just read on the primary, under POST /applications load. */
  readonly replayDelay: ReplayDelay;
  /** The replica service's own metrics after the runs: pages per copy and fallbacks per reason. */
  readonly replicaServiceMetrics: string[];
  readonly seed: { readonly vacancies: number; readonly candidates: number };
}

/**
 * Issue 44: the primary's work per list page with one streaming replica against without, on a private primary and
 * replica (Debian's PostgreSQL 15, pg_basebackup -R) seeded for this stage; both services run side by side, on the
 * same primary, measured one after the other. Both copies share this machine's cores: requests per second are
 * reported, not judged.
 */
export async function measureReplicaReads(settings: Settings, sizes: { vacancies: number; candidates: number; seed: number }, cleanups: (() => Promise<void>)[]): Promise<ReplicaReadFigures | { readonly skipped: string }> {
  try {
    assertPostgresServerInstalled();
  } catch (error) {
    return { skipped: (error as Error).message };
  }
  const cluster = await startReplicaCluster({ sharedPreload: 'pg_stat_statements' });
  cleanups.unshift(() => cluster.stop());
  await onPrimary(cluster, (client) => client.query('create extension if not exists pg_stat_statements'));
  const seedSizes = { vacancies: Math.min(sizes.vacancies, MAX_VACANCIES), candidates: Math.min(sizes.candidates, MAX_CANDIDATES), seed: sizes.seed };
  note(`bench: replica stage: seeding a private primary (${seedSizes.vacancies} vacancies, ${seedSizes.candidates} candidates)`);
  const seed = await bulkSeed(cluster.primaryUrl, seedSizes);
  await cluster.caughtUp();
  const env = (extra: Record<string, string>) => ({
    DATABASE_URL: cluster.primaryUrl, KEYS_DATABASE_URL: cluster.primaryUrl, STORE: 'postgres', RATE_LIMIT_POINTS: '1000000000', LOG_LEVEL: 'warn', MANAGEMENT_PORT: '0', ...extra,
  });
  const start = async (name: string, extra: Record<string, string>): Promise<ServerProcess> => {
    const server = await startServer({ name, script: 'bin/start.js', readyPath: '/readyz', env: env(extra) });
    cleanups.unshift(() => server.stop());
    return server;
  };
  const metricsPort = await freePort();
  const alone = await start('service (primary only)', { METRICS: 'off' });
  const replicated = await start('service (one replica)', { DATABASE_REPLICA_URLS: cluster.replicaUrl, METRICS: 'on', METRICS_PORT: String(metricsPort) });
  const headers = { 'x-api-key': seed.key };
  const measure = async (server: ServerProcess, path: string) => primaryWork(cluster, { server, headers }, path, settings);
  const figures = {
    vacancies: { primaryOnly: await measure(alone, '/vacancies?limit=100'), withReplica: await measure(replicated, '/vacancies?limit=100') },
    candidates: { primaryOnly: await measure(alone, '/candidates?limit=100'), withReplica: await measure(replicated, '/candidates?limit=100') },
  };
  const replayDelay = await measureReplayDelay(cluster, { server: replicated, headers }, settings);
  const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  await Promise.all([alone.stop(), replicated.stop()]);
  await cluster.stop();
  return {
    ...figures,
    replayDelay,
    replicaServiceMetrics: metrics.split('\n').filter((line) => /^integration_api_(list_pages_total|list_page_fallbacks_total|replica_lag_bytes)/.test(line)),
    seed: { vacancies: seedSizes.vacancies, candidates: seedSizes.candidates },
  };
}

/**
 * DB_REPLICA_WAIT_MS's measure: under a write load (new applications, the commonest write), every 20 ms the
 * primary's position is read and the replica asked (every millisecond) until it has replayed that far.
 */
async function measureReplayDelay(cluster: ReplicaCluster, target: Target, settings: Settings): Promise<ReplayDelay> {
  note('bench: replica stage: replay delay under POST /applications');
  const vacancyId = await onPrimary(cluster, async (client) => (await client.query<{ id: string }>("select id from vacancies where status = 'open' limit 1")).rows[0]?.id);
  if (vacancyId === undefined) throw new Error('the replica stage\'s seed has no open vacancy');
  const [primary, replica] = [new pg.Client({ connectionString: cluster.primaryUrl }), new pg.Client({ connectionString: cluster.replicaUrl })];
  await Promise.all([primary.connect(), replica.connect()]);
  const delays: number[] = [];
  let loading = true;
  const load = postLoad(target, { ...settings, warmupS: 0 }, 'new (replay delay)', { body: newApplications(vacancyId) }).finally(() => (loading = false));
  try {
    while (loading) {
      const position = (await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')).rows[0]?.lsn as string;
      const asked = performance.now();
      while (!(await replica.query<{ done: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [position])).rows[0]?.done) {
        await new Promise((done) => setTimeout(done, 1));
      }
      delays.push(performance.now() - asked);
      await new Promise((done) => setTimeout(done, 20));
    }
  } finally {
    await Promise.all([primary.end(), replica.end()]);
  }
  const figures = await load;
  const sorted = delays.sort((a, b) => a - b);
  const at = (q: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 100) / 100;
  return { samples: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1), applicationsPerSecond: figures.requestsPerSecond };
}

async function primaryWork(cluster: ReplicaCluster, target: Target, path: string, settings: Settings): Promise<PrimaryWork> {
  note(`bench: replica stage: ${target.server.name} GET ${path}`);
  // Warm both copies' caches and the pools first, outside the counted window.
  await listLoad(target, path, { ...settings, durationS: Math.max(1, settings.warmupS), warmupS: 0 });
  await new Promise((done) => setTimeout(done, STATS_FLUSH_MS));
  const pid = await cluster.primaryPid();
  const before = { counters: await counters(cluster), cpuMs: primaryCpuMs(pid) };
  const load = await listLoad(target, path, { ...settings, warmupS: 0 });
  const cpuMs = primaryCpuMs(pid) - before.cpuMs;
  await new Promise((done) => setTimeout(done, STATS_FLUSH_MS));
  const after = await counters(cluster);
  const per = (value: number) => Math.round((value / Math.max(1, load.requests)) * 1000) / 1000;
  return {
    requests: load.requests,
    requestsPerSecond: load.requestsPerSecond,
    rowsReadPerRequest: per(after.rows - before.counters.rows),
    blocksPerRequest: per(after.blocks - before.counters.blocks),
    cpuMsPerRequest: per(cpuMs),
    statementsPerRequest: per(after.calls - before.counters.calls),
  };
}

/** The primary's counters of the bench database (`postgres`) and its statements (this query's own included, twice: negligible). */
async function counters(cluster: ReplicaCluster): Promise<{ rows: number; blocks: number; calls: number }> {
  return onPrimary(cluster, async (client) => {
    const rows = await client.query<{ rows: string; blocks: string; calls: string }>(
      `select (select tup_returned + tup_fetched from pg_stat_database where datname = current_database())::text as rows,
              (select coalesce(sum(shared_blks_hit + shared_blks_read), 0) from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database()))::text as blocks,
              (select coalesce(sum(calls), 0) from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database()))::text as calls`,
    );
    const row = rows.rows[0] as { rows: string; blocks: string; calls: string };
    return { rows: Number(row.rows), blocks: Number(row.blocks), calls: Number(row.calls) };
  });
}

async function onPrimary<T>(cluster: ReplicaCluster, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: cluster.primaryUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** CPU time of the postmaster and its children (backends, WAL sender, background workers), in ms. */
function primaryCpuMs(postmaster: number): number {
  return processStats()
    .filter((stat) => stat.pid === postmaster || stat.ppid === postmaster)
    .reduce((total, stat) => total + stat.cpuMs, 0);
}

/** The stage's figures as lines for stdout: the primary's work per page without and with the replica, and the ratio. */
export function replicaSummary(figures: ReplicaReadFigures | { readonly skipped: string }): string {
  if ('skipped' in figures) return `Replica stage skipped: ${figures.skipped}`;
  const line = (name: string, { primaryOnly: a, withReplica: b }: ReplicaReadFigures['vacancies']) =>
    `${name}: req/s ${a.requestsPerSecond} -> ${b.requestsPerSecond}; primary per page: rows ${a.rowsReadPerRequest} -> ${b.rowsReadPerRequest}` +
    ` (${ratio(b.rowsReadPerRequest, a.rowsReadPerRequest)}), CPU ms ${a.cpuMsPerRequest} -> ${b.cpuMsPerRequest} (${ratio(b.cpuMsPerRequest, a.cpuMsPerRequest)}),` +
    ` blocks ${a.blocksPerRequest} -> ${b.blocksPerRequest}, statements ${a.statementsPerRequest} -> ${b.statementsPerRequest}`;
  return [`Replica stage (${figures.seed.vacancies} vacancies, ${figures.seed.candidates} candidates; primary only -> one replica):`,
    line('GET /vacancies?limit=100', figures.vacancies), line('GET /candidates?limit=100', figures.candidates),
    `replay delay under ${figures.replayDelay.applicationsPerSecond} new applications/s: p50 ${figures.replayDelay.p50Ms} ms, p99 ${figures.replayDelay.p99Ms} ms, max ${figures.replayDelay.maxMs} ms (${figures.replayDelay.samples} samples)`,
    ...figures.replicaServiceMetrics].join('\n');
}

function ratio(part: number, whole: number): string {
  return whole === 0 ? 'n/a' : `${Math.round((part / whole) * 1000) / 1000} of it`;
}
