import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { applicationBody, BENCH_EXTERNAL_ID_PREFIX, newApplications } from './application-bodies.js';
import {
  createBenchDatabase, databaseExists, dropBenchDatabase, openBenchServer, readSeedRecord, writeSeedRecord, type BenchServer, type SeedRecord,
} from './bench-database.js';
import { parseBenchOptions, type BenchOptions } from './bench-options.js';
import { bulkSeed } from './bulk-seed.js';
import type { RecordedAnswer } from './ceilings/bare-ceiling-server.js';
import { send } from './http-get.js';
import { poolerFigures, startBenchPooler, type BenchPooler } from './pooler.js';
import { note } from './progress.js';
import { collectResults, oneStatementSummary, poolerSummary, type Measurements } from './results.js';
import { alternate, type Comparison, type NamedRun, type Rounds } from './rounds.js';
import type { LoadFigures } from './load.js';
import { formatTable, machineInfo, writeResults } from './report.js';
import { API, encodedSizes, fullSync, idSync, listLoad, pageDepth, postLoad, type Settings, type Target } from './scenarios.js';
import { startServer, type ServerProcess } from './server-process.js';
import { measureReplicaReads, replicaSummary } from './replica-reads.js';

const DUPLICATE_SET = 64;
const DUPLICATE_PREFIX = `${BENCH_EXTERNAL_ID_PREFIX}dup-`;

