import { Command } from 'commander';
import { wholeNumber } from './whole-number.js';

export interface FeedBenchOptions {
  readonly quick: boolean;
  /** Events pre-published for each throughput run (one run of the service and one of the ceiling a round). */
  readonly events: number;
  readonly rounds: number;
  readonly companies: number;
  /** Per company, as `admin seed demo --vacancies`. */
  readonly vacancies: number;
  /** Per company, as `admin seed demo --candidates`. */
  readonly cards: number;
  /** FEED_PREFETCH of the service and of the ceiling; undefined: the service's default, unset. */
  readonly prefetch: number | undefined;
  /** DB_POOL_MAX of the service and of the ceiling; undefined: the service's default. */
  readonly pool: number | undefined;
  /** Events per second published during the latency run. */
  readonly rate: number;
  readonly latencySeconds: number;
  /** Seconds at the start of the latency run whose samples are not counted (the consumer's JIT warming up). */
  readonly latencyWarmup: number;
  /**
   * Seconds of publishing at --rate before the latency run, with the API and the consumer it measures, whose
   * figures are kept apart (a service warming up); the queue is drained before the run.
   */
  readonly warmSeconds: number;
  /** How often each poller asks GET /candidates?since=..., in ms. */
  readonly pollMs: number;
  /** Companies watched by a poller each. */
  readonly pollers: number;
  readonly skipLatency: boolean;
  readonly skipCeiling: boolean;
  /** DB_PREPARED_STATEMENTS=on for the service's consumer and API (ADR 22); the ceiling, which does not prepare, is not run. */
  readonly preparedStatements: boolean;
  readonly seed: number;
  readonly amqpUrl: string;
  readonly cpuProf: string | undefined;
  readonly out: string;
  readonly dataDir: string;
}

/** The full run's sizes, and --quick's (each used unless given on the command line). */
const FULL = { events: 20_000, rounds: 3, companies: 40, vacancies: 20, cards: 1_000, latencySeconds: 20, latencyWarmup: 3, warmSeconds: 20 };
const QUICK = { events: 3_000, rounds: 1, companies: 40, vacancies: 6, cards: 150, latencySeconds: 5, latencyWarmup: 1, warmSeconds: 3 };

