import type { CandidateListQuery, CandidateRepository, CardOnVacancy, ListedCandidate, ListedId, StoredApplication } from '../../../application/ports/candidate-repository.port.js';
import { toCandidateView } from '../../../application/views/candidate-view.js';
import { renderCandidateRest, splicedCandidateBytes } from '../../presenters/candidate.presenter.js';
import { CandidateCard, type CandidateCardSnapshot } from '../../../domain/candidate/candidate-card.js';
import { comparePositions, type PagePosition } from '../../../domain/paging/cursor.js';
import { idItemBytes } from '../../presenters/id-item.presenter.js';
import { rowKey, type InMemoryDatabase } from './in-memory-database.js';
import { withinPageBytes } from './within-page-bytes.js';

export class InMemoryCandidateRepository implements CandidateRepository {
  constructor(private readonly db: InMemoryDatabase) {}

  async findById(companyId: string, id: string): Promise<CandidateCard | null> {
    const row = this.db.candidates.get(rowKey(companyId, id));
    return row === undefined ? null : CandidateCard.restore(row);
  }

  /** A read here is a lookup in a map: reading ahead would save nothing. */
  async preloadByIds(): Promise<void> {}

  async findByExternalId(companyId: string, externalId: string): Promise<CandidateCard | null> {
    return this.findWhere(companyId, (row) => row.externalId === externalId);
  }

  async findStoredApplications(companyId: string, externalIds: readonly string[]): Promise<StoredApplication[]> {
    const wanted = new Set(externalIds);
    const found: StoredApplication[] = [];
    for (const row of this.db.candidates.values()) {
      if (row.companyId === companyId && row.externalId !== null && wanted.has(row.externalId)) found.push(storedApplicationOf(row));
    }
    return found;
  }

  async findBySourceRef(companyId: string, sourceRef: string): Promise<CandidateCard | null> {
    return this.findWhere(companyId, (row) => row.sourceRef === sourceRef);
  }

  async insert(card: CandidateCard): Promise<void> {
    this.insertNow(card);
  }

  async insertMany(cards: readonly CandidateCard[]): Promise<void> {
    // All or nothing even outside a unit of work: a clash undoes the rows this call already wrote.
    const inserted: CandidateCard[] = [];
    try {
      for (const card of cards) {
        this.insertNow(card);
        inserted.push(card);
      }
    } catch (error) {
      for (const card of inserted) this.db.candidates.delete(rowKey(card.companyId, card.id));
      throw error;
    }
  }

  async insertApplications(cards: readonly CandidateCard[]): Promise<(StoredApplication | null)[]> {
    // Check and insert in one synchronous step, as the unique index makes them one step in PostgreSQL.
    return cards.map((card) => {
      const externalId = card.externalId;
      if (externalId === null) throw new Error('insertApplications needs cards with an externalId.');
      const earlier = this.findWhere(card.companyId, (row) => row.externalId === externalId);
      if (earlier !== null) return storedApplicationOf(earlier.toSnapshot());
      this.insertNow(card);
      return null;
    });
  }

  async insertTechnicalCard(card: CandidateCard): Promise<CandidateCard | null> {
    // One synchronous step, as the unique index makes the check and the insert one step in PostgreSQL.
    const { companyId, originCardId, vacancyId } = card.toSnapshot();
    const earlier = this.findWhere(companyId, (row) => sameTransfer(row, originCardId, vacancyId));
    if (earlier !== null) return earlier;
    this.insertNow(card);
    return null;
  }

  /** The unique constraints of the PostgreSQL schema, enforced the same way. */
  private insertNow(card: CandidateCard): void {
    const row = card.toSnapshot();
    const clash = (what: string) => new Error(`duplicate key: candidate ${what}`);
    if (this.db.candidates.has(rowKey(row.companyId, row.id))) throw clash(row.id);
    if (row.externalId !== null && this.findWhere(row.companyId, (r) => r.externalId === row.externalId) !== null) {
      throw clash(`externalId ${row.externalId}`);
    }
    if (row.sourceRef !== null && this.findWhere(row.companyId, (r) => r.sourceRef === row.sourceRef) !== null) {
      throw clash(`source ${row.sourceRef}`);
    }
    if (this.findWhere(row.companyId, (r) => sameTransfer(r, row.originCardId, row.vacancyId)) !== null) {
      throw clash(`transfer of ${row.originCardId} to ${row.vacancyId}`);
    }
    this.db.candidates.set(rowKey(row.companyId, row.id), row);
  }

