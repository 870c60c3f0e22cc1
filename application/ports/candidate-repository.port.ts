import type { CandidateCard, CandidateCardSnapshot } from '../../domain/candidate/candidate-card.js';
import type { PagePosition } from '../../domain/paging/cursor.js';
import { portToken } from './port-token.js';

/**
 * A card as the API shows it (spec 2.2), with its vacancy's title: what the presenters render, for the list's
 * read model and for the use cases that answer with the card they changed.
 */
export interface CandidateView
  extends Pick<CandidateCardSnapshot, 'id' | 'vacancyId' | 'stage' | 'source' | 'externalId' | 'coverLetter' | 'person' | 'resume' | 'referral' | 'createdAt'> {
  readonly vacancyTitle: string | null;
  /** The later of the card's and the resume's modification times. */
  readonly updatedAt: Date;
}

/**
 * A listed card as the read model keeps it (ADR 18): its place in the order, its vacancy's title read now,
 * and the rest of its API JSON as the presenters rendered it when the card was last written.
 */
export interface ListedCandidate {
  readonly id: string;
  readonly vacancyId: string | null;
  /** Null when vacancyId is null. */
  readonly vacancyTitle: string | null;
  /** The later of the card's and the resume's modification times: the list's order and its cursors. */
  readonly updatedAt: Date;
  /** What the presenters rendered of the card (its JSON after vacancyTitle); opaque to the application. */
  readonly rendering: string;
  /** The UTF-8 bytes of the card's JSON as an item of a page (the rendering with the leading fields put back). */
  readonly bytes: number;
}

/**
 * What a repeated application is answered with (spec 4.3): the card its externalId was first stored as, and
 * the fingerprint of that first request's body, to tell a replay from a reused externalId. Not the card:
 * a repeat needs nothing else of it, and reading its documents cost the repeat most of its CPU.
 */
export interface StoredApplication {
  readonly externalId: string;
  /** The card's id. */
  readonly id: string;
  readonly requestFingerprint: string | null;
}

/** A card that stands on a vacancy: a technical card names the card it was transferred from. */
export interface CardOnVacancy {
  readonly id: string;
  readonly originCardId: string | null;
}

export interface CandidateListQuery {
  readonly companyId: string;
  /** Only cards whose card or resume was modified strictly later than this. */
  readonly since: Date | null;
  readonly vacancyId: string | null;
  /** Only cards strictly after this position in the order (modification time, id). */
  readonly after: PagePosition | null;
  readonly limit: number;
  /**
   * Reads no further than a page of this many bytes needs (ADR 24): the first two cards, then each card while
   * the UTF-8 bytes of the renderings before it stay within maxBytes. A last card whose own rendering takes
   * them past maxBytes (never the first) is there only to say that more exist: its rendering is not read ('')
   * and its bytes are PAST_BUDGET_BYTES. Absent: no such end.
   */
  readonly maxBytes?: number;
}

/**
 * A listed record of an identifier-only page (`fields=id`): its place in the list order and nothing else, so
 * that a store can answer it from its order's index without reading any record.
 */
export interface ListedId {
  readonly id: string;
  readonly updatedAt: Date;
  /** The UTF-8 bytes of the item's JSON, `{"id":…,"updatedAt":…}`. */
  readonly bytes: number;
}

/** The bytes of a listed record past the page's byte budget (CandidateListQuery.maxBytes): more than any page holds. */
export const PAST_BUDGET_BYTES = Number.POSITIVE_INFINITY;

export interface CandidateRepository {
  /** Any card of the company, technical ones included. */
  findById(companyId: string, id: string): Promise<CandidateCard | null>;
  /**
   * A hint, for a unit of work of the company in `write` mode about to read many cards by id (a batch of the
   * platform feed): the cards are read in one go, and findById answers them from there for the rest of the unit
   * of work, each as the unit of work has left it (a card written since is read again). It changes no answer.
   * Outside such a unit of work, and where a read costs nothing, it does nothing.
   */
  preloadByIds(companyId: string, ids: readonly string[]): Promise<void>;
  findByExternalId(companyId: string, externalId: string): Promise<CandidateCard | null>;
  /** The company's stored applications of these externalIds, in no particular order (one read for many). */
  findStoredApplications(companyId: string, externalIds: readonly string[]): Promise<StoredApplication[]>;
  findBySourceRef(companyId: string, sourceRef: string): Promise<CandidateCard | null>;
  insert(card: CandidateCard): Promise<void>;
  /**
   * Inserts many new cards at once, for bulk loads (the demo data set, imports): as few round trips as the
   * store allows, all or nothing, with the same uniqueness rules as insert.
   */
  insertMany(cards: readonly CandidateCard[]): Promise<void>;
  /**
   * Inserts applications' cards (of one company, each with an externalId) in one go, except where the
   * company already has a card with the externalId: for each card, in order, null when it was inserted,
   * else the earlier stored application of its externalId (also one earlier in the same call). Concurrent
   * calls can never insert two cards with one externalId.
   */
  insertApplications(cards: readonly CandidateCard[]): Promise<(StoredApplication | null)[]>;
  /**
   * Inserts a technical card unless the company already has one transferred from the same card to the
   * same vacancy: null when it was inserted, else that earlier technical card, unchanged. Concurrent calls
   * can never insert two technical cards of one card on one vacancy.
   */
  insertTechnicalCard(card: CandidateCard): Promise<CandidateCard | null>;
  update(card: CandidateCard): Promise<void>;
  /** Deletes the card and the technical cards transferred from it. */
  delete(companyId: string, id: string): Promise<boolean>;
  /**
   * The vacancy was deleted: its cards stay, without vacancy and stage, and count as modified at `now`; how many.
   * With `only`, just those of its cards (an id of a card elsewhere, or of none, is passed over).
   */
  detachVacancy(companyId: string, vacancyId: string, now: Date, only?: readonly string[]): Promise<number>;
  /** Every card that stands on the vacancy, technical ones included (with the card they were transferred from), in no particular order. */
  cardsOnVacancy(companyId: string, vacancyId: string): Promise<CardOnVacancy[]>;
  /** The distinct stages that cards of the vacancy stand in. */
  stagesInUse(companyId: string, vacancyId: string): Promise<string[]>;
  /** Up to `limit` non-technical cards in the order (modification time, id) ascending, ended early by `maxBytes`. */
  list(query: CandidateListQuery): Promise<ListedCandidate[]>;
  /** The same order and filters as list, up to `limit` cards, of each only its id and place (no byte budget: every item is small). */
  listIds(query: Omit<CandidateListQuery, 'maxBytes'>): Promise<ListedId[]>;
}

export const CANDIDATE_REPOSITORY = portToken<CandidateRepository>('CandidateRepository');
