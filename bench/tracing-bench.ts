import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Command } from 'commander';
import { processCpuMs } from './proc.js';
import pg from 'pg';
import { newApplications } from './application-bodies.js';
import { createBenchDatabase, dropBenchDatabase, openBenchServer } from './bench-database.js';
import { withLoadOptions } from './bench-options.js';
import { bulkSeed } from './bulk-seed.js';
import { note } from './progress.js';
import type { LoadFigures } from './load.js';
import type { NamedRun } from './rounds.js';
import { listLoad, postLoad, type Settings, type Target } from './scenarios.js';
import { startServer, type ServerProcess } from './server-process.js';

/**
 * `npx tsx bench/tracing-bench.ts`: the compiled service twice, side by side on one seeded database, tracing off
 * (no OTLP endpoint) and on at full sampling (OTEL_TRACES_SAMPLER=always_on) exporting http/protobuf to a sink
 * in this process that takes every export, and a third at `--ratio` (parentbased_traceidratio); the lists and new
 * applications in alternating rounds, each median round's ratio to tracing off reported, full sampling's against
 * the 0.85 target, with the service's CPU a request beside it (bench/README.md, docs/adr/0028).
 */
function options() {
  const command = new Command('npx tsx bench/tracing-bench.ts')
    .description('Measures the service with tracing off and on (full sampling, OTLP http/protobuf to an in-process sink), side by side; prints the on/off ratios.');
  return withLoadOptions(command, { vacancies: 1_000, candidates: 20_000 }, 'the runs of tracing off and on, alternating')
    .option('--only <scenario>', 'one scenario only: vacancies, candidates or post')
    .option('--ratio <r>', 'the sampled third server\'s OTEL_TRACES_SAMPLER_ARG (parentbased_traceidratio)', '0.1')
    .option('--cpu-prof <dir>', 'write V8 CPU profiles of both service processes into <dir>/off and <dir>/on (node --cpu-prof)')
    .parse(process.argv.slice(2), { from: 'user' })
    .opts<{ vacancies: number; candidates: number; duration: number; warmup: number; rounds: number; connections: number; dataDir: string; cpuProf?: string; ratio: string; only?: string }>();
}

