import { machineCpuTicks, processCpuMs, processStats } from './proc.js';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { applicationBody, BENCH_EXTERNAL_ID_PREFIX, newApplications } from './application-bodies.js';
import { openBenchServer, readSeedRecord } from './bench-database.js';
import { measure, round, type LoadFigures } from './load.js';
import { note } from './progress.js';
import { API } from './scenarios.js';
import { startServer, type ServerProcess } from './server-process.js';

/**
 * POST /applications alone, for working on it (issue 13): the compiled service (optionally under
 * `--cpu-prof`, so that the profile holds nothing but POSTs) against the one-statement ceiling, new
 * applications and duplicates in alternating rounds (or one kind, or a mix of both, `--only`), on a database
 * that `npm run bench -- --reuse-db NAME` seeded. Not the bench of record: `npm run bench` is. Per round it
 * prints both servers' req/s and the ratio, each server's CPU time per request (its process only: the
 * service's main thread and its helpers, not PostgreSQL's), how busy its main thread was (near 1 it is the
 * limit), PostgreSQL's CPU time per request (every process named postgres), the load generator's (this
 * process), the database's transactions per request (pg_stat_database) and how idle the machine was
 * (`/proc/stat`: well above 0, the requests wait rather than the cores being short; ADR 21).
 *
 * Usage: npx tsx bench/post-probe.ts DBNAME [--rounds 3] [--duration 3] [--warmup 1] [--connections 32] [--cpu-prof DIR] [--only new|duplicate|mixed]
 */
interface ProbeOptions {
  readonly database: string;
  readonly rounds: number;
  readonly duration: number;
  readonly warmup: number;
  readonly connections: number;
  readonly cpuProf: string | undefined;
  /** Only this kind of request: 'new', 'duplicate' or 'mixed' (default: new and duplicate, alternating). */
  readonly only: string | undefined;
}

const USAGE = `Usage: npx tsx bench/post-probe.ts DBNAME [options]

POST /applications on the compiled service against the one-statement ceiling, on a database that
\`npm run bench -- --reuse-db DBNAME\` seeded; per round both servers' req/s and ratio, the CPU time a request
of each server, of PostgreSQL and of the load generator, how busy each server's main thread was, how idle the
machine was, and transactions a request. For working on issue 13: not the bench of record. The idle share is
the whole machine's (/proc/stat), whatever else runs on it, and knows nothing of a container's CPU quota.

Options:
  --rounds N        rounds (default 3)
  --duration S      seconds measured a server and kind of request (default 3; at least 0.5)
  --warmup S        seconds of warm-up before each (default 1; 0: none)
  --connections N   connections of the load generator (default 32)
  --only KIND       new, duplicate or mixed (a fifth of the requests repeat a stored application, the
                    rest are new); default: new and duplicate, alternating
  --cpu-prof DIR    V8 CPU profiles of the service into DIR (summarise with bench/profile-summary.ts)
  -h, --help        this text
`;

