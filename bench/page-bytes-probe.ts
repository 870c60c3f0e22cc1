import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { demoVacancies, type DemoVacancy } from '../adapters/cli/seed/demo-vacancies.js';
import { SeededRandom } from '../adapters/cli/seed/seeded-random.js';
import { ADMIN_CLI_ACTOR } from '../application/use-cases/actor.js';
import { buildContainer, disposeContainer } from '../infrastructure/container/build-container.js';
import { resolve } from '../infrastructure/container/typed-binding.js';
import { USE_CASES } from '../infrastructure/container/use-case.tokens.js';
import { createBenchDatabase, dropBenchDatabase, openBenchServer } from './bench-database.js';
import { maximalApplication } from './maximal-application.js';
import { note } from './progress.js';
import { API } from './scenarios.js';
import { startServer } from './server-process.js';

const USAGE = `Usage: npx tsx bench/page-bytes-probe.ts [options]

The service's memory under list pages of large records (pages bounded in bytes, LIST_PAGE_MAX_BYTES): on a
throwaway database (DATABASE_URL's server, else PostgreSQL at 127.0.0.1:5432, else an embedded one), a company
receives N maximal applications (about 1.43 MB each, Cyrillic, every field at its limit) through
POST /applications; then C clients at once each read GET /candidates from the first page to the last at
limit=L, R rounds. Prints the compiled service's resident memory (VmRSS) idle before the reads and its peak
during them, sampled every 100 ms (and VmHWM where the kernel lets it be reset), with the pages' sizes.

Options:
  --applications N   maximal applications stored (default 60)
  --clients C        clients reading at once (default 8)
  --limit L          the page's limit (default 500, the sync client's)
  --rounds R         rounds of the C clients (default 3)
  --max-bytes B      LIST_PAGE_MAX_BYTES of the service (default: unset, the service's default, 8 MiB);
                     1073741824 leaves these pages uncut, as before the budget
  --help             this text`;

interface ProbeOptions {
  readonly applications: number;
  readonly clients: number;
  readonly limit: number;
  readonly rounds: number;
  readonly maxBytes: string | undefined;
}

function parseOptions(argv: readonly string[]): ProbeOptions | null {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      applications: { type: 'string', default: '60' },
      clients: { type: 'string', default: '8' },
      limit: { type: 'string', default: '500' },
      rounds: { type: 'string', default: '3' },
      'max-bytes': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) return null;
  const whole = (name: string, text: string, min: number) => {
    if (!/^\d+$/.test(text) || Number(text) < min) throw new Error(`--${name} must be a whole number of at least ${min}; got "${text}"`);
    return Number(text);
  };
  const maxBytes = values['max-bytes'];
  if (maxBytes !== undefined) whole('max-bytes', maxBytes, 1_024);
  return {
    applications: whole('applications', values.applications, 1),
    clients: whole('clients', values.clients, 1),
    limit: whole('limit', values.limit, 1),
    rounds: whole('rounds', values.rounds, 1),
    maxBytes,
  };
}

/** A company with a vacancy and a key that may post applications and read candidates, through the use cases. */
async function seedCompany(url: string): Promise<{ key: string; vacancyId: string }> {
  const container = await buildContainer({ profile: 'postgres', logger: pino({ level: 'warn' }), config: { databaseUrl: url, keysDatabaseUrl: url, logLevel: 'warn' } });
  try {
    const company = await resolve(container, USE_CASES.createCompany).execute({ name: 'Проба «Большие страницы»' });
    const key = await resolve(container, USE_CASES.issueKey).execute({
      companyId: company.id, scopes: ['applications:write', 'candidates:read'], name: 'page-bytes probe', expiresAt: null, actor: ADMIN_CLI_ACTOR,
    });
    // The first demo vacancy is open (demoVacancies gives each status once first).
    const [vacancy] = demoVacancies(new SeededRandom(1), 1);
    const [stored] = await resolve(container, USE_CASES.upsertVacancies).execute({ companyId: company.id, vacancies: [(vacancy as DemoVacancy).input] });
    return { key: key.key, vacancyId: (stored as { id: string }).id };
  } finally {
    await disposeContainer(container);
  }
}

