import type { PgDatabase } from './pg-database.js';
import type { RenderedKind, RenderingBatch, RenderingCheck } from '../../../application/ports/rendering-check.port.js';
import { cardRendering, fromCandidateRow } from './row-mapping/candidate-row-mapping.js';
import { fromVacancyRow, vacancyRendering } from './row-mapping/vacancy-row-mapping.js';
import { CANDIDATES } from './tables/candidate.table.js';
import { VACANCIES } from './tables/vacancy.table.js';
import { executeInlined, type PgSession } from './pg-statements.js';
import { withOwnSession } from './transaction-scope.js';

/** Records a statement reads (or rewrites) at most: a few MB of rows with their renderings. */
const BATCH = 1_000;

type Raw = Record<string, any>;

/** A record as compared: its key, its position when read, the rendering stored and the one the presenters give now. */
interface Compared {
  readonly companyId: string;
  readonly id: string;
  /** The row's position (updated_at, modified_at) as read, as exact text: see rewrite. */
  readonly position: string;
  readonly stored: string | null;
  readonly rendered: string;
}

/**
 * A timestamptz as text that two reads give equal only for the same instant, to the microsecond, whatever
 * the session's time zone (the epoch's seconds, numeric since PostgreSQL 14, a float8 printed shortest-exact
 * before).
 */
function exactPosition(column: string): string {
  return `extract(epoch from ${column})::text`;
}

/** Where a kind's records live, and how a row is rendered: restored by the row mapping, then presented as a write presents it. */
interface Source {
  readonly table: string;
  readonly filter: string;
  /** The column every write of a record moves (the record's updatedAt). */
  readonly position: string;
  readonly columns: string;
  render(row: Raw): string;
}

const SOURCES: Readonly<Record<RenderedKind, Source>> = {
  vacancy: {
    table: 'vacancies',
    filter: 'true',
    position: 'updated_at',
    columns: `${VACANCIES.selectList()}, rendering, ${exactPosition('updated_at')} as position`,
    render: (columns) => vacancyRendering(fromVacancyRow(VACANCIES.rowOf(columns))),
  },
  // Technical cards are never listed and keep no rendering. The vacancy's title is no part of a card's: it is
  // joined when a page is read.
  candidate: {
    table: 'candidates',
    filter: 'not technical',
    position: 'modified_at',
    columns: `${CANDIDATES.selectList()}, rendering, ${exactPosition('modified_at')} as position`,
    render: (columns) => cardRendering(fromCandidateRow(CANDIDATES.rowOf(columns))) as string,
  },
};

/**
 * The rendering check on PostgreSQL: keyset batches over the primary key (company_id, id), each one autocommit
 * statement, so that a check of millions of cards holds no transaction open and no more than a batch in memory.
 * A row is mapped as the repositories map it and rendered with the presenter functions the writes use. A null
 * rendering (a row written before the read model, or by an instance of the previous version during a rolling
 * upgrade) differs like any other, so that `--repair` after an upgrade is the backfill.
 */
export class PgRenderingCheck implements RenderingCheck {
  /** `beforeRewrite` runs between a batch's read and its rewrite: a seam for tests to write in between, as another writer may. */
  constructor(
    private readonly db: PgDatabase,
    private readonly beforeRewrite: () => Promise<void> = async () => {},
  ) {}

  async count(kind: RenderedKind): Promise<number> {
    const { table, filter } = SOURCES[kind];
    const rows = await withOwnSession(this.db, (session) => executeInlined<{ n: number }>(session, `select count(*)::float8 as n from ${table} where ${filter}`));
    return rows[0]?.n ?? 0;
  }

  async *scan(kind: RenderedKind, options: { readonly repair: boolean }): AsyncIterable<RenderingBatch> {
    let after: Compared | null = null;
    for (;;) {
      const position = after;
      const compared = await withOwnSession(this.db, (session) => readBatch(session, SOURCES[kind], position));
      if (compared.length === 0) return;
      const stale = compared.filter(differs);
      const named = (records: readonly Compared[]) => records.map(({ companyId, id }) => ({ kind, companyId, id }));
      if (!options.repair || stale.length === 0) {
        yield { checked: compared.length, stale: named(stale), repaired: 0, stillDiffering: [] };
      } else {
        await this.beforeRewrite();
        const repaired = await withOwnSession(this.db, (session) => rewrite(session, SOURCES[kind], stale));
        const again = await withOwnSession(this.db, (session) => readAgain(session, SOURCES[kind], stale));
        yield { checked: compared.length, stale: named(stale), repaired, stillDiffering: named(again.filter(differs)) };
      }
      if (compared.length < BATCH) return;
      after = compared[compared.length - 1] as Compared;
    }
  }
}

const differs = (record: Compared) => record.stored !== record.rendered;

const compare = (source: Source) => (row: Raw): Compared => ({
  companyId: row.company_id,
  id: row.id,
  position: row.position,
  stored: row.rendering,
  rendered: source.render(row),
});

async function readBatch(session: PgSession, source: Source, after: Compared | null): Promise<Compared[]> {
  const position = after === null ? '' : 'and (company_id, id) > (?, ?)';
  const rows = await executeInlined<Raw>(
    session,
    `select ${source.columns} from ${source.table} where ${source.filter} ${position} order by company_id, id limit ?`,
    after === null ? [BATCH] : [after.companyId, after.id, BATCH],
  );
  return rows.map(compare(source));
}

/**
 * The records just repaired, or skipped since a write came in between, read and compared again: a writer that
 * renders otherwise (an instance of the previous version, still running, stores none) leaves them differing.
 * Records deleted meanwhile are gone, and differ no more. In (company_id, id) order, as the batch was.
 */
async function readAgain(session: PgSession, source: Source, records: readonly Compared[]): Promise<Compared[]> {
  const rows = await executeInlined<Raw>(
    session,
    `select ${source.columns} from ${source.table}
      where (company_id, id) in (select k.company_id, k.id from jsonb_to_recordset(?::jsonb) as k(company_id text, id text))
      order by company_id, id`,
    [JSON.stringify(records.map(({ companyId, id }) => ({ company_id: companyId, id })))],
  );
  return rows.map(compare(source));
}

/**
 * One statement for the batch's stale renderings. A row is rewritten only while it is still the one compared:
 * its rendering the one read, and its position too. A write of this version that came in between (under its
 * company's lock, which the check does not take) stored a rendering of its own, from newer data than this
 * one; one of the previous version changed the columns and left the rendering, but moved the position, so
 * the text rendered here from the columns before it is known outdated and is not stored (the re-read reports
 * the record). PostgreSQL checks the condition again on the row a concurrent write leaves. How many rows were
 * rewritten.
 */
async function rewrite(session: PgSession, source: Source, stale: readonly Compared[]): Promise<number> {
  const rows = await executeInlined<unknown>(
    session,
    `update ${source.table} as t set rendering = u.rendering
       from jsonb_to_recordset(?::jsonb) as u(company_id text, id text, position text, stored text, rendering text)
      where t.company_id = u.company_id and t.id = u.id and t.rendering is not distinct from u.stored
        and ${exactPosition(`t.${source.position}`)} = u.position
      returning 1`,
    [JSON.stringify(stale.map(({ companyId, id, position, stored, rendered }) => ({ company_id: companyId, id, position, stored, rendering: rendered })))],
  );
  return rows.length;
}
