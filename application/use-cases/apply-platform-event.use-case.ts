import type { CandidateRepository } from '../ports/candidate-repository.port.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';
import { noFeedVersions, type FeedEntityKind, type FeedEntityRef, type FeedEntityVersions, type FeedEventClaim, type FeedLedger } from '../ports/feed-ledger.port.js';
import { StoreUnavailableError } from '../ports/store-unavailable.error.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { ItemOutcome } from './company-batches.js';
import { FeedBatchVersions } from './feed-batch-versions.js';
import { FLOOR, type FeedEvent, type FeedHandler, type FeedHandlerTable } from './feed/feed-event.js';
import { ChangeNotYetApplicableError, type PlatformChangeType, type PlatformEventCommand, type PlatformEventOutcome } from './platform-change.js';
import { requireCompany } from './require-company.js';

/**
 * Applies one event of the platform feed, exactly once in effect (DESIGN 4a; docs/adr/0016-platform-feed.md).
 *
 * One unit of work of the company holds it all: the record of the event's id, the version check, the change
 * (the use case that carries it out joins the unit of work) and the new versions. So a redelivered event finds
 * its id recorded; an event older than what is stored for its entity is stale; and every fed write takes the
 * company's lock like any other write, so sync with `since` and `X-Sync-Watermark` misses none of them.
 *
 * Every event changes one entity, and the handler of its type (FeedHandlerTable) applies it by the merge rule:
 * each aspect of the entity holds the value of the highest version that set it, its existence that of the
 * highest of its creating and deleting events. So the state is a function of the set of events delivered.
 */