async function main(): Promise<void> {
  const options = parseBenchOptions(process.argv.slice(2));
  const started = Date.now();
  const machine = machineInfo();
  note(`bench: ${machine.nproc} cores (${machine.cpu}), ${machine.memoryGb} GB, node ${machine.node}`);
  const server = await openBenchServer(options.dataDir);
  const name = options.reuseDb ?? `bench_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
  const cleanups: (() => Promise<void>)[] = [() => server.stop()];
  if (options.reuseDb === undefined) cleanups.unshift(() => dropBenchDatabase(server, name));
  const stopping = async (code: number) => {
    for (const cleanup of cleanups.splice(0)) await cleanup().catch((error: unknown) => note(`cleanup: ${String(error)}`));
    process.exit(code);
  };
  process.once('SIGINT', () => void stopping(130));
  try {
    note(`bench: PostgreSQL from ${server.origin}, database ${name}`);
    const { url, seed, seededNow, seedSeconds } = await prepareDatabase(server, name, options);
    const vacancyId = await anOpenVacancy(url, seed.companyId);
    const settings: Settings = {
      connections: options.connections, durationS: options.duration, warmupS: options.warmup, syncLimit: options.syncLimit, candidates: seed.candidates,
    };
    const { pooler, skipped } = await startBenchPooler(options.pooler, server.adminUrl, name);
    if (pooler !== null) cleanups.unshift(() => pooler.bouncer.stop());
    const measurements = await measureAll(url, seed, vacancyId, settings, options, cleanups, pooler);
    const replicaReads = options.replica ? await measureReplicaReads(settings, { ...options }, cleanups) : { skipped: '--no-replica' };
    const seenByPooler = pooler === null ? null : await poolerFigures(pooler, name);
    if (seenByPooler !== null && seenByPooler.refusedStartupParameters.length > 0) {
      note(`bench: WARNING: PgBouncer refused startup parameters:\n  ${seenByPooler.refusedStartupParameters.join('\n  ')}`);
    }
    await deleteBenchApplications(url, seed.companyId);
    const results = collectResults(measurements, settings);
    const table = formatTable(results);
    process.stdout.write(`\n${table}\n${replicaSummary(replicaReads)}\n`);
    const path = await writeResults(options.out, {
      date: new Date().toISOString(),
      machine,
      database: { server: server.origin, name, vacancies: seed.vacancies, candidates: seed.candidates, seededThisRun: seededNow, seedSeconds },
      settings: { ...settings, cpuProfile: options.cpuProf ?? null },
      totalSeconds: Math.round((Date.now() - started) / 1000),
      scenarios: results,
      pooler: poolerSummary(measurements, skipped, seenByPooler),
      oneStatementCeiling: oneStatementSummary(measurements),
      replicaReads,
    });
    note(`bench: results in ${path}; ${Math.round((Date.now() - started) / 1000)} s in all`);
    await stopping(0);
  } catch (error) {
    note(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    await stopping(1);
  }
}

async function prepareDatabase(server: BenchServer, name: string, options: BenchOptions) {
  const wanted = { vacancies: options.vacancies, candidates: options.candidates, seed: options.seed };
  if (options.reuseDb !== undefined && !options.reseed && (await databaseExists(server, name))) {
    const record = await readSeedRecord(server.urlOf(name));
    if (record !== null && record.vacancies === wanted.vacancies && record.candidates === wanted.candidates && record.seed === wanted.seed) {
      note(`bench: reusing ${name} (${record.vacancies} vacancies, ${record.candidates} candidates)`);
      return { url: server.urlOf(name), seed: record, seededNow: false, seedSeconds: 0 };
    }
    note(`bench: ${name} holds ${record === null ? 'no complete seed' : 'another size'}; seeding it afresh`);
  }
  await dropBenchDatabase(server, name);
  const url = await createBenchDatabase(server, name);
  const started = Date.now();
  const seed: SeedRecord = await bulkSeed(url, wanted);
  await writeSeedRecord(url, seed);
  const seedSeconds = Math.round((Date.now() - started) / 1000);
  note(`bench: seeded in ${seedSeconds} s`);
  return { url, seed, seededNow: true, seedSeconds };
}

async function measureAll(url: string, seed: SeedRecord, vacancyId: string, settings: Settings, options: BenchOptions, cleanups: (() => Promise<void>)[], pooler: BenchPooler | null): Promise<Measurements> {
  const start = async (spec: Parameters<typeof startServer>[0]): Promise<ServerProcess> => {
    const server = await startServer(spec);
    cleanups.unshift(() => server.stop());
    return server;
  };
  // autocannon leaves requests in flight when its time is up: let them finish before the next run starts.
  const settle = () => new Promise<void>((done) => setTimeout(done, 1_000));
  const duplicates = Array.from({ length: DUPLICATE_SET }, (_, i) => applicationBody(`${DUPLICATE_PREFIX}${Date.now().toString(36)}-${i}`, vacancyId));

  // All servers stay up, idle while another is measured, so that each figure is taken right next to the one
  // it is compared with: on a shared machine the background load moves within minutes.
  const serviceEnv = (databaseUrl: string) => ({
    DATABASE_URL: databaseUrl, KEYS_DATABASE_URL: databaseUrl, STORE: 'postgres', RATE_LIMIT_POINTS: '1000000000', LOG_LEVEL: 'warn', METRICS: 'off',
    // Two services run side by side: the management API's default port would be one port for both.
    MANAGEMENT_PORT: '0',
  });
  const service = await start({
    name: 'service',
    // What `npm start` runs: the compiled service (built first when dist/ is stale).
    script: 'bin/start.js',
    readyPath: '/readyz',
    nodeArgs: options.cpuProf === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', options.cpuProf],
    env: serviceEnv(url),
  });
  // The same service, every connection of it (business, registry, migrations at start) through PgBouncer.
  const pooledService = pooler === null ? null : await start({ name: 'service-pgbouncer', script: 'bin/start.js', readyPath: '/readyz', env: serviceEnv(pooler.url) });
  const pgCeiling = await start({
    name: 'pg-ceiling',
    script: 'bench/ceilings/pg-ceiling-server.ts',
    readyPath: '/healthz',
    env: { DATABASE_URL: url, COMPANY_ID: seed.companyId, DB_POOL_MAX: '10' },
  });
  // Issue 13: POST /applications as one autocommit statement a request (check, insert, or the earlier id).
  const oneStatementCeiling = await start({
    name: 'one-statement-ceiling',
    script: 'bench/ceilings/one-statement-post-ceiling.ts',
    readyPath: '/healthz',
    env: { DATABASE_URL: url, COMPANY_ID: seed.companyId, DB_POOL_MAX: '10' },
  });
  const ours: Target = { server: service, headers: { 'x-api-key': seed.key } };
  const pooled: Target | null = pooledService === null ? null : { server: pooledService, headers: ours.headers };
  const ceiling: Target = { server: pgCeiling, headers: {} };
  const oneStatement: Target = { server: oneStatementCeiling, headers: {} };

  // The syncs first, on fresh processes: the service's memory is then the sync's, not what 32 connections left.
  const oursSync = await fullSync(ours, settings);
  const oursIdSync = await idSync(ours, settings, options.rounds);
  const pooledSync = pooled === null ? null : await fullSync(pooled, settings);
  const ceilingSync = await fullSync(ceiling, settings);
  const oursDepth = oursSync.deepCursor === null ? null : await pageDepth(ours, oursSync.deepCursor, settings);
  const ceilingDepth = ceilingSync.deepCursor === null ? null : await pageDepth(ceiling, ceilingSync.deepCursor, settings);

  const recorded = await recordAnswers(ours, vacancyId, duplicates);
  await checkOneStatementCeiling(oneStatement, ours, vacancyId, duplicates);
  const dir = await mkdtemp(join(tmpdir(), 'bench-bare-'));
  const recordedFile = join(dir, 'recorded.json');
  await writeFile(recordedFile, JSON.stringify(recorded.answers));
  const bareServer = await start({ name: 'bare', script: 'bench/ceilings/bare-ceiling-server.ts', readyPath: '/healthz', env: { RECORDED: recordedFile } });
  const bare: Target = { server: bareServer, headers: {} };

  const rounds = (runs: readonly (NamedRun | null)[]) => alternate(runs.filter((r): r is NamedRun => r !== null), options.rounds, settle);
  // The pooled service's run right after the direct one, so that the two are taken next to each other.
  const listRuns = (path: string): (NamedRun | null)[] => [
    ['ours', () => listLoad(ours, path, settings)],
    pooled === null ? null : ['pooled', () => listLoad(pooled, path, settings)],
    ['ceiling', () => listLoad(ceiling, path, settings)],
    ['bare', () => listLoad(bare, path, settings)],
  ];
  const encoded = (encoding: string): NamedRun[] => [
    ['encoded', () => listLoad(ours, '/candidates?limit=100', settings, { 'accept-encoding': encoding })],
    ['identity', () => listLoad(ours, '/candidates?limit=100', settings)],
  ];
  const vacancies = await rounds(listRuns('/vacancies?limit=100'));
  const candidates = await rounds(listRuns('/candidates?limit=100'));
  const sizes = await encodedSizes(ours, '/candidates?limit=100');
  const vacancySizes = await encodedSizes(ours, '/vacancies?limit=100');
  // Against the service's own identity run, taken next to it.
  const brotli = (await rounds(encoded('br'))).compare('encoded', 'identity');
  const gzip = (await rounds(encoded('gzip'))).compare('encoded', 'identity');
  const fresh = newApplications(vacancyId);
  const postNew = await rounds([
    ['ours', () => postLoad(ours, settings, 'new', { body: fresh })],
    pooled === null ? null : ['pooled', () => postLoad(pooled, settings, 'new', { body: fresh })],
    ['ceiling', () => postLoad(ceiling, settings, 'new', { body: fresh })],
    ['oneStatement', () => postLoad(oneStatement, settings, 'new', { body: fresh })],
    ['bare', () => postLoad(bare, settings, 'new', { body: fresh })],
  ]);
  const duplicateRounds = await rounds([
    ['ours', () => postLoad(ours, settings, 'duplicate', { bodies: duplicates })],
    ['ceiling', () => postLoad(ceiling, settings, 'duplicate', { bodies: duplicates })],
    ['oneStatement', () => postLoad(oneStatement, settings, 'duplicate', { bodies: duplicates })],
  ]);
  const duplicate = duplicateRounds.compare('ours', 'ceiling');
  const oneStatementNew = postNew.compare('ours', 'oneStatement');
  const oneStatementDuplicate = duplicateRounds.compare('ours', 'oneStatement');
  const oneStatementCounts = await statementCounts(oneStatement);
  const loadPeakRssMb = service.peakMb();
  const idleRssMb = service.rssMb();
  for (const server of [service, pooledService, pgCeiling, oneStatementCeiling, bareServer]) await server?.stop();
  await rm(dir, { recursive: true, force: true });
  const [v, c, p] = [vacancies.compare('ours', 'ceiling'), candidates.compare('ours', 'ceiling'), postNew.compare('ours', 'ceiling')];
  const viaPooler = (r: Rounds) => r.compare('pooled', 'ours');
  const bareOf = (kept: Comparison) => kept.round.get('bare') as LoadFigures;
  return {
    ours: {
      vacancies: v.a, candidates: c.a, sizes, vacancySizes, brotli: brotli.a, brotliIdentity: brotli.b, gzip: gzip.a,
      gzipIdentity: gzip.b, sync: oursSync, idSync: oursIdSync, depth: oursDepth, postNew: p.a, postDuplicate: duplicate.a, idleRssMb, loadPeakRssMb,
    },
    ceiling: {
      vacancies: v.b, candidates: c.b, sync: ceilingSync, depth: ceilingDepth, postNew: p.b, postDuplicate: duplicate.b,
    },
    ratiosByRound: { vacancies: v.ratios, candidates: c.ratios, brotli: brotli.ratios, gzip: gzip.ratios, postNew: p.ratios, duplicate: duplicate.ratios },
    oneStatement: { postNew: oneStatementNew, postDuplicate: oneStatementDuplicate, statements: oneStatementCounts },
    // The bare ceiling's run of the round kept for ours/ceiling.
    bare: { vacancies: bareOf(v), candidates: bareOf(c), postNew: bareOf(p) },
    pooled: pooledSync === null
      ? null
      : { vacancies: viaPooler(vacancies), candidates: viaPooler(candidates), postNew: viaPooler(postNew), sync: pooledSync, directSync: oursSync },
  };
}

/**
 * The one-statement ceiling answers as the service does before it is measured: 201 for a new application,
 * 200 and the service's own card id for a repeat (the duplicate set, stored by the service), 404 for a
 * vacancy that is not the company's.
 */
async function checkOneStatementCeiling(target: Target, ours: Target, vacancyId: string, duplicates: readonly string[]): Promise<void> {
  const post = (to: Target, body: string) =>
    send(`${to.server.origin}${API}/applications`, { method: 'POST', headers: { ...to.headers, 'content-type': 'application/json' }, body });
  const fresh = await post(target, newApplications(vacancyId)());
  const repeat = await post(target, duplicates[0] as string);
  const foreign = await post(target, applicationBody(`${DUPLICATE_PREFIX}foreign-${Date.now().toString(36)}`, 'no-such-vacancy'));
  const serviceId = (JSON.parse((await post(ours, duplicates[0] as string)).bytes.toString('utf8')) as { id: string }).id;
  const repeatBody = JSON.parse(repeat.bytes.toString('utf8')) as { id: string; status: string };
  const problems = [
    fresh.status === 201 ? null : `a new application answered ${fresh.status}`,
    repeat.status === 200 && repeatBody.status === 'duplicate' && repeatBody.id === serviceId ? null : `a repeat answered ${repeat.status} ${repeat.bytes.toString('utf8')} (the service's card: ${serviceId})`,
    foreign.status === 404 ? null : `a foreign vacancy answered ${foreign.status}`,
  ].filter((p): p is string => p !== null);
  if (problems.length > 0) throw new Error(`one-statement ceiling: ${problems.join('; ')}`);
}

