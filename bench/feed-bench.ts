import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { EVENT_MAX_BYTES } from '../adapters/feed/feed-limits.js';
import { loadConfig } from '../infrastructure/config.js';
import { copyBenchDatabase, createBenchDatabase, dropBenchDatabase, openBenchServer, type BenchServer } from './bench-database.js';
import { BenchQueue } from './feed-broker.js';
import { FEED_MIX, FeedStream, type SeededCompany } from './feed-events.js';
import { latencyRun, type LatencyFigures } from './feed-latency.js';
import { parseFeedBenchOptions, type FeedBenchOptions } from './feed-options.js';
import { startConsumer, type ConsumerSpec } from './feed-process.js';
import { feedRows, summarize, writeFeedResults, type FeedRound } from './feed-results.js';
import { seedFeedCompanies } from './feed-seed.js';
import { commitOf, sourcesState } from './feed-sources.js';
import { sameRowsRun } from './feed-state-check.js';
import { throughputRun } from './feed-throughput.js';
import { note } from './progress.js';
import { formatTable, machineInfo } from './report.js';
import { startServer } from './server-process.js';

/** Cards of each watched company kept for latency samples (resume updates, in turn). */
const SAMPLE_CARDS = 200;
/** Events of the check that the ceiling leaves the same rows as the service (at most --events). */
const STATE_CHECK_EVENTS = 4_000;