  async update(card: CandidateCard): Promise<void> {
    const key = rowKey(card.companyId, card.id);
    if (this.db.candidates.has(key)) this.db.candidates.set(key, card.toSnapshot());
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    for (const row of [...this.db.candidates.values()]) {
      if (row.companyId === companyId && row.originCardId === id) this.db.candidates.delete(rowKey(companyId, row.id));
    }
    return this.db.candidates.delete(rowKey(companyId, id));
  }

  async detachVacancy(companyId: string, vacancyId: string, now: Date, only?: readonly string[]): Promise<number> {
    const chosen = only === undefined ? null : new Set(only);
    let count = 0;
    for (const row of [...this.db.candidates.values()]) {
      if (row.companyId !== companyId || row.vacancyId !== vacancyId || (chosen !== null && !chosen.has(row.id))) continue;
      const card = CandidateCard.restore(row);
      card.detachFromVacancy(now);
      this.db.candidates.set(rowKey(companyId, row.id), card.toSnapshot());
      count++;
    }
    return count;
  }

  async cardsOnVacancy(companyId: string, vacancyId: string): Promise<CardOnVacancy[]> {
    const cards: CardOnVacancy[] = [];
    for (const row of this.db.candidates.values()) {
      if (row.companyId === companyId && row.vacancyId === vacancyId) cards.push({ id: row.id, originCardId: row.originCardId });
    }
    return cards;
  }

  async stagesInUse(companyId: string, vacancyId: string): Promise<string[]> {
    const stages = new Set<string>();
    for (const row of this.db.candidates.values()) {
      if (row.companyId === companyId && row.vacancyId === vacancyId && row.stage !== null) stages.add(row.stage);
    }
    return [...stages].sort();
  }

  /**
   * Renders each card of the page when it is read, with the presenter PostgreSQL renders it with when the
   * card is written (ADR 18): the reference the contract suite holds the stored renderings to.
   */
  async list(query: CandidateListQuery): Promise<ListedCandidate[]> {
    const { companyId } = query;
    const page = this.listedCards(query).map(({ card, position }) => {
      const vacancyTitle = this.titleOf(companyId, card.vacancyId);
      const rendering = renderCandidateRest(toCandidateView(card, null));
      const bytes = splicedCandidateBytes(card.id, card.vacancyId, vacancyTitle, rendering);
      return { id: card.id, vacancyId: card.vacancyId, vacancyTitle, updatedAt: position.modifiedAt, rendering, bytes };
    });
    return withinPageBytes(page, query.maxBytes);
  }

  async listIds(query: Omit<CandidateListQuery, 'maxBytes'>): Promise<ListedId[]> {
    return this.listedCards(query).map(({ position: { id, modifiedAt } }) => ({ id, updatedAt: modifiedAt, bytes: idItemBytes(id, modifiedAt) }));
  }

  /** The first `limit` listed cards of the query, in the list order. */
  private listedCards(query: Omit<CandidateListQuery, 'maxBytes'>): { card: CandidateCard; position: PagePosition }[] {
    const { companyId, since, vacancyId, after, limit } = query;
    const listed: { card: CandidateCard; position: PagePosition }[] = [];
    for (const row of this.db.candidates.values()) {
      if (row.companyId !== companyId || row.technical) continue;
      if (vacancyId !== null && row.vacancyId !== vacancyId) continue;
      const card = CandidateCard.restore(row);
      const position = { modifiedAt: card.modifiedAt, id: row.id };
      if (since !== null && position.modifiedAt.getTime() <= since.getTime()) continue;
      if (after !== null && comparePositions(position, after) <= 0) continue;
      listed.push({ card, position });
    }
    return listed.sort((a, b) => comparePositions(a.position, b.position)).slice(0, limit);
  }

  private titleOf(companyId: string, vacancyId: string | null): string | null {
    return vacancyId === null ? null : (this.db.vacancies.get(rowKey(companyId, vacancyId))?.title ?? null);
  }

  private findWhere(companyId: string, test: (row: CandidateCardSnapshot) => boolean): CandidateCard | null {
    for (const row of this.db.candidates.values()) {
      if (row.companyId === companyId && test(row)) return CandidateCard.restore(row);
    }
    return null;
  }
}

function storedApplicationOf(row: CandidateCardSnapshot): StoredApplication {
  return { externalId: row.externalId as string, id: row.id, requestFingerprint: row.requestFingerprint };
}

/**
 * Whether the row is a technical card of this origin on this vacancy: the unique index over
 * (company_id, origin_card_id, vacancy_id) where origin_card_id is not null, whose NULLs are distinct.
 */
function sameTransfer(row: CandidateCardSnapshot, originCardId: string | null, vacancyId: string | null): boolean {
  return originCardId !== null && vacancyId !== null && row.originCardId === originCardId && row.vacancyId === vacancyId;
}
