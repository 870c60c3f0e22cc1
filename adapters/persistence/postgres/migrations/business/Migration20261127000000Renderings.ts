import { Migration } from '@mikro-orm/migrations';
import { fromCandidateRow, toCandidateRow } from '../../row-mapping/candidate-row-mapping.js';
import { CANDIDATE_ROW_SELECT, candidateRowOfColumns, VACANCY_ROW_SELECT, vacancyRowOfColumns } from '../../row-mapping/stored-rows.js';
import { fromVacancyRow, toVacancyRow } from '../../row-mapping/vacancy-row-mapping.js';

/** Rows read, rendered and written back per statement pair: a few MB of renderings at most. */
const BATCH = 1_000;

type Columns = Record<string, unknown>;

/**
 * The lists' read model (ADR 18): each vacancy and each listed card keeps its API JSON as the presenters
 * render it, written with the row, so that a page is assembled from texts instead of being built again on
 * every read. A technical card is never listed and keeps none (the check).
 *
 * The rows stored before are rendered here, in JS, by the row mapping and the presenters the service writes
 * with, in keyset batches over the primary key, all inside the migration's transaction: the new columns are
 * filled before anything can read them. Every statement runs through `execute`, in order, since addSql would
 * only run after up() returns, after the backfill.
 *
 * When v1 changes what the presenters print (a new field), every stored rendering is stale: that version
 * ships a new migration that re-renders both tables the same way (keyset batches read whole, mapped and
 * rendered in JS, written back by unnest), and `admin check renderings` confirms the result. This one renders
 * with the presenters of the version that runs it, so on a database that skips versions it already writes
 * the later form, and the later migration only repeats it. It reads the rows with the select lists the
 * adapters use (stored-rows.ts): a later column that they come to read must leave this migration a select list
 * of the tables as they are here.
 */
export class Migration20261127000000Renderings extends Migration {
  override async up(): Promise<void> {
    await this.execute('alter table vacancies add column rendering text');
    await this.execute('alter table candidates add column rendering text');
    await this.renderAll('vacancies', VACANCY_ROW_SELECT, 'true', (columns) => toVacancyRow(fromVacancyRow(vacancyRowOfColumns(columns))).rendering);
    await this.renderAll('candidates', CANDIDATE_ROW_SELECT, 'not technical', (columns) =>
      toCandidateRow(fromCandidateRow(candidateRowOfColumns(columns))).rendering,
    );
    await this.execute('alter table vacancies alter column rendering set not null');
    await this.execute('alter table candidates add constraint candidates_rendering_check check (technical or rendering is not null)');
  }

  override async down(): Promise<void> {
    this.addSql('alter table candidates drop constraint candidates_rendering_check');
    this.addSql('alter table candidates drop column rendering');
    this.addSql('alter table vacancies drop column rendering');
  }

  /** Renders the table's rows that `filter` selects, batch by batch in (company_id, id) order. */
  private async renderAll(table: 'vacancies' | 'candidates', columns: string, filter: string, render: (columns: Columns) => string | null): Promise<void> {
    let after: readonly [string, string] | null = null;
    for (;;) {
      const rows: Columns[] = await this.execute(
        `select ${columns} from ${table}
          where ${filter}${after === null ? '' : ' and (company_id, id) > (?, ?)'}
          order by company_id, id limit ?`,
        [...(after ?? []), BATCH],
      );
      const last = rows.at(-1);
      if (last === undefined) return;
      await this.execute(
        `update ${table} t set rendering = r.rendering
           from unnest(array[?]::text[], array[?]::text[], array[?]::text[]) as r(company_id, id, rendering)
          where t.company_id = r.company_id and t.id = r.id`,
        [rows.map((row) => row.company_id), rows.map((row) => row.id), rows.map(render)],
      );
      if (rows.length < BATCH) return;
      after = [last.company_id as string, last.id as string];
    }
  }
}