export function parseFeedBenchOptions(argv: readonly string[]): FeedBenchOptions {
  const program = new Command('npm run bench:feed --')
    .description(
      'The platform feed\'s benchmark (issue 12). On a throwaway PostgreSQL database (DATABASE_URL\'s server, else 127.0.0.1:5432 ' +
        'if it answers, else an embedded one) it seeds companies with `admin seed demo`\'s code, then, on a RabbitMQ queue of its own ' +
        '(bench.feed.<pid>.<random>, deleted at the end):\n' +
        '  1. throughput: pre-publishes a realistic mix of events and measures the applied events per second of the compiled ' +
        'consumer (node bin/feed.js, as npm run feed) until the queue is drained and every event is recorded, against an in-run ' +
        'ceiling (bench/ceilings/feed-ceiling.ts: rabbitmq-client and pg applying each event with plain versioned SQL), alternating, in ' +
        'rounds, after a check that the ceiling leaves the same rows as the service for the same events;\n' +
        '  2. latency: publishes at a fixed rate while the consumer and the API (node bin/start.js) run, and measures the time from ' +
        'publishing a resume update to its first appearance in GET /candidates?since=<watermark>, polled with the company\'s key; ' +
        'then the same with the ceiling consuming (what the machine allows at the rate).\n' +
        'Prints a table on stdout, progress on stderr, and writes bench/results/feed-<date>.json. bench/README.md ("Feed") explains it.',
    )
    .option('--quick', `a short run: ${QUICK.events} events, ${QUICK.rounds} round, ${QUICK.companies} small companies, ${QUICK.latencySeconds} s of latency`, false)
    .option('--events <n>', `events per throughput run (default ${FULL.events}; --quick ${QUICK.events})`, wholeNumber(100, 1_000_000))
    .option('--rounds <n>', `rounds of service and ceiling runs; the median round's ratio is reported (default ${FULL.rounds}; --quick ${QUICK.rounds})`, wholeNumber(1, 20))
    .option('--companies <n>', `companies seeded (default ${FULL.companies})`, wholeNumber(1, 1_000))
    .option('--vacancies <n>', `vacancies per company (default ${FULL.vacancies}; --quick ${QUICK.vacancies})`, wholeNumber(5, 10_000))
    .option('--cards <n>', `cards per company (default ${FULL.cards}; --quick ${QUICK.cards})`, wholeNumber(20, 1_000_000))
    .option('--prefetch <n>', "FEED_PREFETCH of the service and the ceiling (default: the service's default, 202 within FEED_MAX_HELD_BYTES's default; more raises that budget to match)", wholeNumber(1, 1_000))
    .option('--pool <n>', "DB_POOL_MAX of the service and the ceiling (default: the service's default, 10)", wholeNumber(1, 100))
    .option('--rate <n>', 'events per second published during the latency run', wholeNumber(1, 100_000), 500)
    .option('--latency-seconds <n>', `seconds of publishing at --rate (default ${FULL.latencySeconds}; --quick ${QUICK.latencySeconds})`, wholeNumber(1, 3_600))
    .option('--latency-warmup <n>', `first seconds of the latency run whose samples are not counted (default ${FULL.latencyWarmup}; --quick ${QUICK.latencyWarmup})`, wholeNumber(0, 600))
    .option(
      '--warm-seconds <n>',
      `seconds of publishing at --rate before the latency run, to the API and consumer it measures (both new processes, whose JIT ` +
        `takes a tenth to a fifth of their CPU for about 15 s), reported apart; the queue is drained before the run; 0: none ` +
        `(default ${FULL.warmSeconds}; --quick ${QUICK.warmSeconds})`,
      wholeNumber(0, 600),
    )
    .option('--poll-ms <n>', 'interval of each poller of GET /candidates?since=...', wholeNumber(1, 10_000), 20)
    .option('--pollers <n>', 'companies watched for latency samples, one poller each', wholeNumber(1, 64), 4)
    .option('--skip-latency', 'measure throughput only', false)
    .option('--skip-ceiling', 'run the service only (no ratio, no latency of the ceiling)', false)
    .option(
      '--prepared-statements',
      'run the service with DB_PREPARED_STATEMENTS=on (ADR 22: its statements of a fixed text prepared once per connection, as on a direct ' +
        'connection); the ceiling, whose statements are not prepared, is not run, so there is no ratio',
      false,
    )
    .option('--seed <n>', 'seed of the data and event generators', wholeNumber(0, 4_294_967_295), 1)
    .option('--amqp-url <url>', 'the broker (default: FEED_URL, else amqp://guest:guest@127.0.0.1:5672)')
    .option('--cpu-prof <dir>', "write V8 CPU profiles of the service's consumer processes into this directory (summarise with bench/profile-summary.ts)")
    .option('--out <dir>', 'where the JSON results go', 'bench/results')
    .option('--data-dir <dir>', 'data directory of the embedded PostgreSQL, when no server is reachable', 'var/bench-postgres')
    .showHelpAfterError();
  program.parse([...argv], { from: 'user' });
  const o = program.opts<Partial<FeedBenchOptions> & { quick: boolean; skipLatency: boolean; skipCeiling: boolean; preparedStatements: boolean; amqpUrl?: string }>();
  const sizes = o.quick ? QUICK : FULL;
  return {
    quick: o.quick,
    events: o.events ?? sizes.events,
    rounds: o.rounds ?? sizes.rounds,
    companies: o.companies ?? sizes.companies,
    vacancies: o.vacancies ?? sizes.vacancies,
    cards: o.cards ?? sizes.cards,
    prefetch: o.prefetch,
    pool: o.pool,
    rate: o.rate as number,
    latencySeconds: o.latencySeconds ?? sizes.latencySeconds,
    latencyWarmup: o.latencyWarmup ?? sizes.latencyWarmup,
    warmSeconds: o.warmSeconds ?? sizes.warmSeconds,
    pollMs: o.pollMs as number,
    pollers: o.pollers as number,
    skipLatency: o.skipLatency,
    skipCeiling: o.skipCeiling || o.preparedStatements,
    preparedStatements: o.preparedStatements,
    seed: o.seed as number,
    amqpUrl: o.amqpUrl ?? (process.env.FEED_URL?.trim() || 'amqp://guest:guest@127.0.0.1:5672'),
    cpuProf: o.cpuProf,
    out: o.out as string,
    dataDir: o.dataDir as string,
  };
}
