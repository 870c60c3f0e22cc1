import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { CandidateListQuery, CandidateRepository, CardOnVacancy, ListedCandidate, ListedId, StoredApplication } from '../../../application/ports/candidate-repository.port.js';
import type { CandidateCard } from '../../../domain/candidate/candidate-card.js';
import { executeBound, executeBoundReusable } from './bound-statement.js';
import { CARD_COLUMNS, CARD_VALUES, insertApplicationRows, insertTechnicalRow, rowParameters, UPDATE_CARD_SQL } from './candidate-row-sql.js';
import { listedCandidates } from './candidate-list-query.js';
import { listedCandidateIds } from './id-list-query.js';
import { CANDIDATE_ROW_SELECT, candidateRowOf, readCandidateRow, readStoredApplications, readTechnicalCardRow } from './point-reads.js';
import type { CandidateRow } from './entities/candidate.entity.js';
import type { RenderedCandidateRow } from './entities/candidate.entity.js';
import { candidateColumns, fromCandidateRow, toCandidateRow } from './row-mapping/candidate-row-mapping.js';
import { TIMESTAMP_PARAM, boundColumns, jsonb, timestampParams } from './sql-values.js';
import { activeTransaction, withEntityManager } from './transaction-scope.js';
import { executeInlined, executeReusable } from './direct-statement.js';

/** Rows per INSERT statement of insertMany: big enough to save round trips, small enough for one statement. */
const INSERT_MANY_CHUNK = 200;

/** Cards of a deleted vacancy read and written back per statement pair: a few MB of renderings at most. */
const DETACH_BATCH = 1_000;

export class MikroOrmCandidateRepository implements CandidateRepository {
  constructor(private readonly orm: MikroORM) {}

  findById(companyId: string, id: string): Promise<CandidateCard | null> {
    const preloaded = this.preloaded(companyId)?.get(id);
    if (preloaded !== undefined) return Promise.resolve(preloaded === null ? null : fromCandidateRow(preloaded as CandidateRow));
    return this.findOne(companyId, 'id', id);
  }

  /**
   * One read of the cards, kept in the unit of work's transaction (a `write` of this company only: then no other
   * transaction changes the company's cards meanwhile), absent ones as null. Every write of this repository
   * forgets what it may have changed there: the written card, or all of it when the write reaches other cards
   * too (a deletion takes the card's technical cards with it; a detachment, every card of a vacancy).
   */
  async preloadByIds(companyId: string, ids: readonly string[]): Promise<void> {
    const kept = this.preloaded(companyId);
    if (kept === undefined) return;
    const wanted = [...new Set(ids)].filter((id) => !kept.has(id));
    if (wanted.length === 0) return;
    const rows = await withEntityManager(this.orm, (em) =>
      executeReusable<Record<string, unknown>>(
        em,
        `select ${CANDIDATE_ROW_SELECT} from candidates where company_id = ? and id = any(array(select jsonb_array_elements_text(?::jsonb)))`,
        [companyId, JSON.stringify(wanted)],
      ),
    );
    for (const id of wanted) kept.set(id, null);
    for (const columns of rows) {
      const row = candidateRowOf(columns);
      kept.set(row.id, row);
    }
  }

  /** The cards read ahead for the caller's unit of work, when it is a `write` of this company; keyed by id. */
  private preloaded(companyId: string): Map<string, unknown> | undefined {
    const transaction = activeTransaction(this.orm);
    return transaction !== undefined && transaction.mode === 'write' && transaction.companyId === companyId ? transaction.preloaded : undefined;
  }

  /** Forgets what was read ahead of these cards (all of it without ids) before they are written. */
  private forget(ids?: readonly string[]): void {
    const transaction = activeTransaction(this.orm);
    if (transaction === undefined) return;
    if (ids === undefined) transaction.preloaded.clear();
    else for (const id of ids) transaction.preloaded.delete(id);
  }

  findByExternalId(companyId: string, externalId: string): Promise<CandidateCard | null> {
    return this.findOne(companyId, 'external_id', externalId);
  }

  findStoredApplications(companyId: string, externalIds: readonly string[]): Promise<StoredApplication[]> {
    return withEntityManager(this.orm, (em) => readStoredApplications(em, companyId, externalIds));
  }

  findBySourceRef(companyId: string, sourceRef: string): Promise<CandidateCard | null> {
    return this.findOne(companyId, 'source_ref', sourceRef);
  }

  async insert(card: CandidateCard): Promise<void> {
    this.forget([card.id]);
    await withEntityManager(this.orm, (em) => executeBoundReusable(em, `insert into candidates (${CARD_COLUMNS}) values ${CARD_VALUES}`, rowParameters(toCandidateRow(card))));
  }