/** One request, its body counted and dropped (identity encoding: the service's bytes, not a compressor's). */
function get(url: string, key: string): Promise<{ status: number; bytes: number; tail: string }> {
  return new Promise((done, fail) => {
    const outgoing = request(url, { headers: { 'X-API-Key': key, 'Accept-Encoding': 'identity' } }, (response) => {
      let bytes = 0;
      let tail = '';
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        tail = (tail + chunk.toString('latin1')).slice(-1_024);
      });
      response.on('error', fail);
      response.on('end', () => done({ status: response.statusCode ?? 0, bytes, tail }));
    });
    outgoing.on('error', fail);
    outgoing.end();
  });
}

/** A client's pass over every page; the page sizes it saw. */
async function readAllPages(origin: string, key: string, limit: number): Promise<number[]> {
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const query = `limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const answer = await get(`${origin}${API}/candidates?${query}`, key);
    if (answer.status !== 200) throw new Error(`GET /candidates answered ${answer.status}`);
    sizes.push(answer.bytes);
    cursor = (/"nextCursor":(?:null|"([^"]*)")\}$/.exec(answer.tail)?.[1] ?? null) as string | null;
  } while (cursor !== null);
  return sizes;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options === null) {
    console.log(USAGE);
    return;
  }
  const server = await openBenchServer('var/bench-postgres');
  const database = `probe_pages_${Date.now()}`;
  const url = await createBenchDatabase(server, database);
  try {
    const { key, vacancyId } = await seedCompany(url);
    const env: Record<string, string> = { DATABASE_URL: url, LOG_LEVEL: 'warn', RATE_LIMIT_POINTS: '1000000000', MANAGEMENT_PORT: '0', METRICS: 'off' };
    if (options.maxBytes !== undefined) env.LIST_PAGE_MAX_BYTES = options.maxBytes;
    const service = await startServer({ name: 'service', script: 'bin/start.js', readyPath: '/readyz', env });
    try {
      note(`posting ${options.applications} maximal applications`);
      for (let n = 0; n < options.applications; n++) {
        const body = maximalApplication(`probe-${n}`, vacancyId);
        const answer = await fetch(`${service.origin}${API}/applications`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body });
        if (answer.status !== 201) throw new Error(`POST /applications answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
        await answer.arrayBuffer();
      }
      await new Promise((settle) => setTimeout(settle, 2_000));
      const idle = service.rssMb();
      service.resetPeak();
      const started = Date.now();
      const passes: number[][] = [];
      for (let round = 0; round < options.rounds; round++) {
        passes.push(...(await Promise.all(Array.from({ length: options.clients }, () => readAllPages(service.origin, key, options.limit)))));
      }
      const seconds = (Date.now() - started) / 1_000;
      const pages = passes[0] ?? [];
      const mb = (n: number) => (n / 1_048_576).toFixed(1);
      console.log(`LIST_PAGE_MAX_BYTES        ${options.maxBytes ?? 'default (8 MiB)'}`);
      console.log(`applications               ${options.applications}, each ${mb(Buffer.byteLength(maximalApplication('probe-0', vacancyId)))} MB of request`);
      console.log(`reads                      ${options.rounds} rounds x ${options.clients} clients, limit=${options.limit}, ${seconds.toFixed(1)} s`);
      console.log(`pages of a pass            ${pages.length}: ${pages.map(mb).join(', ')} MB`);
      console.log(`service RSS idle           ${idle.toFixed(0)} MB`);
      console.log(`service RSS peak, reading  ${service.peakMb().toFixed(0)} MB`);
    } finally {
      await service.stop();
    }
  } finally {
    await dropBenchDatabase(server, database);
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