function parse(argv: readonly string[]): ProbeOptions {
  // Unknown options and options without their value are refused (strict), not ignored.
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string' },
      'cpu-prof': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const [database, ...extra] = positionals;
  if (database === undefined) throw new Error(`a database name is required\n${USAGE}`);
  if (extra.length > 0) throw new Error(`one database name only (given also: ${extra.join(' ')})`);
  const numberOf = (name: 'rounds' | 'duration' | 'warmup' | 'connections', fallback: number, least: number, whole: boolean) => {
    const given = values[name];
    const number = given === undefined ? fallback : Number(given);
    if (!Number.isFinite(number) || number < least || (whole && !Number.isInteger(number))) {
      throw new Error(`--${name} must be ${whole ? 'a whole number' : 'a number'}, at least ${least} (given: ${given})`);
    }
    return number;
  };
  const only = values.only;
  if (only !== undefined && !['new', 'duplicate', 'mixed'].includes(only)) throw new Error(`--only must be new, duplicate or mixed (given: ${only})`);
  const cpuProf = values['cpu-prof'];
  if (cpuProf !== undefined && cpuProf.trim() === '') throw new Error('--cpu-prof needs a directory');
  return {
    database,
    rounds: numberOf('rounds', 3, 1, true),
    duration: numberOf('duration', 3, 0.5, false),
    warmup: numberOf('warmup', 1, 0, false),
    connections: numberOf('connections', 32, 1, true),
    cpuProf,
    only,
  };
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const server = await openBenchServer('var/bench-postgres');
  const url = server.urlOf(options.database);
  const seed = await readSeedRecord(url);
  if (seed === null) throw new Error(`${options.database} holds no complete bench seed: seed it with npm run bench -- --reuse-db ${options.database}`);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const servers: ServerProcess[] = [];
  try {
    const vacancyId = (await admin.query<{ id: string }>("select id from vacancies where company_id = $1 and status = 'open' order by id limit 1", [seed.companyId])).rows[0]?.id;
    if (vacancyId === undefined) throw new Error('the seeded company has no open vacancy');
    const service = await startServer({
      name: 'service',
      script: 'bin/start.js',
      readyPath: '/readyz',
      nodeArgs: options.cpuProf === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', options.cpuProf],
      env: { DATABASE_URL: url, KEYS_DATABASE_URL: url, STORE: 'postgres', RATE_LIMIT_POINTS: '1000000000', LOG_LEVEL: 'warn', METRICS: 'off', MANAGEMENT_PORT: '0' },
    });
    servers.push(service);
    const ceiling = await startServer({
      name: 'one-statement-ceiling',
      script: 'bench/ceilings/one-statement-post-ceiling.ts',
      readyPath: '/healthz',
      env: { DATABASE_URL: url, COMPANY_ID: seed.companyId, DB_POOL_MAX: '10' },
    });
    servers.push(ceiling);
    const duplicates = Array.from({ length: 64 }, (_, i) => applicationBody(`${BENCH_EXTERNAL_ID_PREFIX}probe-dup-${Date.now().toString(36)}-${i}`, vacancyId));
    for (const body of duplicates) {
      const answer = await fetch(`${service.origin}${API}/applications`, { method: 'POST', headers: { 'x-api-key': seed.key, 'content-type': 'application/json' }, body });
      if (answer.status !== 201) throw new Error(`storing the duplicate set answered ${answer.status}: ${await answer.text()}`);
    }
    const transactions = async () => Number((await admin.query<{ n: string }>('select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()')).rows[0]?.n);
    const post = async (target: ServerProcess, headers: Record<string, string>, title: string, bodies: { body?: () => string; bodies?: readonly string[] }) => {
      const spec = { url: `${target.origin}${API}/applications`, connections: options.connections, method: 'POST' as const, headers, ...bodies };
      if (options.warmup > 0) await measure({ ...spec, title: `${target.name} ${title} (warm-up)`, durationS: options.warmup, warmupS: 0 });
      const before = await transactions();
      const cpuBefore = processCpuMs(target.pid);
      const mainBefore = processCpuMs(target.pid, target.pid);
      const postgresBefore = postgresCpuMs();
      const loadBefore = process.cpuUsage();
      const machineBefore = machineCpuTicks();
      const figures = await measure({ ...spec, title: `${target.name} ${title}`, durationS: options.duration, warmupS: 0 });
      const cpu = processCpuMs(target.pid) - cpuBefore;
      const main = processCpuMs(target.pid, target.pid) - mainBefore;
      const postgres = postgresCpuMs() - postgresBefore;
      const load = process.cpuUsage(loadBefore);
      const machine = machineCpuTicks();
      // pg_stat_database is updated when a backend reports (at most every 500 ms), so wait for it.
      await new Promise((done) => setTimeout(done, 1_100));
      const perRequest = (await transactions()) - before;
      const requests = Math.max(figures.requests, 1);
      return {
        figures,
        perRequest,
        cpuPerRequest: round(cpu / requests, 3),
        // How busy the server's main thread (the event loop) was: near 1, it is what limits the server.
        mainThreadBusy: round(main / (options.duration * 1000), 2),
        postgresCpuPerRequest: round(postgres / requests, 3),
        loadCpuPerRequest: round((load.user + load.system) / 1000 / requests, 3),
        // The share of the machine's cores that nothing used: well above 0, the server does not keep the machine busy.
        machineIdle: round((machine.idle - machineBefore.idle) / Math.max(machine.total - machineBefore.total, 1), 2),
      };
    };
    const rows: string[] = [];
    type Run = Awaited<ReturnType<typeof post>>;
    const line = (kind: string, round: number, ours: Run, theirs: Run) => {
      const text = `${kind.padEnd(10)} round ${round}: ours ${ours.figures.requestsPerSecond} req/s (p50/p99 ${ours.figures.p50Ms}/${ours.figures.p99Ms} ms, ${ours.figures.non2xx} non-2xx), ceiling ${theirs.figures.requestsPerSecond} req/s, ratio ${ratioOf(ours.figures, theirs.figures)}; CPU ms a request: ours ${ours.cpuPerRequest}, ceiling ${theirs.cpuPerRequest}; main thread busy: ours ${ours.mainThreadBusy}, ceiling ${theirs.mainThreadBusy}; PostgreSQL's: ours ${ours.postgresCpuPerRequest}, ceiling ${theirs.postgresCpuPerRequest}; the load generator's: ${ours.loadCpuPerRequest} / ${theirs.loadCpuPerRequest}; transactions a request: ours ${perRequest(ours)}, ceiling ${perRequest(theirs)}; the machine idle: ${ours.machineIdle} / ${theirs.machineIdle}`;
      rows.push(text);
      note(text);
    };
    const fresh = newApplications(vacancyId);
    const ours = { 'x-api-key': seed.key };
    // A fifth of the requests repeat a stored application (in turn), the rest are new.
    let sent = 0;
    const mixed = () => {
      const turn = sent++;
      return turn % 5 === 0 ? (duplicates[(turn / 5) % duplicates.length] as string) : fresh();
    };
    for (let i = 1; i <= options.rounds; i++) {
      if (options.only === 'mixed') {
        const a = await post(service, ours, 'mixed', { body: mixed });
        const b = await post(ceiling, {}, 'mixed', { body: mixed });
        line('mixed', i, a, b);
        continue;
      }
      if (options.only !== 'duplicate') {
        const a = await post(service, ours, 'new', { body: fresh });
        const b = await post(ceiling, {}, 'new', { body: fresh });
        line('new', i, a, b);
      }
      if (options.only !== 'new') {
        const c = await post(service, ours, 'duplicate', { bodies: duplicates });
        const d = await post(ceiling, {}, 'duplicate', { bodies: duplicates });
        line('duplicate', i, c, d);
      }
    }
    process.stdout.write(`${rows.join('\n')}\n`);
  } finally {
    for (const s of servers.reverse()) await s.stop();
    await admin.query("delete from candidates where company_id = (select record->>'companyId' from bench_seed limit 1) and external_id like $1", [`${BENCH_EXTERNAL_ID_PREFIX}%`]);
    await admin.query('vacuum candidates');
    await admin.end();
    await server.stop();
  }
}

function ratioOf(a: LoadFigures, b: LoadFigures): number {
  return round(a.requestsPerSecond / Math.max(b.requestsPerSecond, 0.001));
}

/**
 * CPU time of every process named postgres on this machine, in ms: the server the bench runs on, its
 * backends and its background workers (the machine's other databases are idle during a probe).
 */
function postgresCpuMs(): number {
  return processStats()
    .filter((stat) => stat.comm === 'postgres')
    .reduce((total, stat) => total + stat.cpuMs, 0);
}

/** Transactions of the whole database per request of the run (autocommit statements count one each). */
function perRequest(run: { readonly figures: LoadFigures; readonly perRequest: number }): number {
  return round(run.perRequest / Math.max(run.figures.requests, 1), 2);
}

await main();
