import pg from 'pg';
import type { BenchQueue } from './feed-broker.js';
import type { FeedEvent } from './feed-events.js';
import type { ConsumerProcess } from './feed-process.js';
import { throughputRun } from './feed-throughput.js';
import { note } from './progress.js';

/**
 * What the feed ceiling is held to: the same stream applied by the service to one database and by the ceiling
 * to a copy of it must leave the same rows. Compared per table, as sets of rows, on the columns both write
 * from the events (not the times each consumer's clock gave, nor the service's renderings and derived vacancy
 * fields, nor an application card's id, which each consumer makes: its externalId keys it).
 */
const TABLES: Record<string, string> = {
  vacancies: 'select company_id, id, title, status, salary_to, positions_count, description from vacancies',
  boards: 'select company_id, vacancy_id, columns from boards',
  candidates:
    "select company_id, coalesce(external_id, id) as key, vacancy_id, stage, source, technical, origin_card_id, person->>'name' as name, resume->>'role' as role, " +
    // An application's resume is the one field the service completes (the fields its body left out, as null).
    'case when external_id is null then md5(resume::text) end as resume from candidates',
  feed_applied_events: 'select company_id, source, event_id from feed_applied_events',
  feed_entity_versions: 'select company_id, entity_kind, entity_id, aspect, version from feed_entity_versions',
};

export interface TableComparison {
  readonly service: number;
  readonly ceiling: number;
  /** Rows of one that the other does not have (both ways). */
  readonly differing: number;
  readonly examples: readonly string[];
}

export interface StateCheck {
  readonly events: number;
  readonly same: boolean;
  readonly tables: Record<string, TableComparison>;
}

async function rowsOf(url: string, sql: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ row: string }>(`select t::text as row from (${sql}) as t`);
    return rows.map((r) => r.row);
  } finally {
    await client.end();
  }
}

/** Each table's rows in both databases, as multisets: the counts, and how many rows differ. */
export async function compareStates(serviceUrl: string, ceilingUrl: string, events: number): Promise<StateCheck> {
  const tables: Record<string, TableComparison> = {};
  for (const [table, sql] of Object.entries(TABLES)) {
    const [ours, theirs] = [await rowsOf(serviceUrl, sql), await rowsOf(ceilingUrl, sql)];
    const left = new Map<string, number>();
    for (const row of ours) left.set(row, (left.get(row) ?? 0) + 1);
    const onlyCeiling: string[] = [];
    for (const row of theirs) {
      const n = left.get(row) ?? 0;
      if (n > 0) left.set(row, n - 1);
      else onlyCeiling.push(row);
    }
    const onlyService = [...left].flatMap(([row, n]) => Array.from({ length: n }, () => row));
    tables[table] = {
      service: ours.length,
      ceiling: theirs.length,
      differing: onlyService.length + onlyCeiling.length,
      examples: [...onlyService.slice(0, 2).map((row) => `service: ${row}`), ...onlyCeiling.slice(0, 2).map((row) => `ceiling: ${row}`)].map((text) => text.slice(0, 300)),
    };
  }
  return { events, same: Object.values(tables).every((t) => t.differing === 0), tables };
}

/**
 * The check run: the events applied by the service to its database, then by the ceiling to the copy made of it
 * before, then the rows compared; throws when they differ (a ceiling that does other work is no ceiling).
 */
export async function sameRowsRun(
  events: readonly FeedEvent[],
  queue: BenchQueue,
  serviceDb: { readonly db: pg.Client; readonly url: string },
  copyUrl: string,
  start: { readonly service: () => Promise<ConsumerProcess>; readonly ceiling: () => Promise<ConsumerProcess> },
): Promise<StateCheck> {
  const copyDb = new pg.Client({ connectionString: copyUrl });
  await copyDb.connect();
  try {
    await throughputRun('state check: service', events, queue, serviceDb.db, start.service);
    await throughputRun('state check: ceiling', events, queue, copyDb, start.ceiling);
  } finally {
    await copyDb.end();
  }
  const check = await compareStates(serviceDb.url, copyUrl, events.length);
  const counts = Object.entries(check.tables).map(([table, t]) => `${table} ${t.service}/${t.ceiling}${t.differing > 0 ? ` (${t.differing} differ)` : ''}`);
  note(`state check: rows, service/ceiling: ${counts.join(', ')}`);
  if (!check.same) {
    const examples = Object.values(check.tables).flatMap((t) => t.examples);
    throw new Error(`the ceiling left other rows than the service for the same ${events.length} events:\n  ${examples.join('\n  ')}`);
  }
  return check;
}