  /**
   * Multi-row INSERTs in one transaction (the unit of work's, or one of its own), written by knex, with
   * bound parameters: for bulk loads that is about five times faster than em.insertMany, which inlines
   * every value as an escaped literal (measured: 200 cards with 4 kB resumes, 68 ms against 367 ms). Dates go
   * as executeBound sends them (boundValue), not as pg would format them.
   */
  async insertMany(cards: readonly CandidateCard[]): Promise<void> {
    if (cards.length === 0) return;
    this.forget(cards.map((card) => card.id));
    const rows = cards.map((card) => boundColumns(candidateColumns(toCandidateRow(card))));
    const insertAll = async (em: EntityManager) => {
      for (let start = 0; start < rows.length; start += INSERT_MANY_CHUNK) {
        // knex writes the statement (its text as before); it goes where em's statements go: the unit of work's
        // connection (a knex query would run outside it, ADR 20), the repository's own transaction, or the pool.
        const { sql, bindings } = em.getKnex().insert(rows.slice(start, start + INSERT_MANY_CHUNK)).into('candidates').toSQL();
        await executeBound(em, sql, bindings);
      }
    };
    // Outside a unit of work, one transaction of its own: all or nothing, and the values go bound there.
    const ownTransaction = activeTransaction(this.orm) === undefined;
    await withEntityManager(this.orm, (em) => (ownTransaction ? em.transactional(insertAll) : insertAll(em)));
  }

  /**
   * One multi-row INSERT … ON CONFLICT DO NOTHING for the batch; the cards it did not insert lost to an
   * earlier card with their externalId, committed or committing: the unique index made the insert wait for
   * that one, and a read in the next statement sees it (READ COMMITTED). A card whose earlier holder was
   * deleted between the two statements is tried again.
   */
  insertApplications(cards: readonly CandidateCard[]): Promise<(StoredApplication | null)[]> {
    const rows = cards.map(toCandidateRow);
    const companyId = rows[0]?.companyId;
    if (companyId === undefined) return Promise.resolve([]);
    if (rows.some((row) => row.externalId === null || row.companyId !== companyId)) {
      return Promise.reject(new Error('insertApplications needs cards of one company, each with an externalId.'));
    }
    this.forget(rows.map((row) => row.id));
    const externalIdOf = (index: number) => rows[index]?.externalId as string;
    // The first card of each externalId is the one to insert; later ones in the batch answer with it.
    const firstOf = new Map<string, number>();
    rows.forEach((_, index) => {
      if (!firstOf.has(externalIdOf(index))) firstOf.set(externalIdOf(index), index);
    });
    return withEntityManager(this.orm, async (em) => {
      const earlier = new Map<string, StoredApplication>();
      let pending = [...firstOf.values()];
      for (let attempt = 0; attempt < 3 && pending.length > 0; attempt++) {
        const inserted = await insertApplicationRows(em, pending.map((index) => rows[index] as RenderedCandidateRow));
        const lost = pending.filter((index) => !inserted.has(externalIdOf(index)));
        for (const holder of await readStoredApplications(em, companyId, lost.map(externalIdOf))) earlier.set(holder.externalId, holder);
        pending = lost.filter((index) => !earlier.has(externalIdOf(index)));
      }
      if (pending.length > 0) throw new Error(`Could not insert or find the applications with externalIds ${pending.map(externalIdOf).join(', ')}.`);
      return rows.map((row, index) => {
        const externalId = row.externalId as string;
        const first = firstOf.get(externalId) as number;
        const winner = rows[first] as RenderedCandidateRow;
        return earlier.get(externalId) ?? (first === index ? null : { externalId, id: winner.id, requestFingerprint: winner.requestFingerprint });
      });
    });
  }

  /**
   * INSERT … ON CONFLICT DO NOTHING on the unique index of transfers, then a read of the holder: as for
   * applications, the index makes a concurrent insert wait for the other's commit, and the next statement
   * sees it. A holder deleted in between (its origin card was) is tried again.
   */
  insertTechnicalCard(card: CandidateCard): Promise<CandidateCard | null> {
    const row = toCandidateRow(card);
    const { companyId, originCardId, vacancyId } = row;
    if (originCardId === null || vacancyId === null) return Promise.reject(new Error('insertTechnicalCard needs a technical card on a vacancy.'));
    this.forget([row.id]);
    return withEntityManager(this.orm, async (em) => {
      for (let attempt = 0; attempt < 3; attempt++) {
        if (await insertTechnicalRow(em, row)) return null;
        const holder = await readTechnicalCardRow(em, companyId, originCardId, vacancyId);
        if (holder !== null) return fromCandidateRow(holder);
      }
      throw new Error(`Could not insert or find the technical card of ${originCardId} on vacancy ${vacancyId}.`);
    });
  }