async function main(): Promise<void> {
  const options = parseFeedBenchOptions(process.argv.slice(2));
  const started = Date.now();
  const machine = machineInfo();
  note(`bench:feed: ${machine.nproc} cores (${machine.cpu}), ${machine.memoryGb} GB, node ${machine.node}${options.quick ? ', --quick' : ''}`);
  const server = await openBenchServer(options.dataDir);
  const name = `bench_feed_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${process.pid}`;
  const cleanups: (() => Promise<unknown>)[] = [() => server.stop(), () => dropBenchDatabase(server, name)];
  const stopping = async (code: number) => {
    for (const cleanup of cleanups.splice(0)) await cleanup().catch((error: unknown) => note(`cleanup: ${String(error)}`));
    process.exit(code);
  };
  process.once('SIGINT', () => void stopping(130));
  process.once('SIGTERM', () => void stopping(143));
  try {
    note(`bench:feed: PostgreSQL from ${server.origin}, database ${name}`);
    // Migrated as the service migrates (migrateDatabases, what npm start and npm run feed run at start).
    const url = await createBenchDatabase(server, name);
    const seedStarted = Date.now();
    const companies = await seedFeedCompanies(url, { companies: options.companies, vacancies: options.vacancies, cards: options.cards, seed: options.seed });
    const seedSeconds = Math.round((Date.now() - seedStarted) / 1000);
    // The copy the ceiling applies the state check's events to (the service applies them to the original).
    const copy = options.skipCeiling ? null : { name: `${name}_ceiling`, url: await copyBenchDatabase(server, name, `${name}_ceiling`) };
    if (copy !== null) cleanups.unshift(() => dropBenchDatabase(server, copy.name));
    const queue = await BenchQueue.open(options.amqpUrl);
    cleanups.unshift(() => queue.close());
    note(`bench:feed: queue ${queue.name} on ${new URL(options.amqpUrl).host}`);
    const sourcesAtStart = sourcesState();
    if (sourcesAtStart.changed.length > 0) note(`bench:feed: the service is built from a working tree with uncommitted changes: ${sourcesAtStart.changed.join(', ')}`);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    cleanups.unshift(() => db.end());
    const measured = await measure(options, url, companies, queue, db, cleanups, { server, copy });
    const sourcesAtEnd = sourcesState();
    const sourcesChanged = sourcesAtEnd.fingerprint !== sourcesAtStart.fingerprint;
    if (sourcesChanged) note('bench:feed: WARNING: the sources changed during the run (bin/feed.js and bin/start.js rebuild dist/ when they start): runs may have measured different code');
    const summary = summarize(measured.rounds, measured.latency);
    const rows = feedRows(summary, measured.rounds, measured.latency, measured.sustainable, options.events, measured.prefetch, measured.ceilingLatency);
    process.stdout.write(`\n${formatTable(rows)}\n`);
    const path = await writeFeedResults(options.out, {
      date: new Date().toISOString(),
      commit: commitOf(),
      // Files other than bench/ that differed from the commit (the service is built from the working tree), and
      // whether they changed while the bench ran.
      uncommittedServiceChanges: sourcesAtStart.changed,
      serviceSourcesChangedDuringRun: sourcesChanged,
      machine,
      ...summary,
      database: { server: server.origin, name, companies: options.companies, vacanciesPerCompany: options.vacancies, cardsPerCompany: options.cards, seedSeconds },
      settings: {
        quick: options.quick, events: options.events, rounds: options.rounds, prefetch: measured.prefetch, poolMax: measured.poolMax,
        preparedStatements: options.preparedStatements,
        mixPercent: Object.fromEntries(FEED_MIX), companyWeights: 'company i (from 0) gets events in proportion to 1/sqrt(i + 1)', seed: options.seed,
        latency: { rate: options.rate, seconds: options.latencySeconds, warmupSeconds: options.latencyWarmup, warmSeconds: options.warmSeconds, pollMs: options.pollMs, pollers: options.pollers },
        cpuProfile: options.cpuProf ?? null,
      },
      eventsMade: measured.eventsMade,
      // The same events applied by the service and by the ceiling to copies of one database: the rows compared.
      stateCheck: measured.stateCheck,
      rounds: measured.rounds,
      latency: measured.latency,
      // The same measure during the warm-up before it (new processes compiling their code): not a result.
      latencyWhileWarming: measured.warming,
      latencyAtSustainableRate: measured.sustainable,
      // The same measure with the ceiling consuming (after its own warm-up): what this machine allows at the rate.
      ceilingLatency: measured.ceilingLatency,
      ceilingLatencyWhileWarming: measured.ceilingWarming,
      scenarios: rows,
      totalSeconds: Math.round((Date.now() - started) / 1000),
    });
    note(`bench:feed: results in ${path}; ${Math.round((Date.now() - started) / 1000)} s in all`);
    await stopping(0);
  } catch (error) {
    note(`bench:feed failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    await stopping(1);
  }
}

async function measure(
  options: FeedBenchOptions,
  url: string,
  companies: readonly SeededCompany[],
  queue: BenchQueue,
  db: pg.Client,
  cleanups: (() => Promise<unknown>)[],
  check: { readonly server: BenchServer; readonly copy: { readonly name: string; readonly url: string } | null },
) {
  // The service's defaults, given explicitly to both consumers (an FEED_PREFETCH or DB_POOL_MAX of the shell does not leak in).
  const defaults = loadConfig({});
  const prefetch = options.prefetch ?? defaults.feedPrefetch;
  const poolMax = options.pool ?? defaults.dbPoolMax;
  const watched = Array.from({ length: Math.min(options.pollers, companies.length) }, (_, i) => Math.floor((i * companies.length) / Math.min(options.pollers, companies.length)));
  const stream = new FeedStream(companies, { seed: options.seed, runTag: Date.now().toString(36), validate: true }, { companies: watched, cardsEach: SAMPLE_CARDS });
  // A --prefetch past the default budget gets the budget it needs (FEED_MAX_HELD_BYTES), as an operator would set it.
  const maxHeldBytes = Math.max(defaults.feedMaxHeldBytes, prefetch * EVENT_MAX_BYTES);
  const common = { FEED_URL: options.amqpUrl, FEED_QUEUE: queue.name, DATABASE_URL: url, FEED_PREFETCH: String(prefetch), FEED_MAX_HELD_BYTES: String(maxHeldBytes), DB_POOL_MAX: String(poolMax) };
  // The service's processes (consumer and API) with the setting given either way, so that the shell's cannot leak in.
  const prepared = { DB_PREPARED_STATEMENTS: options.preparedStatements ? 'on' : 'off' };
  const service: ConsumerSpec = {
    name: 'service',
    // What `npm run feed` runs: the compiled consumer (built first when dist/ is stale).
    script: 'bin/feed.js',
    env: { ...common, ...prepared, KEYS_DATABASE_URL: url, STORE: 'postgres', LOG_LEVEL: 'warn', METRICS: 'off' },
    nodeArgs: options.cpuProf === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', options.cpuProf],
  };
  const statsDir = await mkdtemp(join(tmpdir(), 'bench-feed-'));
  cleanups.unshift(() => rm(statsDir, { recursive: true, force: true }));
  const make = (label: string) => {
    const begun = Date.now();
    const events = stream.segment(label === 'state check' ? Math.min(options.events, STATE_CHECK_EVENTS) : options.events);
    note(`${label}: ${events.length} events made and checked in ${((Date.now() - begun) / 1000).toFixed(1)} s`);
    return events;
  };

  const ceilingSpecOf = (statsFile: string, databaseUrl = url): ConsumerSpec => ({
    name: 'ceiling',
    script: 'bench/ceilings/feed-ceiling.ts',
    env: { ...common, DATABASE_URL: databaseUrl, STATS_FILE: statsFile },
  });

  // The same events through the service (this database) and the ceiling (its copy): the rows must be the same.
  const copy = check.copy;
  const stateCheck = copy === null ? null : await sameRowsRun(make('state check'), queue, { db, url }, copy.url, {
    service: () => startConsumer(service, queue),
    ceiling: () => startConsumer(ceilingSpecOf(join(statsDir, 'ceiling-check.json'), copy.url), queue),
  });
  if (copy !== null) await dropBenchDatabase(check.server, copy.name);

  const rounds: FeedRound[] = [];
  for (let r = 1; r <= options.rounds; r++) {
    const label = `round ${r}/${options.rounds}`;
    await vacuum(db);
    const ours = await throughputRun(`${label} service`, make(`${label} service`), queue, db, () => startConsumer(service, queue));
    if (options.skipCeiling) {
      rounds.push({ service: ours, ceiling: null, ceilingOutcomes: null });
      continue;
    }
    await vacuum(db);
    const statsFile = join(statsDir, `ceiling-${r}.json`);
    const ceiling = await throughputRun(`${label} ceiling`, make(`${label} ceiling`), queue, db, () => startConsumer(ceilingSpecOf(statsFile), queue));
    const outcomes = JSON.parse(await readFile(statsFile, 'utf8').catch(() => 'null')) as FeedRound['ceilingOutcomes'];
    rounds.push({ service: ours, ceiling, ceilingOutcomes: outcomes });
    note(`${label}: service ${ours.eventsPerSecond} events/s, ceiling ${ceiling.eventsPerSecond} events/s, ratio ${(ours.eventsPerSecond / Math.max(ceiling.eventsPerSecond, 1)).toFixed(2)}`);
  }

  let latency: LatencyFigures | null = null;
  let warming: LatencyFigures | null = null;
  let sustainable: LatencyFigures | null = null;
  let ceilingLatency: LatencyFigures | null = null;
  let ceilingWarming: LatencyFigures | null = null;
  if (!options.skipLatency) {
    await vacuum(db);
    const api = await startServer({
      name: 'api',
      // What `npm start` runs, on the same database.
      script: 'bin/start.js',
      readyPath: '/readyz',
      env: { ...prepared, DATABASE_URL: url, KEYS_DATABASE_URL: url, STORE: 'postgres', RATE_LIMIT_POINTS: '1000000000', LOG_LEVEL: 'warn', METRICS: 'off' },
    });
    cleanups.unshift(() => api.stop());
    const watchedCompanies = watched.map((i) => companies[i] as SeededCompany);
    const database = (await db.query<{ name: string }>('select current_database() as name')).rows[0]?.name as string;
    const latencyAt = (consumer: { readonly pid: number }, rate: number, seconds = options.latencySeconds) =>
      latencyRun(stream.segment(rate * seconds), queue, api.origin, watchedCompanies, {
        rate, seconds, warmupSeconds: Math.min(options.latencyWarmup, seconds), pollMs: options.pollMs,
      }, {
        // The split compares PostgreSQL's clock with the bench's: only when both run on this machine.
        ...(onThisMachine(url) ? { lockTimes: (ids: readonly string[]) => lockTimesOf(db, ids) } : {}),
        cpuRoles: { consumerPid: consumer.pid, database, extra: new Map([[api.pid, 'api']]) },
      });
    const said = (figures: LatencyFigures) =>
      `p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms over ${figures.seen} of ${figures.samples} samples${figures.queueAtStart > 0 ? `, ${figures.queueAtStart} events queued at the start` : ''} (polls p50 ${figures.pollP50Ms} ms, p99 ${figures.pollP99Ms} ms; queue depth at most ${figures.maxQueueDepth})` +
      (figures.split === null ? '' : `; to the lock p50 ${figures.split.toLockP50Ms} ms, p99 ${figures.split.toLockP99Ms} ms, from the lock to visible p50 ${figures.split.afterLockP50Ms} ms, p99 ${figures.split.afterLockP99Ms} ms`) +
      (figures.cpu === null ? '' : `; machine ${figures.cpu.machineBusyPercent} % busy`);
    /**
     * The consumer warmed up and then measured at the rate. Both processes are new: V8 compiles their code for about
     * their first 15 s under load (a tenth to a fifth of their CPU, perf), which a running service has done long ago.
     * They warm up at the rate first; the run starts from an empty queue.
     */
    const warmedThenMeasured = async (label: string, consumer: { readonly pid: number }) => {
      let warm: LatencyFigures | null = null;
      if (options.warmSeconds > 0) {
        warm = await latencyAt(consumer, options.rate, options.warmSeconds);
        note(`latency of the ${label} while warming up at ${options.rate} events/s (not a result): ${said(warm)}`);
        await drained(queue);
      }
      const measured = await latencyAt(consumer, options.rate);
      note(`latency of the ${label} at ${options.rate} events/s: ${said(measured)}`);
      return { warm, measured };
    };
    const consumer = await startConsumer(service, queue);
    cleanups.unshift(() => consumer.stop());
    ({ warm: warming, measured: latency } = await warmedThenMeasured('service', consumer));
    // A consumer slower than the rate lets the queue grow, and the latency is then the backlog's. The same
    // measure at half the throughput measured above tells what the path itself takes (no target; a diagnostic).
    const throughputs = rounds.map((r) => r.service.eventsPerSecond).sort((a, b) => a - b);
    const median = throughputs[Math.floor(throughputs.length / 2)];
    if (latency.maxQueueDepth > 2 * prefetch && median !== undefined) {
      await drained(queue);
      const rate = Math.max(10, Math.floor(median / 20) * 10);
      sustainable = await latencyAt(consumer, rate);
      note(`latency at ${rate} events/s (half the measured throughput): ${said(sustainable)}`);
    }
    await drained(queue);
    await consumer.stop();
    // The same measure with the ceiling applying the events (the API and the pollers unchanged): what this machine
    // allows at the rate, the framework aside.
    if (!options.skipCeiling) {
      await vacuum(db);
      const ceiling = await startConsumer(ceilingSpecOf(join(statsDir, 'ceiling-latency.json')), queue);
      cleanups.unshift(() => ceiling.stop());
      ({ warm: ceilingWarming, measured: ceilingLatency } = await warmedThenMeasured('ceiling', ceiling));
      await drained(queue);
      await ceiling.stop();
    }
    await api.stop();
  }
  return { rounds, latency, warming, sustainable, ceilingLatency, ceilingWarming, prefetch, poolMax, eventsMade: stream.counts(), stateCheck };
}

/** Waits (two minutes at most) until the consumer has taken everything off the queue. */
async function drained(queue: BenchQueue): Promise<void> {
  const deadline = Date.now() + 120_000;
  let ready = (await queue.state()).ready;
  note(`latency: waiting for the consumer to catch up (${ready} events waiting)`);
  while (ready > 0 && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 250));
    ready = (await queue.state()).ready;
  }
  // The next run starts on a backlog: its figures say so (queueAtStart).
  if (ready > 0) note(`latency: WARNING: ${ready} events still waiting after two minutes; the next run starts with them`);
  // The last prefetch window.
  await new Promise((done) => setTimeout(done, 2_000));
}

/** Whether the database server runs on this machine (its clock is the bench's): a loopback address or a socket. */
function onThisMachine(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL WHATWG reads (`postgres://u@/db?host=/run/postgresql`): a socket if it names one, else not known.
    return /[?&]host=\//.test(url);
  }
  const host = parsed.searchParams.get('host') ?? parsed.hostname;
  return host === '' || host.startsWith('/') || ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host);
}

/** When each event's transaction took its company's lock: the ledger's applied_at, in epoch ms. */
async function lockTimesOf(db: pg.Client, eventIds: readonly string[]): Promise<ReadonlyMap<string, number>> {
  const { rows } = await db.query<{ event_id: string; at: number }>(
    'select event_id, (extract(epoch from applied_at) * 1000)::float8 as at from feed_applied_events where event_id = any($1::text[])',
    [eventIds],
  );
  return new Map(rows.map((row) => [row.event_id, row.at]));
}

/** Each run starts from tables vacuumed and analysed, whatever the previous run left for autovacuum. */
async function vacuum(db: pg.Client): Promise<void> {
  await db.query('vacuum analyze candidates, vacancies, boards, feed_applied_events, feed_entity_versions');
}

await main();
