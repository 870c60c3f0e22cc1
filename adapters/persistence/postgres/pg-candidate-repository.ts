import type { PgDatabase } from './pg-database.js';
import type { CandidateListQuery, CandidateRepository, CardOnVacancy, ListedCandidate, ListedId, StoredApplication } from '../../../application/ports/candidate-repository.port.js';
import type { CandidateCard } from '../../../domain/candidate/candidate-card.js';
import { insertApplicationRows, insertTechnicalRow } from './candidate-row-sql.js';
import { listedCandidates } from './candidate-list-query.js';
import { readCandidateRow, readStoredApplications, readTechnicalCardRow } from './point-reads.js';
import { CANDIDATES, type CandidateRendering, type CandidateRow } from './tables/candidate.table.js';
import { fromCandidateRow, toCandidateRow } from './row-mapping/candidate-row-mapping.js';
import { TIMESTAMP_PARAM, jsonb, timestampParams } from './sql-values.js';
import { activeTransaction, withSession } from './transaction-scope.js';
import { executeBound, executeBoundReusable, executeInlined, executeReusable, type PgSession } from './pg-statements.js';
import { inOwnTransaction } from './pg-transaction.js';
import { readListPage } from './replicas/list-page-reads.js';
import type { ReplicaRouter } from './replicas/replica-router.js';
import { listedCandidateIds } from './id-list-query.js';

type RenderedCandidateRow = CandidateRow & CandidateRendering;

/** Rows per INSERT statement of insertMany: big enough to save round trips, small enough for one statement. */
const INSERT_MANY_CHUNK = 200;

/** Cards of a deleted vacancy read and written back per statement pair: a few MB of renderings at most. */
const DETACH_BATCH = 1_000;