export class ApplyPlatformEvent {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly candidates: CandidateRepository,
    private readonly ledger: FeedLedger,
    private readonly unitOfWork: UnitOfWork,
    private readonly handlers: FeedHandlerTable,
  ) {}

  async execute(command: PlatformEventCommand): Promise<PlatformEventOutcome> {
    // Before the unit of work: the registry is read on a connection of its own (require-company.ts says why).
    await requireCompany(this.companies, command.companyId);
    // An application is an append, as POST /applications: applications of a company are stored side by side.
    const mode = command.change.type === 'application.submitted' ? 'append' : 'write';
    const [outcome] = await this.unitOfWork.run(command.companyId, mode, ({ now }) => this.applyAllIn([command], now, () => undefined));
    if (outcome === undefined) throw new Error('An event was applied without an outcome.');
    return outcome;
  }

  /**
   * Group commit: events of one company applied in one unit of work, in their order, each with its own outcome
   * (the feed's consumer hands over the events that queued while the company's earlier ones were applied). The
   * transaction's fixed cost (begin, the company's lock, the commit) is shared, and nothing else changes: each
   * event is claimed, checked and applied as `execute` would, and all of it commits, or none of it.
   *
   * A batch takes the company's lock exclusively (`write`) even when it holds applications only: their cards,
   * inserted one event after another, could meet a POST /applications batch inserting the same externalIds in
   * another order (a deadlock); alone, an application is an append, as POST /applications.
   *
   * When an event fails, the batch is undone and split there: the events before it go again as a batch, the
   * failing one alone (so that its failure stays its own), those after it as a batch. When the database cannot
   * be reached, every event not yet applied fails with that at once; so does every event of a batch whose work
   * timed out before any event (the company's lock held by another session): each alone would wait for the
   * lock again, one statement bound after another.
   */
  async executeAll(commands: readonly PlatformEventCommand[]): Promise<ItemOutcome<PlatformEventOutcome>[]> {
    const [first] = commands;
    if (first === undefined) return [];
    if (commands.length === 1) return [await outcomeOf(() => this.execute(first))];
    const { companyId } = first;
    if (commands.some((command) => command.companyId !== companyId)) throw new Error('A batch of platform events holds the events of one company.');
    let failedAt: number | null = null;
    try {
      await requireCompany(this.companies, companyId);
      const outcomes = await this.unitOfWork.run(companyId, 'write', ({ now }) => this.applyAllIn(commands, now, (index) => (failedAt = index)));
      return outcomes.map((value) => ({ value }));
    } catch (error) {
      if (isDatabaseAway(error) || (failedAt === null && isStoreUnavailable(error))) return commands.map(() => ({ error }));
      // Failed outside any event (the company, the lock, the commit): each alone, as `execute` would.
      if (failedAt === null) return this.eachAlone(commands);
      const at = failedAt as number;
      const before = await this.executeAll(commands.slice(0, at));
      const failing = await outcomeOf(() => this.execute(commands[at] as PlatformEventCommand));
      const away = awayIn([...before, failing]);
      if (away !== undefined) return [...before, failing, ...commands.slice(at + 1).map(() => away)];
      return [...before, failing, ...(await this.executeAll(commands.slice(at + 1)))];
    }
  }

  /** Each event in a unit of work of its own; once the database is away, the rest fail with that untried. */
  private async eachAlone(commands: readonly PlatformEventCommand[]): Promise<ItemOutcome<PlatformEventOutcome>[]> {
    const outcomes: ItemOutcome<PlatformEventOutcome>[] = [];
    for (const command of commands) outcomes.push(awayIn(outcomes) ?? (await outcomeOf(() => this.execute(command))));
    return outcomes;
  }

  /**
   * Events of one company, in their order, inside its unit of work (a `write`, or an `append` for a lone
   * application): every event claimed at once, with the versions of their entities (one statement), the cards
   * they are about read ahead (one more, when there are several), each checked and applied, and the versions they
   * set written at the end (FeedLedger.recordAll: on PostgreSQL in the message of the commit). `at` is told the
   * index of the event being applied, and null once none is.
   */
  private async applyAllIn(commands: readonly PlatformEventCommand[], now: Date, at: (index: number | null) => void): Promise<PlatformEventOutcome[]> {
    at(null);
    const claims = await this.ledger.claimEvents(commands.map((command) => this.claimOf(command)), now);
    // The cards the batch's events are about, read in one go rather than one read each (a hint to the store).
    const cards = commands.filter((command, index) => claims[index] !== null && this.handlerOf(command.change.type).entity === 'candidate');
    if (cards.length > 1) await this.candidates.preloadByIds(cards[0]?.companyId as string, cards.map((command) => command.subject));
    const batch = new FeedBatchVersions();
    // The versions of the vacancies the events name (an application's), read with the claims: kept by the batch.
    for (const [index, command] of commands.entries()) {
      const vacancy = claims[index]?.vacancy;
      const vacancyId = namedVacancyOf(command);
      if (vacancyId !== null && vacancy !== null && vacancy !== undefined) batch.current({ companyId: command.companyId, kind: 'vacancy', id: vacancyId }, vacancy);
    }
    const outcomes: PlatformEventOutcome[] = [];
    for (const [index, command] of commands.entries()) {
      at(index);
      const claimed = claims[index];
      if (claimed === undefined) throw new Error('The ledger answered a batch of claims with fewer outcomes.');
      outcomes.push(claimed === null ? 'duplicate' : await this.applyIn(command, claimed.versions, batch, now));
    }
    at(null);
    await this.ledger.recordAll(batch.records, now);
    return outcomes;
  }

  /** One claimed event, by the handler of its type, in the batch that `batch` keeps the versions of. */
  private async applyIn(command: PlatformEventCommand, claimed: FeedEntityVersions, batch: FeedBatchVersions, now: Date): Promise<PlatformEventOutcome> {
    const { companyId, subject, version, change } = command;
    const handler = this.handlerOf(change.type);
    const entity: FeedEntityRef | null = handler.entity === null ? null : { companyId, kind: handler.entity, id: subject };
    const versions = entity === null ? noFeedVersions() : batch.current(entity, claimed);
    const record = (write: (entity: FeedEntityRef) => void) => {
      if (entity === null) throw new Error(`A ${change.type} event has no versioned entity to record.`);
      write(entity);
    };
    const versionsOf = async (other: FeedEntityRef) => batch.known(other) ?? (await this.ledger.versionsOf(other));
    const event: FeedEvent<PlatformChangeType> = {
      companyId, subject, version, change, now, versions,
      setAspects: (aspects) =>
        record((self) => {
          // An entity that lives again keeps its deletion's version as the floor of its aspects.
          if (versions.deletedAt !== null) batch.record({ type: 'versions', entity: self, aspects: [FLOOR], version: versions.deletedAt });
          batch.record({ type: 'versions', entity: self, aspects, version });
        }),
      recordDeletion: () => record((self) => batch.record({ type: 'deletion', entity: self, version })),
      recordFloor: () => record((self) => batch.record({ type: 'versions', entity: self, aspects: [FLOOR], version })),
      versionsOf: (kind, id) => versionsOf({ companyId, kind, id }),
      versionedAmong: (kind, ids) => this.versionedAmong(batch, companyId, kind, ids),
    };
    return handler.apply(event).catch(notYetWhenMissing);
  }

  /** Those of the ids the platform versions: as the batch knows them, else as stored. */
  private async versionedAmong(batch: FeedBatchVersions, companyId: string, kind: FeedEntityKind, ids: readonly string[]): Promise<ReadonlySet<string>> {
    const unknown = ids.filter((id) => batch.known({ companyId, kind, id }) === undefined);
    const stored = unknown.length === 0 ? new Set<string>() : await this.ledger.versionedAmong(companyId, kind, unknown);
    return new Set(ids.filter((id) => stored.has(id) || (batch.known({ companyId, kind, id })?.aspects.size ?? 0) > 0));
  }

  /** The handler of a type, as one of any type: each handler is given only events of its own type. */
  private handlerOf(type: PlatformChangeType): FeedHandler<PlatformChangeType> {
    return this.handlers[type] as FeedHandler<PlatformChangeType>;
  }

  private claimOf(command: PlatformEventCommand): FeedEventClaim {
    const { source, eventId, companyId, subject, change } = command;
    const kind = this.handlerOf(change.type).entity;
    return { source, eventId, companyId, entity: kind === null ? null : { companyId, kind, id: subject }, vacancyId: namedVacancyOf(command) };
  }
}

