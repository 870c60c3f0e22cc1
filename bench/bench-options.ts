import { Command } from 'commander';
import { wholeNumber } from './whole-number.js';

export interface BenchOptions {
  readonly vacancies: number;
  readonly candidates: number;
  readonly duration: number;
  readonly warmup: number;
  readonly connections: number;
  /** Throughput runs are repeated this many times, alternating servers; the median round is reported. */
  readonly rounds: number;
  readonly syncLimit: number;
  readonly seed: number;
  /** Keep the seeded database under this name and use it again next time (seeded once). */
  readonly reuseDb: string | undefined;
  /** With reuseDb: drop and seed it again even if it holds a complete seed. */
  readonly reseed: boolean;
  readonly cpuProf: string | undefined;
  /** Also measure a second service process whose connections go through a private PgBouncer (--no-pooler: not). */
  readonly pooler: boolean;
  /** Also measure the primary's work per list page with one streaming replica (--no-replica: not). */
  readonly replica: boolean;
  readonly out: string;
  readonly dataDir: string;
}

/**
 * The options every HTTP bench takes, their ranges in one place: the seed's sizes (defaults of the bench's own),
 * autocannon's runs, the rounds (`rounded` says what they repeat) and the embedded PostgreSQL's directory.
 */
export function withLoadOptions(command: Command, sizes: { readonly vacancies: number; readonly candidates: number }, rounded: string): Command {
  return command
    .option('--vacancies <n>', 'vacancies to seed', wholeNumber(5, 1_000_000), sizes.vacancies)
    .option('--candidates <n>', 'candidates to seed', wholeNumber(1_000, 10_000_000), sizes.candidates)
    .option('--duration <s>', 'seconds of each measured autocannon run', wholeNumber(1, 600), 5)
    .option('--warmup <s>', 'seconds of the warm-up run before each measured one', wholeNumber(0, 600), 2)
    .option('--rounds <n>', `rounds of ${rounded}; the median round is reported`, wholeNumber(1, 20), 3)
    .option('--connections <n>', 'autocannon connections of the throughput runs', wholeNumber(1, 1024), 32)
    .option('--data-dir <dir>', 'data directory of the embedded PostgreSQL, when no server is reachable', 'var/bench-postgres');
}

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const program = new Command('npm run bench --')
    .description(
      'Seeds a throwaway PostgreSQL database (DATABASE_URL\'s server, else 127.0.0.1:5432 if it answers, else an embedded one), ' +
        'starts the service as its own process and measures it with autocannon against two in-run ceilings: a bare node:http ' +
        'server answering recorded bytes, and node:http + pg running the SQL of the list queries and an unbatched insert per application (bench/README.md says where each differs from the service). Prints a table on stdout, progress on stderr, ' +
        'and writes bench/results/<date>.json. Lists, the full sync and new applications are also measured through a private PgBouncer ' +
        '(transaction pooling) by a second service process, next to the direct one (--no-pooler to skip).\n\nA quick run: npm run bench -- --candidates 20000 --vacancies 1000 --duration 3 --warmup 1',
    );
  withLoadOptions(program, { vacancies: 20_000, candidates: 1_000_000 }, 'the throughput runs, alternating the servers, and the identifier passes')
    .option('--sync-limit <n>', 'page size of the full sync', wholeNumber(1, 500), 500)
    .option('--seed <n>', 'seed of the data generator', wholeNumber(0, 4_294_967_295), 1)
    .option('--reuse-db <name>', 'keep the seeded database under this name and reuse it on later runs (seeded once, for the same sizes)')
    .option('--reseed', 'with --reuse-db: seed it afresh even when it holds a complete seed', false)
    .option('--no-pooler', 'skip the second service process behind a private PgBouncer (transaction pooling; Debian\'s /usr/sbin/pgbouncer)')
    .option('--no-replica', 'skip the replica stage (a private primary and streaming replica of Debian\'s PostgreSQL 15: the primary\'s work per list page with and without DATABASE_REPLICA_URLS)')
    .option('--cpu-prof <dir>', 'write a V8 CPU profile of the service process into this directory (node --cpu-prof)')
    .option('--out <dir>', 'where the JSON results go', 'bench/results')
    .showHelpAfterError();
  program.parse([...argv], { from: 'user' });
  const o = program.opts<BenchOptions & { reuseDb?: string; cpuProf?: string }>();
  if (o.reuseDb !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(o.reuseDb)) {
    program.error('--reuse-db: a database name of lowercase letters, digits and underscores');
  }
  return { ...o, reuseDb: o.reuseDb, cpuProf: o.cpuProf };
}
