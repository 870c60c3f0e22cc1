import { portToken } from './port-token.js';

/** What the platform versions: a vacancy (with its board) or a candidate card. */
export type FeedEntityKind = 'vacancy' | 'candidate';

export interface FeedEntityRef {
  readonly companyId: string;
  readonly kind: FeedEntityKind;
  readonly id: string;
}

/**
 * The versions the feed has applied to one entity: one per aspect (the part of the entity an event type
 * changes: a vacancy's fields, its board, a card's stage, its resume, ...), and the version of its
 * deletion while its tombstone lasts.
 */
export interface FeedEntityVersions {
  readonly aspects: ReadonlyMap<string, number>;
  readonly deletedAt: number | null;
}

/** An entity the feed never touched (or only claims without an entity): no versions. */
export function noFeedVersions(): FeedEntityVersions {
  return { aspects: new Map(), deletedAt: null };
}

/**
 * What the platform feed has applied, kept in the business database beside the data, so that recording an
 * event and its effect are one transaction (docs/adr/0016-platform-feed.md). Every call made inside a
 * unit of work takes part in its transaction, as the repositories' calls do.
 */
export interface FeedLedger {
  /**
   * Records that the event `eventId` of `source` was applied: true when it was not recorded before, false
   * when it was (a redelivery or a republication). Two transactions that claim one event at once: the
   * second waits for the first and gets false if it committed.
   */
  claimEvent(source: string, eventId: string, companyId: string, now: Date): Promise<boolean>;
  /**
   * The claims of a batch of events at once (one statement on PostgreSQL), each as claimEvent would make it, in
   * order: null for an event recorded before, or claimed earlier in the same call; else its
   * entity's versions (none for a claim without an entity), and those of the vacancy it names, if it names one.
   * The versions are those stored when the call is made: a batch that changes an entity keeps its later
   * versions itself (ApplyPlatformEvent).
   */
  claimEvents(claims: readonly FeedEventClaim[], now: Date): Promise<(FeedClaimed | null)[]>;
  /** The versions recorded for the entity; no aspects and no deletion when the feed never touched it. */
  versionsOf(entity: FeedEntityRef): Promise<FeedEntityVersions>;
  /**
   * Those of the ids given whose entity (of the company and kind) has a version of some aspect recorded, a
   * tombstone aside: the entities the platform versions (one read for many).
   */
  versionedAmong(companyId: string, kind: FeedEntityKind, ids: readonly string[]): Promise<ReadonlySet<string>>;
  /** Records `version` for each of `aspects` of the entity (a version never goes down), and forgets its tombstone (it lives again). */
  recordVersions(entity: FeedEntityRef, aspects: readonly string[], version: number, now: Date): Promise<void>;
  /** The entity was deleted at `version`: its aspects are forgotten and a tombstone keeps the version. */
  recordDeletion(entity: FeedEntityRef, version: number, now: Date): Promise<void>;
  /**
   * recordVersions and recordDeletion for each record, in their order, with the same effect as those calls
   * one after another. Inside a unit of work the effect may be made with the work's next call of a store, or
   * with its commit, but always before that call's own: a later read of the work sees it, and a failure of it
   * fails that call or the commit rather than this one (on PostgreSQL it then costs no round trip of its own).
   */
  recordAll(records: readonly FeedVersionRecord[], now: Date): Promise<void>;
  /**
   * Forgets applied event ids and tombstones recorded before `before` (FEED_TOMBSTONE_DAYS): how many of
   * each. Not inside a unit of work: it touches every company.
   */
  purge(before: Date): Promise<{ readonly events: number; readonly tombstones: number }>;
}

/** One event to claim in `claimEvents`: its id, and the entity whose versions come with the claim (none for an application). */
export interface FeedEventClaim {
  readonly source: string;
  readonly eventId: string;
  readonly companyId: string;
  readonly entity: FeedEntityRef | null;
  /**
   * The id of a vacancy (of the claim's company) that the event's change names: a card's, a transfer's target,
   * an application's. Its versions come with the claim too, read in the same statement.
   */
  readonly vacancyId?: string | null;
}

/** What the claim of a new event read: its entity's versions, and those of the vacancy it names (null when none). */
export interface FeedClaimed {
  readonly versions: FeedEntityVersions;
  readonly vacancy: FeedEntityVersions | null;
}

/** A write of the ledger that `recordAll` makes: recordVersions' or recordDeletion's. */
export type FeedVersionRecord =
  | { readonly type: 'versions'; readonly entity: FeedEntityRef; readonly aspects: readonly string[]; readonly version: number }
  | { readonly type: 'deletion'; readonly entity: FeedEntityRef; readonly version: number };

export const FEED_LEDGER = portToken<FeedLedger>('FeedLedger');