/** The vacancy an application names, whose deletion decides where its card goes; null for the other types. */
function namedVacancyOf({ change }: PlatformEventCommand): string | null {
  return change.type === 'application.submitted' ? change.application.vacancyId : null;
}

async function outcomeOf(work: () => Promise<PlatformEventOutcome>): Promise<ItemOutcome<PlatformEventOutcome>> {
  try {
    return { value: await work() };
  } catch (error) {
    return { error };
  }
}

/**
 * The database cannot be reached: not a timeout of this work's statement, after which other work may well go
 * through. Told by name and code as well as class (notYetWhenMissing says why).
 */
function isDatabaseAway(error: unknown): boolean {
  return isStoreUnavailable(error) && (error as { workOnly?: unknown }).workOnly !== true;
}

/** The database away, or a timeout of this work (its lock or a statement). */
function isStoreUnavailable(error: unknown): boolean {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  return error instanceof StoreUnavailableError || (name === 'StoreUnavailableError' && code === 'service_unavailable');
}

/** The first outcome that says the database is away, if any. */
function awayIn(outcomes: readonly ItemOutcome<PlatformEventOutcome>[]): ItemOutcome<PlatformEventOutcome> | undefined {
  return outcomes.find((outcome) => 'error' in outcome && isDatabaseAway(outcome.error));
}

/**
 * A card or vacancy that is missing, or a state that refuses the change (a column not on the board yet, a
 * column that still holds cards), may be made right by an event still on its way: the change is retried.
 * A missing company, a body that breaks a rule, a transfer to the card's own vacancy: never.
 */
function notYetWhenMissing(error: unknown): never {
  const { code, resource, message } = (error ?? {}) as { code?: unknown; resource?: unknown; message?: unknown };
  // Told by the errors' stable codes, not by class: under mocha with tsx, the PostgreSQL adapters (imported
  // dynamically by the composition root) get their own copies of the domain's classes, and so the errors
  // their aggregates throw (a board's ConflictError) are not instances of the classes this module would import.
  const missing = code === 'not_found' && resource !== 'company';
  if (error instanceof Error && (missing || code === 'conflict')) {
    throw new ChangeNotYetApplicableError(String(message), { cause: error });
  }
  throw error;
}
