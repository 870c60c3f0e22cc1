import type { FeedEntityKind, FeedEntityVersions } from '../../ports/feed-ledger.port.js';
import type { PlatformChangeOf, PlatformChangeType, PlatformEventOutcome } from '../platform-change.js';

/**
 * One event of the platform feed as its handler sees it: the change, its entity's versions (as the batch knows
 * them, else as stored), and the ledger writes it may make, all at the event's version, kept for the batch's end.
 */
export interface FeedEvent<T extends PlatformChangeType> {
  readonly companyId: string;
  /** The entity the event changes: a vacancy's or a card's id (an application's externalId). */
  readonly subject: string;
  readonly version: number;
  readonly change: PlatformChangeOf<T>;
  readonly now: Date;
  /** The versions of the event's entity; none for an event of no versioned entity (an application). */
  readonly versions: FeedEntityVersions;
  /** The event set these aspects of its entity, which lives (a tombstone it had becomes the floor). */
  setAspects(aspects: readonly string[]): void;
  /** The event deleted its entity: the aspects are forgotten, the tombstone keeps the version. */
  recordDeletion(): void;
  /** The event is a deletion older than the entity's present life: its version stays the floor of every aspect. */
  recordFloor(): void;
  /** Another entity's versions, as the batch knows them, else as stored. */
  versionsOf(kind: FeedEntityKind, id: string): Promise<FeedEntityVersions>;
  /** Those of the ids whose entity of the kind has a version of some aspect: the entities the platform versions. */
  versionedAmong(kind: FeedEntityKind, ids: readonly string[]): Promise<ReadonlySet<string>>;
}

/** What one event type does to its entity (one file per type, found through FeedHandlerTable). */
export interface FeedHandler<T extends PlatformChangeType> {
  /** The kind of entity the type's subject names; null when the feed does not version it (an application). */
  readonly entity: FeedEntityKind | null;
  apply(event: FeedEvent<T>): Promise<PlatformEventOutcome>;
}

/** A handler for every type: a type added to PlatformChange is a type error here until it has its handler. */
export type FeedHandlerTable = { readonly [T in PlatformChangeType]: FeedHandler<T> };

/**
 * The aspect that keeps, once an entity lives again, the version of its latest deletion (the tombstone's, or one
 * older than its present life that came late): every event at or below it is of an earlier life, and stale.
 * Stored under the name it has had since the ledger began.
 */
export const FLOOR = 'revived-after';

/** A card's aspects: its creation (existence), its person and resume, its stage, its vacancy; a transfer per target. */
export const CARD = 'card';
export const RESUME = 'resume';
export const STAGE = 'stage';
export const VACANCY = 'vacancy';
/** A vacancy's aspects besides its existence: its fields (set by the upsert that also makes it) and its board. */
export const FIELDS = 'vacancy';
export const BOARD = 'board';

/** How the aspects of a card's transfers and detaches begin: the vacancy's id follows. */
export const TRANSFER_PREFIX = 'transfer:';

/** The aspect of a card that its transfer to the vacancy, and its detachment from it, set. */
export function transferAspect(vacancyId: string): string {
  return `${TRANSFER_PREFIX}${vacancyId}`;
}

/** The version of the entity's latest deletion known: its tombstone's, or the floor its present life keeps. */
export function floorOf(versions: FeedEntityVersions): number {
  return Math.max(versions.deletedAt ?? -Infinity, versions.aspects.get(FLOOR) ?? -Infinity);
}

/**
 * The merge rule (docs/adr/0016-platform-feed.md): of `aspects`, those whose value an event at `version` sets,
 * the highest version setting each. None when the event is of an earlier life of its entity: at or below its
 * latest deletion, or (a card) below the creation of its present life.
 */
export function decides(versions: FeedEntityVersions, version: number, aspects: readonly string[]): string[] {
  if (version <= floorOf(versions) || version < (versions.aspects.get(CARD) ?? -Infinity)) return [];
  return aspects.filter((aspect) => version > (versions.aspects.get(aspect) ?? -Infinity));
}