/** What the one-statement ceiling answered and sent over the whole run (its GET /stats). */
async function statementCounts(target: Target): Promise<Record<string, number>> {
  const answer = await send(`${target.server.origin}/stats`, {});
  return JSON.parse(answer.bytes.toString('utf8')) as Record<string, number>;
}

/** The service's answers, for the bare ceiling to serve from memory; also makes the duplicate set exist. */
async function recordAnswers(ours: Target, vacancyId: string, duplicates: readonly string[]) {
  const answers: Record<string, RecordedAnswer> = {};
  const keep = async (route: string, answer: Awaited<ReturnType<typeof send>>) => {
    if (answer.status >= 300) throw new Error(`${route} answered ${answer.status}: ${answer.bytes.toString('utf8').slice(0, 300)}`);
    answers[route] = { status: answer.status, contentType: String(answer.headers['content-type']), body: answer.bytes.toString('base64') };
  };
  const base = `${ours.server.origin}${API}`;
  await keep(`GET ${API}/vacancies`, await send(`${base}/vacancies?limit=100`, { headers: ours.headers }));
  await keep(`GET ${API}/candidates`, await send(`${base}/candidates?limit=100`, { headers: ours.headers }));
  const post = { method: 'POST', headers: { ...ours.headers, 'content-type': 'application/json' } };
  await keep(`POST ${API}/applications`, await send(`${base}/applications`, { ...post, body: newApplications(vacancyId)() }));
  for (const body of duplicates) await keep('duplicate set', await send(`${base}/applications`, { ...post, body }));
  delete answers['duplicate set'];
  return { answers };
}

async function anOpenVacancy(url: string, companyId: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ id: string }>("select id from vacancies where company_id = $1 and status = 'open' order by id limit 1", [companyId]);
    const id = rows.rows[0]?.id;
    if (id === undefined) throw new Error('the seeded company has no open vacancy');
    return id;
  } finally {
    await client.end();
  }
}

/** The cards the POST scenarios made (but those whose externalId starts with `keep`), so that a reused database stays as seeded. */
async function deleteBenchApplications(url: string, companyId: string, keep: string | null = null): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const deleted = await client.query(
      'delete from candidates where company_id = $1 and external_id like $2 and ($3::text is null or not starts_with(external_id, $3))',
      [companyId, `${BENCH_EXTERNAL_ID_PREFIX}%`, keep],
    );
    // Their dead index entries would sit right after the newest cards, on the path of the next run's sync.
    await client.query('vacuum candidates');
    note(`bench: deleted the ${deleted.rowCount} cards the POST scenarios made`);
  } finally {
    await client.end();
  }
}

await main();
