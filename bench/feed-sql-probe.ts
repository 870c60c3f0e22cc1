import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { pino } from 'pino';
import { PlatformEventHandler } from '../adapters/feed/platform-event-handler.js';
import { parsePlatformEvent } from '../adapters/feed/platform-event-parser.js';
import type { PlatformChangeType } from '../application/use-cases/platform-change.js';
import { loadConfig } from '../infrastructure/config.js';
import { buildContainer, disposeContainer } from '../infrastructure/container/build-container.js';
import { resolve } from '../infrastructure/container/typed-binding.js';
import { USE_CASES } from '../infrastructure/container/use-case.tokens.js';
import type { Container } from 'inversify';
import { withEntityManager } from '../adapters/persistence/postgres/transaction-scope.js';
import { executeInlined } from '../adapters/persistence/postgres/direct-statement.js';
import { UNIT_OF_WORK } from '../application/ports/unit-of-work.port.js';
import { POSTGRES_DATABASES } from '../infrastructure/container/infrastructure.tokens.js';
import { createBenchDatabase, dropBenchDatabase, openBenchServer } from './bench-database.js';
import { applyEvent, type CeilingEvent } from './ceilings/feed-ceiling-apply.js';
import { FEED_MIX, FeedStream, type FeedEvent, type SeededCompany } from './feed-events.js';
import { seedFeedCompanies } from './feed-seed.js';
import { note } from './progress.js';

/**
 * `npx tsx bench/feed-sql-probe.ts [--all]`: the SQL the feed's consumer sends for each event type of the
 * bench's mix. On a throwaway database, two companies are seeded alike; the consumer's own handler
 * (PlatformEventHandler over ApplyPlatformEvent, on a container built from the settings `npm run feed` reads)
 * takes the events of one, in this process, while every call of pg's Client.query is recorded: the text as it
 * goes to the server (values inlined by MikroORM, the SET LOCAL prefix of ADR 15 included). Prints each
 * distinct path of each type (its statements, literals as `?`, or whole with --all). `--cpu N` then times this
 * process's CPU per event of each type for the service and for the feed ceiling (bench/ceilings/
 * feed-ceiling-apply.ts, on the other company: two streams of one seed) (cpuPerEvent), and what the unit of
 * work and MikroORM add to a transaction and to a statement (frameworkCost).
 */