  async update(card: CandidateCard): Promise<void> {
    const row = toCandidateRow(card);
    // Every column of the row but the key, in CARD_COLUMNS' order: the key's two parameters go last.
    const [companyId, id, ...fields] = rowParameters(row);
    this.forget([row.id]);
    await withEntityManager(this.orm, (em) => executeBoundReusable(em, UPDATE_CARD_SQL, [...fields, companyId, id]));
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    this.forget();
    const deleted = await withEntityManager(this.orm, (em) =>
      executeReusable<{ id: string }>(em, 'delete from candidates where company_id = ? and (id = ? or origin_card_id = ?) returning id', [companyId, id, id]),
    );
    return deleted.some((row) => row.id === id);
  }

  /**
   * The cards change in JS, as every other write of a card does, and go back with their new renderings (ADR 18):
   * one statement per batch of them, locked as they are read, so that nothing changes a card between its
   * read and its write. A written card leaves `vacancy_id = ?`, so the next read finds the next batch; the
   * batches bound the memory and the statement that a vacancy with many thousands of cards would take. With
   * `only`, the ids go DETACH_BATCH at a time, so that a statement names no more ids than it writes cards.
   */
  detachVacancy(companyId: string, vacancyId: string, now: Date, only?: readonly string[]): Promise<number> {
    if (only?.length === 0) return Promise.resolve(0);
    this.forget();
    // With `only`, its ids DETACH_BATCH at a time, each chunk an array parameter (inlined as array['a', 'b']).
    const unique = [...new Set(only ?? [])];
    const chunks = only === undefined ? [null] : Array.from({ length: Math.ceil(unique.length / DETACH_BATCH) }, (_, n) => unique.slice(n * DETACH_BATCH, (n + 1) * DETACH_BATCH));
    const detach = async (em: EntityManager): Promise<number> => {
      let detached = 0;
      for (const chunk of chunks) detached += await detachSome(em, chunk);
      return detached;
    };
    const detachSome = async (em: EntityManager, ids: readonly string[] | null): Promise<number> => {
      const onlyThose = ids === null ? '' : ' and id = any(array[?]::text[])';
      let detached = 0;
      for (;;) {
        const stored = await executeInlined<Record<string, unknown>>(
          em,
          `select ${CANDIDATE_ROW_SELECT} from candidates where company_id = ? and vacancy_id = ?${onlyThose} limit ? for update`,
          [companyId, vacancyId, ...(ids === null ? [] : [ids]), DETACH_BATCH],
        );
        if (stored.length === 0) return detached;
        const rows = stored.map((columns) => {
          const card = fromCandidateRow(candidateRowOf(columns));
          card.detachFromVacancy(now);
          return toCandidateRow(card);
        });
        const updated = await executeInlined<{ id: string }>(
          em,
          `update candidates c
              set vacancy_id = null, stage = null, card_updated_at = ${TIMESTAMP_PARAM}, rendering = r.rendering
             from unnest(array[?]::text[], array[?]::text[]) as r(id, rendering)
            where c.company_id = ? and c.id = r.id
            returning c.id`,
          [...timestampParams(now), rows.map((row) => row.id), rows.map((row) => row.rendering), companyId],
        );
        detached += updated.length;
        if (stored.length < DETACH_BATCH) return detached;
      }
    };
    const ownTransaction = activeTransaction(this.orm) === undefined;
    return withEntityManager(this.orm, (em) => (ownTransaction ? em.transactional(detach) : detach(em)));
  }

  async cardsOnVacancy(companyId: string, vacancyId: string): Promise<CardOnVacancy[]> {
    const rows = await withEntityManager(this.orm, (em) =>
      executeReusable<{ id: string; origin_card_id: string | null }>(em, 'select id, origin_card_id from candidates where company_id = ? and vacancy_id = ?', [companyId, vacancyId]),
    );
    return rows.map((row) => ({ id: row.id, originCardId: row.origin_card_id }));
  }

  async stagesInUse(companyId: string, vacancyId: string): Promise<string[]> {
    const rows = await withEntityManager(this.orm, (em) =>
      executeReusable<{ stage: string }>(
        em,
        'select distinct stage collate "C" as stage from candidates where company_id = ? and vacancy_id = ? and stage is not null order by 1',
        [companyId, vacancyId],
      ),
    );
    return rows.map((row) => row.stage);
  }

  list(query: CandidateListQuery): Promise<ListedCandidate[]> {
    return withEntityManager(this.orm, (em) => listedCandidates(em, query));
  }

  listIds(query: Omit<CandidateListQuery, 'maxBytes'>): Promise<ListedId[]> {
    return withEntityManager(this.orm, (em) => listedCandidateIds(em, query));
  }

  private async findOne(companyId: string, key: 'id' | 'external_id' | 'source_ref', value: string): Promise<CandidateCard | null> {
    const row = await withEntityManager(this.orm, (em) => readCandidateRow(em, companyId, key, value));
    return row === null ? null : fromCandidateRow(row);
  }
}