/** An OTLP/HTTP endpoint that answers every export 200 and counts what it took. */
async function startSink(): Promise<{ endpoint: string; exports: () => number; bytes: () => number; close: () => void }> {
  let exports = 0;
  let bytes = 0;
  const sink = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((listening) => sink.listen(0, '127.0.0.1', listening));
  return { endpoint: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`, exports: () => exports, bytes: () => bytes, close: () => sink.close() };
}

async function anOpenVacancy(url: string, companyId: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ id: string }>("select id from vacancies where company_id = $1 and status = 'open' order by id limit 1", [companyId]);
    return rows.rows[0]?.id ?? '';
  } finally {
    await client.end();
  }
}

/**
 * The runs `count` times, each round starting one later in the list: a POST run leaves the table larger for the
 * runs after it in its round, and a fixed order would charge that to the same server every time.
 */
async function rotatedRounds(runs: readonly NamedRun[], count: number, settle: () => Promise<void>): Promise<Map<string, LoadFigures>[]> {
  const rounds: Map<string, LoadFigures>[] = [];
  for (let r = 0; r < count; r++) {
    const figures = new Map<string, LoadFigures>();
    for (let i = 0; i < runs.length; i++) {
      const [name, run] = runs[(r + i) % runs.length] as NamedRun;
      figures.set(name, await run());
    }
    rounds.push(figures);
    await settle();
  }
  return rounds;
}

/** a/b in each round, and the req/s of the round whose ratio is the median. */
function medianRound(rounds: readonly Map<string, LoadFigures>[], a: string, b: string) {
  const rate = (round: Map<string, LoadFigures>, name: string) => round.get(name)?.requestsPerSecond ?? 0;
  const ratioOf = (round: Map<string, LoadFigures>) => Math.round((rate(round, a) / Math.max(rate(round, b), 0.001)) * 100) / 100;
  const median = [...rounds].sort((x, y) => ratioOf(x) - ratioOf(y))[Math.floor(rounds.length / 2)] as Map<string, LoadFigures>;
  return { a: rate(median, a), b: rate(median, b), ratio: ratioOf(median), ratios: rounds.map(ratioOf) };
}

/** Tracing off's CPU a request over on's in each round (the share of off's speed that on keeps, when CPU-bound), and the median round's. */
function medianCpu(rounds: readonly Map<string, LoadFigures>[], cpuPerRequest: WeakMap<LoadFigures, number>) {
  const cpuOf = (round: Map<string, LoadFigures>, name: string) => cpuPerRequest.get(round.get(name) as LoadFigures) ?? Number.NaN;
  const ratioOf = (round: Map<string, LoadFigures>) => Math.round((cpuOf(round, 'off') / cpuOf(round, 'on')) * 100) / 100;
  const median = [...rounds].sort((x, y) => ratioOf(x) - ratioOf(y))[Math.floor(rounds.length / 2)] as Map<string, LoadFigures>;
  const ms = (name: string) => Math.round(cpuOf(median, name) * 1000) / 1000;
  return { off: ms('off'), on: ms('on'), ratio: ratioOf(median), ratios: rounds.map(ratioOf) };
}

async function main(): Promise<void> {
  const o = options();
  const server = await openBenchServer(o.dataDir);
  const name = `bench_tracing_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
  const running: ServerProcess[] = [];
  const sink = await startSink();
  try {
    const url = await createBenchDatabase(server, name);
    const seed = await bulkSeed(url, { vacancies: o.vacancies, candidates: o.candidates, seed: 1 });
    const vacancyId = await anOpenVacancy(url, seed.companyId);
    const env = { DATABASE_URL: url, KEYS_DATABASE_URL: url, STORE: 'postgres', RATE_LIMIT_POINTS: '1000000000', LOG_LEVEL: 'warn', METRICS: 'off', MANAGEMENT_PORT: '0' };
    // Off: no endpoint, whatever this shell has set.
    const profile = (which: string) => (o.cpuProf === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', `${o.cpuProf}/${which}`]);
    const off = await startServer({ name: 'tracing-off', script: 'bin/start.js', readyPath: '/readyz', nodeArgs: profile('off'), env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' } });
    running.push(off);
    const on = await startServer({
      name: 'tracing-on', script: 'bin/start.js', readyPath: '/readyz', nodeArgs: profile('on'),
      env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_TRACES_SAMPLER: 'always_on' },
    });
    running.push(on);
    const sampled = await startServer({
      name: 'tracing-sampled', script: 'bin/start.js', readyPath: '/readyz',
      env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: o.ratio },
    });
    running.push(sampled);
    const settings: Settings = { connections: o.connections, durationS: o.duration, warmupS: o.warmup, syncLimit: 500, candidates: seed.candidates };
    const target = (s: ServerProcess): Target => ({ server: s, headers: { 'x-api-key': seed.key } });
    const settle = () => new Promise<void>((done) => setTimeout(done, 1_000));
    // Each run warms its server up on its own, then measures it with its process's CPU time around the measured
    // part alone: CPU a request moves far less than req/s on a machine shared with other work.
    const cpuPerRequest = new WeakMap<LoadFigures, number>();
    const pair = (run: (t: Target, s: Settings) => Promise<LoadFigures>): NamedRun[] =>
      ([['off', off], ['on', on], ['sampled', sampled]] as const).map(([name, process]): NamedRun => [name, async () => {
        if (settings.warmupS > 0) await run(target(process), { ...settings, durationS: settings.warmupS, warmupS: 0 });
        const before = processCpuMs(process.pid);
        const figures = await run(target(process), { ...settings, warmupS: 0 });
        cpuPerRequest.set(figures, (processCpuMs(process.pid) - before) / Math.max(1, figures.requests));
        return figures;
      }]);
    const fresh = newApplications(vacancyId);
    const scenarios: [string, NamedRun[]][] = [
      ['GET /vacancies?limit=100', pair((t, s) => listLoad(t, '/vacancies?limit=100', s))],
      ['GET /candidates?limit=100', pair((t, s) => listLoad(t, '/candidates?limit=100', s))],
      ['POST /applications (new)', pair((t, s) => postLoad(t, s, 'new', { body: fresh }))],
    ];
    const chosen = scenarios.filter(([title]) => o.only === undefined || title.toLowerCase().includes(o.only === 'post' ? 'post' : `/${o.only}`));
    const lines = [
      `| scenario | off req/s | on req/s | on/off (median) | rounds | target | met | at ${o.ratio}: sampled/off (rounds) | CPU ms a request, off / on | off/on CPU (rounds) |`,
      '|---|---|---|---|---|---|---|---|---|---|',
    ];
    for (const [title, runs] of chosen) {
      const rounds = await rotatedRounds(runs, o.rounds, settle);
      const c = medianRound(rounds, 'on', 'off');
      const s = medianRound(rounds, 'sampled', 'off');
      const cpu = medianCpu(rounds, cpuPerRequest);
      lines.push(`| ${title} | ${c.b} | ${c.a} | ${c.ratio} | ${c.ratios.join(', ')} | 0.85 | ${c.ratio >= 0.85 ? 'yes' : 'no'} | ${s.ratio} (${s.ratios.join(', ')}) | ${cpu.off} / ${cpu.on} | ${cpu.ratio} (${cpu.ratios.join(', ')}) |`);
    }
    process.stdout.write(`\n${lines.join('\n')}\n\nspans exported: ${sink.exports()} exports, ${Math.round(sink.bytes() / 1024)} KiB (http/protobuf)\n`);
  } finally {
    for (const s of running) await s.stop().catch(() => undefined);
    sink.close();
    await dropBenchDatabase(server, name).catch((error: unknown) => note(`cleanup: ${String(error)}`));
    await server.stop();
  }
}

main().catch((error: unknown) => {
  note(`tracing bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