const USAGE = `Usage: npx tsx bench/feed-sql-probe.ts [--all] [--cpu N]

The SQL the feed's consumer sends for each event type of the bench's mix. Runs on a throwaway database of
DATABASE_URL's server (else 127.0.0.1:5432, else an embedded one), dropped at the end.

Options:
  --all      print each statement whole (default: literals as ?)
  --cpu N    then N events of each type one after another, timing this process's CPU per event for the service
             and the ceiling, and what the unit of work and MikroORM add to a transaction and a statement
  -h, --help this text
`;
const { full, cpuEvents } = (() => {
  try {
    const { values } = parseArgs({ options: { all: { type: 'boolean' }, cpu: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
    if (values.help === true) {
      process.stdout.write(USAGE);
      process.exit(0);
    }
    const cpu = values.cpu === undefined ? 0 : Number(values.cpu);
    if (values.cpu !== undefined && (!Number.isInteger(cpu) || cpu < 1)) throw new Error(`--cpu takes a whole number of events, at least 1 (got ${JSON.stringify(values.cpu)})`);
    return { full: values.all === true, cpuEvents: cpu };
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
})();

const EVENTS_PER_TYPE = 6;

interface Recorded {
  text: string;
  values: number;
}
let recording: Recorded[] | null = null;

// knex loads the top-level pg; MikroORM's own copy serves only its type parsers. Both are wrapped.
const mikroPg = createRequire(createRequire(import.meta.url).resolve('@mikro-orm/postgresql'))('pg') as typeof pg;
for (const Client of new Set([pg.Client, mikroPg.Client])) {
  const original = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function probe(this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; values?: unknown[] };
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    // (text, callback) as the statement bounds' hook sends a text alone, or (text, values, callback).
    const values = typeof first === 'string' ? (Array.isArray(args[1]) ? args[1].length : 0) : (first?.values?.length ?? 0);
    recording?.push({ text, values });
    return original.apply(this, args);
  } as typeof Client.prototype.query;
}

interface Run {
  readonly outcome: string;
  readonly statements: readonly Recorded[];
}

async function run(handler: PlatformEventHandler, event: FeedEvent): Promise<Run & { readonly type: string }> {
  recording = [];
  const decision = await handler.handle({ body: Buffer.from(event.body), attempt: 0 });
  const statements = recording;
  recording = null;
  return { type: event.type, outcome: decision.action === 'ack' ? decision.outcome : `${decision.action} ${decision.reason}`, statements };
}

/** A statement with its literals (strings, numbers) replaced by `?`: the same shape whatever the values. */
function shape(statement: Recorded): string {
  return statement.text.replace(/\s+/g, ' ').trim().replace(/'(?:[^']|'')*'/g, '?').replace(/\b(\d+(\.\d+)?|NULL|true|false)\b/g, '?');
}

function print(title: string, runs: readonly Run[], of: number): void {
  const sample = runs[0] as Run;
  process.stdout.write(`\n## ${title}: ${sample.outcome}, ${sample.statements.length} round trips (${runs.length} of ${of} events took this path)\n`);
  for (const statement of sample.statements) {
    const text = full ? statement.text.replace(/\s+/g, ' ').trim() : shape(statement);
    process.stdout.write(`- ${full ? text : text.slice(0, 200)}${statement.values > 0 ? `  [${statement.values} bound values]` : ''}\n`);
  }
}

/**
 * This process's CPU (process.cpuUsage: user + system) per event, by type: the service's handler (parse with
 * ajv, then ApplyPlatformEvent through MikroORM), the parse alone, and the ceiling's SQL, each on events taken
 * one at a time (PostgreSQL's own work is in its processes, not counted here).
 */
async function cpuPerEvent(
  handler: PlatformEventHandler,
  ceiling: (event: CeilingEvent) => Promise<string>,
  ours: FeedStream,
  theirs: FeedStream,
): Promise<void> {
  const cpuMs = async (work: () => Promise<void>) => {
    const before = process.cpuUsage();
    await work();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };
  // JIT and caches warmed on a few events of each type first, not counted.
  for (const [type] of FEED_MIX) {
    if (type === 'vacancy.deleted') continue;
    for (let i = 0; i < 20; i++) {
      await handler.handle({ body: Buffer.from(ours.nextOf(type).body), attempt: 0 });
      await ceiling(JSON.parse(theirs.nextOf(type).body) as CeilingEvent);
    }
    ours.settle();
    theirs.settle();
  }
  process.stdout.write(`\n## this process's CPU per event, ms (${cpuEvents} events of each type, one at a time)\n`);
  process.stdout.write('| type | service: parse + apply | of which parse (ajv) | ceiling | service - ceiling |\n|---|---:|---:|---:|---:|\n');
  for (const [type] of FEED_MIX) {
    // Few vacancies to delete (each needs a cool-down in the stream): fewer of those.
    const count = type === 'vacancy.deleted' ? Math.min(10, cpuEvents) : cpuEvents;
    const served = Array.from({ length: count }, () => ours.nextOf(type));
    const ceiled = Array.from({ length: count }, () => theirs.nextOf(type));
    const service = await cpuMs(async () => {
      for (const event of served) await handler.handle({ body: Buffer.from(event.body), attempt: 0 });
    });
    const parse = await cpuMs(async () => {
      for (const event of served) parsePlatformEvent(Buffer.from(event.body));
    });
    const minimal = await cpuMs(async () => {
      for (const event of ceiled) await ceiling(JSON.parse(event.body) as CeilingEvent);
    });
    const per = (ms: number) => (ms / count).toFixed(3);
    process.stdout.write(`| ${type} | ${per(service)} | ${per(parse)} | ${per(minimal)} | ${per(service - minimal)} |\n`);
    ours.settle();
    theirs.settle();
  }
}

/**
 * What the framework adds to a transaction and to a statement, in this process's CPU: a unit of work of the
 * company (BEGIN, the lock and the clock, COMMIT, as MikroOrmUnitOfWork sends them) against the same three statements
 * sent by pg, each empty and then with ten `select 1` (executeInlined through the repositories' withEntityManager,
 * or pg's client.query).
 */
async function frameworkCost(container: Container, pool: pg.Pool, companyId: string): Promise<void> {
  const unitOfWork = resolve(container, UNIT_OF_WORK);
  const orm = resolve(container, POSTGRES_DATABASES).business;
  const rounds = 300;
  const cpuMsEach = async (work: () => Promise<unknown>) => {
    for (let i = 0; i < 30; i++) await work();
    const before = process.cpuUsage();
    for (let i = 0; i < rounds; i++) await work();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / rounds;
  };
  const raw = (statements: number) => async () => {
    const client = await pool.connect();
    try {
      await client.query('set local statement_timeout = 10000; set local idle_in_transaction_session_timeout = 30000; BEGIN TRANSACTION ISOLATION LEVEL read committed;');
      await client.query(
        `with locked as materialized (select pg_advisory_xact_lock(1212764741, hashtext('${companyId}'))) select floor(extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms from locked`,
      );
      for (let i = 0; i < statements; i++) await client.query('select 1');
      await client.query('COMMIT;');
    } finally {
      client.release();
    }
  };
  const framed = (statements: number) => () =>
    unitOfWork.run(companyId, 'write', async () => {
      for (let i = 0; i < statements; i++) await withEntityManager(orm, (em) => executeInlined(em, 'select 1'));
    });
  // Five times each, alternating, and the median: single figures of this size move by a third from run to run.
  const taken: number[][] = [[], [], [], []];
  for (let repeat = 0; repeat < 5; repeat++) {
    for (const [i, work] of [raw(0), raw(10), framed(0), framed(10)].entries()) taken[i]?.push(await cpuMsEach(work));
  }
  const [rawEmpty, rawTen, framedEmpty, framedTen] = taken.map((figures) => [...figures].sort((a, b) => a - b)[2] as number) as [number, number, number, number];
  process.stdout.write(`\n## this process's CPU, ms (medians of 5 times ${rounds} of each, one at a time)\n`);
  process.stdout.write('| | pg directly | unit of work, executeInlined |\n|---|---:|---:|\n');
  process.stdout.write(`| a write transaction: BEGIN, lock and clock, COMMIT | ${rawEmpty.toFixed(3)} | ${framedEmpty.toFixed(3)} |\n`);
  process.stdout.write(`| each statement in it (select 1) | ${((rawTen - rawEmpty) / 10).toFixed(3)} | ${((framedTen - framedEmpty) / 10).toFixed(3)} |\n`);
}

async function main(): Promise<void> {
  const server = await openBenchServer('var/bench-postgres');
  const name = `bench_feed_probe_${process.pid}`;
  try {
    const url = await createBenchDatabase(server, name);
    // Two companies seeded alike, each with its own stream of the same seed: the service's handler takes the
    // events of one, the ceiling (--cpu) the same events of the other, so both take the same paths.
    const sizes = cpuEvents > 0 ? { companies: 1, vacancies: 30, cards: Math.max(400, cpuEvents * 3), seed: 7 } : { companies: 1, vacancies: 8, cards: 60, seed: 7 };
    const served = await seedFeedCompanies(url, sizes);
    const ceiled = await seedFeedCompanies(url, sizes);
    const ours = new FeedStream(served, { seed: 7, runTag: `probe${process.pid}s`, validate: true });
    const theirs = new FeedStream(ceiled, { seed: 7, runTag: `probe${process.pid}c`, validate: true });
    const config = loadConfig({ ...process.env, DATABASE_URL: url, KEYS_DATABASE_URL: url, STORE: 'postgres', LOG_LEVEL: 'warn' });
    const container = await buildContainer({ config, logger: pino({ level: 'warn' }) });
    const pool = new pg.Pool({ connectionString: url, max: config.dbPoolMax });
    try {
      const handler = new PlatformEventHandler(resolve(container, USE_CASES.applyPlatformEvent), { maxAttempts: config.feedMaxAttempts });
      const ceiling = (event: CeilingEvent) => applyEvent(pool, event);
      // The ceiling takes the same events of the other company, so that both streams stay alike for --cpu.
      const both = async (type: PlatformChangeType) => {
        const service = await run(handler, ours.nextOf(type));
        await ceiling(JSON.parse(theirs.nextOf(type).body) as CeilingEvent);
        return service;
      };
      // The first event of a company also reads the company (once per process): taken first, shown apart.
      print('first event of the process for a company (candidate.moved)', [await both('candidate.moved')], 1);
      ours.settle();
      theirs.settle();
      for (const [type] of FEED_MIX) {
        // Several events of each type, and each distinct path (sequence of statements) once.
        const paths = new Map<string, Run[]>();
        for (let i = 0; i < EVENTS_PER_TYPE; i++) {
          const taken = await both(type);
          // Keyed by the type made: a vacancy deletion may fall back to a card's (bench/feed-events.ts).
          const key = `${taken.type}|${taken.outcome}|${taken.statements.map(shape).join('|')}`;
          paths.set(key, [...(paths.get(key) ?? []), taken]);
        }
        for (const runs of paths.values()) print((runs[0] as Run & { type: string }).type, runs, EVENTS_PER_TYPE);
      }
      ours.settle();
      theirs.settle();
      if (cpuEvents > 0) {
        await cpuPerEvent(handler, ceiling, ours, theirs);
        await frameworkCost(container, pool, (served[0] as SeededCompany).id);
      }
    } finally {
      await pool.end();
      await disposeContainer(container);
    }
  } finally {
    await dropBenchDatabase(server, name).catch((error: unknown) => note(`drop ${name}: ${String(error)}`));
    await server.stop();
  }
}

await main();
