import pg from 'pg';
import { pino } from 'pino';
import type { CliIo } from '../adapters/cli/cli-io.js';
import { seedDemo } from '../adapters/cli/seed/seed-demo.js';
import { DEFAULT_BOARD_COLUMNS } from '../domain/board/board.js';
import { adminServices } from '../infrastructure/admin-cli-dependencies.js';
import { buildContainer, disposeContainer } from '../infrastructure/container/build-container.js';
import type { SeededCompany } from './feed-events.js';
import { ProgressBar } from './progress.js';

export interface FeedSeedOptions {
  readonly companies: number;
  /** Per company. */
  readonly vacancies: number;
  /** Per company. */
  readonly cards: number;
  readonly seed: number;
}

/** The admin CLI's output goes nowhere: the bench draws its own progress. */
const quietIo: CliIo = {
  out: () => undefined,
  err: () => undefined,
  errIsTerminal: false,
  readStdin: async () => '',
  readFile: async () => '',
};

/**
 * The companies the feed's events are about, made as an operator makes them: `admin seed demo` once per
 * company (its code, seedDemo, on the admin CLI's use cases): a company, a key of every scope, vacancies of
 * every status (a third with custom boards), cards of every origin, a few transfers. Then what the seed left
 * is read back (vacancies with their columns, cards with their vacancy and stage), for the event generator.
 */
export async function seedFeedCompanies(url: string, options: FeedSeedOptions): Promise<SeededCompany[]> {
  const container = await buildContainer({
    profile: 'postgres',
    logger: pino({ level: 'warn' }),
    config: { databaseUrl: url, keysDatabaseUrl: url, logLevel: 'warn', store: 'postgres' },
  });
  const services = adminServices(container, { jobBoardLabel: 'hh' });
  const progress = new ProgressBar('seed (admin seed demo per company)', options.companies * options.cards, 'cards');
  const made: { companyId: string; key: string }[] = [];
  try {
    for (let i = 0; i < options.companies; i++) {
      const result = await seedDemo(services, quietIo, { vacancies: options.vacancies, candidates: options.cards, seed: options.seed + i, batchSize: 500 });
      made.push({ companyId: result.companyId, key: result.key });
      progress.advance(options.cards);
    }
    progress.finish(`${options.companies} companies`);
  } finally {
    await disposeContainer(container);
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('vacuum analyze');
    const companies: SeededCompany[] = [];
    for (const { companyId, key } of made) {
      const vacancies = await client.query<{ id: string; status: string; columns: string[] | null }>(
        `select v.id, v.status, b.columns from vacancies v left join boards b on b.company_id = v.company_id and b.vacancy_id = v.id
          where v.company_id = $1 order by v.id`,
        [companyId],
      );
      const cards = await client.query<{ id: string; vacancy_id: string | null; stage: string }>(
        'select id, vacancy_id, stage from candidates where company_id = $1 and not technical order by id',
        [companyId],
      );
      companies.push({
        id: companyId,
        key,
        vacancies: vacancies.rows.map((r) => ({ id: r.id, status: r.status, columns: r.columns ?? [...DEFAULT_BOARD_COLUMNS] })),
        cards: cards.rows.map((r) => ({ id: r.id, vacancyId: r.vacancy_id, stage: r.stage })),
      });
    }
    return companies;
  } finally {
    await client.end();
  }
}