export class PgCandidateRepository implements CandidateRepository {
  /** `replicas`: where list pages may be read instead of the primary (DATABASE_REPLICA_URLS, ADR 26). */
  constructor(
    private readonly db: PgDatabase,
    private readonly replicas?: ReplicaRouter,
  ) {}

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
    const rows = await withSession(this.db, (session) =>
      executeReusable<Record<string, unknown>>(
        session,
        `select ${CANDIDATES.selectList()} from candidates where company_id = ? and id = any(array(select jsonb_array_elements_text(?::jsonb)))`,
        [companyId, JSON.stringify(wanted)],
      ),
    );
    for (const id of wanted) kept.set(id, null);
    for (const columns of rows) {
      const row = CANDIDATES.rowOf(columns);
      kept.set(row.id, row);
    }
  }

  /** The cards read ahead for the caller's unit of work, when it is a `write` of this company; keyed by id. */
  private preloaded(companyId: string): Map<string, unknown> | undefined {
    const transaction = activeTransaction(this.db);
    return transaction !== undefined && transaction.mode === 'write' && transaction.companyId === companyId ? transaction.preloaded : undefined;
  }

  /** Forgets what was read ahead of these cards (all of it without ids) before they are written. */
  private forget(ids?: readonly string[]): void {
    const transaction = activeTransaction(this.db);
    if (transaction === undefined) return;
    if (ids === undefined) transaction.preloaded.clear();
    else for (const id of ids) transaction.preloaded.delete(id);
  }

  findByExternalId(companyId: string, externalId: string): Promise<CandidateCard | null> {
    return this.findOne(companyId, 'external_id', externalId);
  }

  findStoredApplications(companyId: string, externalIds: readonly string[]): Promise<StoredApplication[]> {
    return withSession(this.db, (session) => readStoredApplications(session, companyId, externalIds));
  }

  findBySourceRef(companyId: string, sourceRef: string): Promise<CandidateCard | null> {
    return this.findOne(companyId, 'source_ref', sourceRef);
  }

  async insert(card: CandidateCard): Promise<void> {
    this.forget([card.id]);
    await withSession(this.db, (session) => executeBoundReusable(session, CANDIDATES.insertSql, CANDIDATES.values(toCandidateRow(card))));
  }

  /**
   * Multi-row INSERTs with bound values, in one transaction (the unit of work's, or one of its own): for bulk
   * loads about five times faster than a statement per card (measured: 200 cards with 4 kB resumes, 68 ms against
   * 367 ms).
   */
  async insertMany(cards: readonly CandidateCard[]): Promise<void> {
    if (cards.length === 0) return;
    this.forget(cards.map((card) => card.id));
    const rows = cards.map(toCandidateRow);
    await this.inTransaction(async (session) => {
      for (let start = 0; start < rows.length; start += INSERT_MANY_CHUNK) {
        const { sql, values } = CANDIDATES.insertRows(rows.slice(start, start + INSERT_MANY_CHUNK));
        await executeBound(session, sql, values);
      }
    });
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
    return withSession(this.db, async (session) => {
      const earlier = new Map<string, StoredApplication>();
      let pending = [...firstOf.values()];
      for (let attempt = 0; attempt < 3 && pending.length > 0; attempt++) {
        const inserted = await insertApplicationRows(session, pending.map((index) => rows[index] as RenderedCandidateRow));
        const lost = pending.filter((index) => !inserted.has(externalIdOf(index)));
        for (const holder of await readStoredApplications(session, companyId, lost.map(externalIdOf))) earlier.set(holder.externalId, holder);
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
    return withSession(this.db, async (session) => {
      for (let attempt = 0; attempt < 3; attempt++) {
        if (await insertTechnicalRow(session, row)) return null;
        const holder = await readTechnicalCardRow(session, companyId, originCardId, vacancyId);
        if (holder !== null) return fromCandidateRow(holder);
      }
      throw new Error(`Could not insert or find the technical card of ${originCardId} on vacancy ${vacancyId}.`);
    });
  }

  async update(card: CandidateCard): Promise<void> {
    const row = toCandidateRow(card);
    this.forget([row.id]);
    await withSession(this.db, (session) => executeBoundReusable(session, CANDIDATES.updateSql, CANDIDATES.updateValues(row)));
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    this.forget();
    const deleted = await withSession(this.db, (session) =>
      executeReusable<{ id: string }>(session, 'delete from candidates where company_id = ? and (id = ? or origin_card_id = ?) returning id', [companyId, id, id]),
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
    // With `only`, its ids DETACH_BATCH at a time, each chunk one jsonb array.
    const unique = [...new Set(only ?? [])];
    const chunks = only === undefined ? [null] : Array.from({ length: Math.ceil(unique.length / DETACH_BATCH) }, (_, n) => unique.slice(n * DETACH_BATCH, (n + 1) * DETACH_BATCH));
    const detach = async (session: PgSession): Promise<number> => {
      let detached = 0;
      for (const chunk of chunks) detached += await detachSome(session, chunk);
      return detached;
    };
    const detachSome = async (session: PgSession, ids: readonly string[] | null): Promise<number> => {
      const onlyThose = ids === null ? '' : ' and id = any(array(select jsonb_array_elements_text(?::jsonb)))';
      let detached = 0;
      for (;;) {
        const stored = await executeInlined<Record<string, unknown>>(
          session,
          `select ${CANDIDATES.selectList()} from candidates where company_id = ? and vacancy_id = ?${onlyThose} limit ? for update`,
          [companyId, vacancyId, ...(ids === null ? [] : [jsonb(ids)]), DETACH_BATCH],
        );
        if (stored.length === 0) return detached;
        const rows = stored.map((columns) => {
          const card = fromCandidateRow(CANDIDATES.rowOf(columns));
          card.detachFromVacancy(now);
          return toCandidateRow(card);
        });
        const updated = await executeInlined<{ id: string }>(
          session,
          `update candidates c
              set vacancy_id = null, stage = null, card_updated_at = ${TIMESTAMP_PARAM}, rendering = r.rendering
             from jsonb_to_recordset(?::jsonb) as r(id text, rendering text)
            where c.company_id = ? and c.id = r.id
            returning c.id`,
          [...timestampParams(now), jsonb(rows.map((row) => ({ id: row.id, rendering: row.rendering }))), companyId],
        );
        detached += updated.length;
        if (stored.length < DETACH_BATCH) return detached;
      }
    };
    return this.inTransaction(detach);
  }

  async cardsOnVacancy(companyId: string, vacancyId: string): Promise<CardOnVacancy[]> {
    const rows = await withSession(this.db, (session) =>
      executeReusable<{ id: string; origin_card_id: string | null }>(session, 'select id, origin_card_id from candidates where company_id = ? and vacancy_id = ?', [companyId, vacancyId]),
    );
    return rows.map((row) => ({ id: row.id, originCardId: row.origin_card_id }));
  }

  async stagesInUse(companyId: string, vacancyId: string): Promise<string[]> {
    const rows = await withSession(this.db, (session) =>
      executeReusable<{ stage: string }>(
        session,
        'select distinct stage collate "C" as stage from candidates where company_id = ? and vacancy_id = ? and stage is not null order by 1',
        [companyId, vacancyId],
      ),
    );
    return rows.map((row) => row.stage);
  }

  list(query: CandidateListQuery): Promise<ListedCandidate[]> {
    return readListPage(this.db, this.replicas, (statements) => listedCandidates(statements, query));
  }

  /** An identifier-only page (`fields=id`), read where a page is (readListPage). */
  listIds(query: Omit<CandidateListQuery, 'maxBytes'>): Promise<ListedId[]> {
    return readListPage(this.db, this.replicas, (statements) => listedCandidateIds(statements, query));
  }

  /** Work in the caller's unit of work, or in a transaction of its own outside one: all or nothing either way. */
  private inTransaction<T>(work: (session: PgSession) => Promise<T>): Promise<T> {
    return activeTransaction(this.db) !== undefined ? withSession(this.db, work) : inOwnTransaction(this.db, work);
  }

  private async findOne(companyId: string, key: 'id' | 'external_id' | 'source_ref', value: string): Promise<CandidateCard | null> {
    const row = await withSession(this.db, (session) => readCandidateRow(session, companyId, key, value));
    return row === null ? null : fromCandidateRow(row);
  }
}
