import { Board } from '../../domain/board/board.js';
import { CandidateCard } from '../../domain/candidate/candidate-card.js';
import type { BoardRepository } from '../ports/board-repository.port.js';
import type { CandidateRepository } from '../ports/candidate-repository.port.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';
import type { FeedEntityKind, FeedEntityRef, FeedEntityVersions, FeedEventClaim, FeedLedger } from '../ports/feed-ledger.port.js';
import { StoreUnavailableError } from '../ports/store-unavailable.error.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { VacancyRepository } from '../ports/vacancy-repository.port.js';
import type { ManualCandidate } from './add-candidates.use-case.js';
import { boardOf } from './card-lookup.js';
import type { ItemOutcome } from './company-batches.js';
import type { DeleteCandidate } from './delete-candidate.use-case.js';
import type { DeleteVacancy } from './delete-vacancy.use-case.js';
import { FeedBatchVersions } from './feed-batch-versions.js';
import type { MoveCandidate } from './move-candidate.use-case.js';
import { ChangeNotYetApplicableError, type PlatformChange, type PlatformEventCommand, type PlatformEventOutcome } from './platform-change.js';
import { requireCompany } from './require-company.js';
import type { SetBoardColumns } from './set-board-columns.use-case.js';
import type { SubmitApplication } from './submit-application.use-case.js';
import type { TransferCandidate } from './transfer-candidate.use-case.js';
import type { UpdateResume } from './update-resume.use-case.js';
import type { UpsertVacancies } from './upsert-vacancies.use-case.js';

/**
 * The aspect recorded when an entity lives again after a deletion, with the deletion's version: every aspect
 * of it is at least that new, so a change made before the deletion, still on its way, stays stale, also for
 * the aspects the reviving event does not set (a vacancy's board, a card's transfers). It keeps the deletion's
 * time too, against which a card, a transfer or an application to the vacancy made before it is told.
 */
const REVIVED_AFTER = 'revived-after';

/**
 * The version an application's card is recorded with (its `card` aspect, with the event's time): below every
 * version the platform gives (entityversion is at least 1), so that none of the card's own events is stale by it.
 */
const PLACED_VERSION = 0;

/** The use cases a fed change is carried out by: the same ones the admin CLI and the API call. */
export interface PlatformChangeHandlers {
  readonly upsertVacancies: UpsertVacancies;
  readonly deleteVacancy: DeleteVacancy;
  readonly setBoardColumns: SetBoardColumns;
  readonly moveCandidate: MoveCandidate;
  readonly transferCandidate: TransferCandidate;
  readonly updateResume: UpdateResume;
  readonly deleteCandidate: DeleteCandidate;
  readonly submitApplication: SubmitApplication;
}

/**
 * Applies one event of the platform feed, exactly once in effect (DESIGN 4a; docs/adr/0016-platform-feed.md).
 *
 * One unit of work of the company holds it all: the record of the event's id, the version check, the change
 * (the use case that carries it out joins the unit of work) and the new versions. So a redelivered event finds
 * its id recorded; an event older than what is stored for its entity is stale; and every fed write takes the
 * company's lock like any other write, so sync with `since` and `X-Sync-Watermark` misses none of them.
 *
 * Versions are kept per aspect of an entity, because events carry only what changed: a move (stage) and a
 * resume update of one card are both newer than the card's creation, and neither makes the other stale. A
 * deletion is newer than every aspect; its tombstone makes a late, older event of the entity stale.
 */
export class ApplyPlatformEvent {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly vacancies: VacancyRepository,
    private readonly boards: BoardRepository,
    private readonly candidates: CandidateRepository,
    private readonly ledger: FeedLedger,
    private readonly unitOfWork: UnitOfWork,
    private readonly handlers: PlatformChangeHandlers,
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
    const claims = await this.ledger.claimEvents(commands.map(claimOf), now);
    // The cards the batch's events are about, read in one go rather than one read each (a hint to the store).
    const cards = commands.filter((command, index) => claims[index] !== null && command.change.type.startsWith('candidate.'));
    if (cards.length > 1) await this.candidates.preloadByIds(cards[0]?.companyId as string, cards.map((command) => command.subject));
    const batch = new FeedBatchVersions();
    // The versions of the vacancies the events name, read with the claims: kept by the batch as its events' own are.
    for (const [index, command] of commands.entries()) {
      const vacancyId = namedVacancyOf(command.change);
      const vacancy = claims[index]?.vacancy;
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

  /** One claimed event, in the batch that `batch` keeps the versions of. */
  private async applyIn(command: PlatformEventCommand, claimed: FeedEntityVersions, batch: FeedBatchVersions, now: Date): Promise<PlatformEventOutcome> {
    const { companyId, change } = command;
    if (change.type === 'application.submitted') {
      const submitted = { companyId, application: change.application };
      // Made before the latest deletion of its vacancy applied here, by the events' times: the deletion left the
      // application without a vacancy, as the vacancy's other cards, whether the vacancy lives again or not.
      if ((await this.madeBeforeDeletion(batch, companyId, change.application.vacancyId, command.time)) === true) {
        const detached = await this.handlers.submitApplication.executeDetachedNow(submitted);
        return detached.status === 'created' ? 'applied' : 'duplicate';
      }
      const result = await this.handlers.submitApplication.executeNow(submitted).catch(async (error: unknown) => {
        // A vacancy whose deletion was applied here: the platform took the application while the vacancy lived, and
        // the deletion left the vacancy's cards without a vacancy; or the platform made the vacancy again (a newer
        // upsert still on its way) and took the application after that. Both look alike here, so the event waits
        // like any early event, and once that wait is over (revivalWaitOver), the vacancy still deleted, is stored as
        // the deletion left the other cards rather than dead-lettered. A vacancy never seen is still to come.
        if (command.revivalWaitOver === true && isMissingVacancy(error) && (await this.isDeleted(batch, companyId, 'vacancy', change.application.vacancyId))) {
          return this.handlers.submitApplication.executeDetachedNow(submitted);
        }
        return notYetWhenMissing(error);
      });
      if (result.status !== 'created') return 'duplicate';
      // The time its card was placed on the vacancy, for a deletion of the vacancy to tell (placementTimes).
      if (command.time != null) batch.record({ type: 'versions', entity: { companyId, kind: 'candidate', id: result.id }, aspects: ['card'], version: PLACED_VERSION, time: command.time });
      return 'applied';
    }
    const entity = entityOf(command);
    const versions = batch.current(entity, claimed);
    const aspects = aspectsOf(change);
    const time = command.time ?? null;
    if (isStale(versions, aspects, command.version)) {
      return change.type === 'vacancy.deleted' ? this.lateVacancyDeletion(command, versions, batch, now) : 'stale';
    }
    if (aspects === 'all') {
      if (change.type === 'vacancy.deleted' && time !== null && command.revivalWaitOver !== true) {
        // Cards placed on the vacancy after its deletion (by the times): the platform made it again, and the upsert
        // that did, newer than this deletion, is still on its way; applied now, the deletion would take them off
        // it. It waits like any early event: once that upsert is applied, it comes as a late deletion (above) and
        // takes off only the cards placed before it. Once the wait is over, it is applied as it comes.
        if ((await this.placementTimes(batch, command.companyId, command.subject)).some((placed) => placed.time !== null && placed.time > time)) {
          throw new ChangeNotYetApplicableError(`Vacancy ${command.subject} holds cards placed after its deletion; it may have been made again by an upsert on its way.`);
        }
      }
      await this.delete(entity, change);
      batch.record({ type: 'deletion', entity, version: command.version, time });
      return 'applied';
    }
    const outcome = await this.apply(command, batch, now).catch(notYetWhenMissing);
    if (outcome !== 'applied' && outcome !== 'repeated') return outcome;
    if (versions.deletedAt !== null) batch.record({ type: 'versions', entity, aspects: [REVIVED_AFTER], version: versions.deletedAt, time: versions.deletedTime });
    // With the event's time, which tells later when a card was placed on its vacancy (placementTimes); a repeated
    // transfer's technical card was placed by the earlier one, whose time it keeps (none when it had none).
    const placed = outcome === 'repeated' ? (versions.times.get(aspects[0] as string) ?? null) : time;
    batch.record({ type: 'versions', entity, aspects, version: command.version, time: placed });
    return 'applied';
  }

  /**
   * A deletion of a vacancy that comes after a newer change of it was applied: the platform made the vacancy
   * again, and the upsert that did (or a later change) came first. The deletion's effect still stands on the
   * platform: the cards placed on the vacancy before it (by the times) lost their vacancy, and those placed
   * after it kept theirs, and the vacancy made again got a new board. So those cards are taken off here, a
   * board older than the deletion goes back to a new vacancy's, and the deletion becomes the vacancy's revival
   * floor (REVIVED_AFTER, unless a later deletion's already is): a change made before it, still on its way,
   * stays stale, and a card or an application made before it goes without a vacancy (madeBeforeDeletion).
   * Stale, changing nothing, when a later deletion of it is recorded (it took those cards off already), or when
   * the times cannot tell (no time of the deletion's; a card without one stays). Cards are only taken off while
   * the times are known and the upsert that made the vacancy again came before the deletion's wait was over.
   */
  private async lateVacancyDeletion(command: PlatformEventCommand, versions: FeedEntityVersions, batch: FeedBatchVersions, now: Date): Promise<PlatformEventOutcome> {
    const { companyId, subject: id, version } = command;
    const time = command.time ?? null;
    // A later deletion of it was applied (its tombstone, or the floor it left when the vacancy was made again):
    // that one took the cards off and gave the vacancy its new board already.
    if (versions.deletedAt !== null || (versions.aspects.get(REVIVED_AFTER) ?? -Infinity) >= version || time === null) return 'stale';
    const before = (await this.placementTimes(batch, companyId, id)).filter((placed) => placed.time !== null && placed.time < time).map((placed) => placed.id);
    batch.record({ type: 'versions', entity: { companyId, kind: 'vacancy', id }, aspects: [REVIVED_AFTER], version, time });
    // Made again, the vacancy got the board of a new vacancy, and what board changes after that set: a board
    // older than the deletion here is the deleted vacancy's.
    const board = (versions.aspects.get('board') ?? -Infinity) < version ? await this.boards.find(companyId, id) : null;
    const fresh = Board.create(companyId, id);
    const oldBoard = board !== null && !sameColumns(board.columns, fresh.columns);
    if (oldBoard) await this.boards.save(fresh);
    if (before.length > 0) await this.candidates.detachVacancy(companyId, id, now, before);
    return oldBoard || before.length > 0 ? 'applied' : 'stale';
  }

  /**
   * The platform's time at which each card standing on the vacancy was placed there: a card's, its creation's
   * (the time recorded with its `card` aspect; an application's card, its event's, recorded at PLACED_VERSION); a
   * technical card's, the transfer's that left it there (its origin's `transfer:<vacancy>` aspect). Null where none
   * was recorded: a card of POST /applications, the API or the admin CLI, or one of an event without a time. As the
   * batch knows them.
   */
  private async placementTimes(batch: FeedBatchVersions, companyId: string, vacancyId: string): Promise<{ readonly id: string; readonly time: Date | null }[]> {
    const placed = await this.candidates.cardsOnVacancy(companyId, vacancyId);
    const transfer = transferAspect(vacancyId);
    // The entity and aspect that keep each card's time: its own creation, or its origin's transfer.
    const keepers = placed.map((card) => (card.originCardId === null ? { id: card.id, aspect: 'card' } : { id: card.originCardId, aspect: transfer }));
    const stored = new Map<string, ReadonlyMap<string, Date>>();
    for (const aspect of ['card', transfer]) {
      const ids = keepers.filter((keeper) => keeper.aspect === aspect && batch.known({ companyId, kind: 'candidate', id: keeper.id }) === undefined).map((keeper) => keeper.id);
      if (ids.length > 0) stored.set(aspect, await this.ledger.timesOf(companyId, 'candidate', aspect, ids));
    }
    return placed.map((card, index) => {
      const { id, aspect } = keepers[index] as { id: string; aspect: string };
      const known = batch.known({ companyId, kind: 'candidate', id });
      return { id: card.id, time: (known === undefined ? stored.get(aspect)?.get(id) : known.times.get(aspect)) ?? null };
    });
  }

  private async delete(entity: FeedEntityRef, change: PlatformChange): Promise<void> {
    const { companyId, id } = entity;
    const h = this.handlers;
    // Deleting what is not there (yet) leaves only the tombstone: the older event that makes it is stale when it comes.
    const remove = change.type === 'vacancy.deleted' ? h.deleteVacancy.execute({ companyId, id }) : h.deleteCandidate.execute({ companyId, id });
    await remove.catch((error: unknown) => {
      if ((error as { code?: unknown } | null)?.code !== 'not_found') throw error;
    });
  }

  /** The change carried out: its outcome, or `repeated` for a transfer that found the card's technical card there already (applied). */
  private async apply({ companyId, subject: id, change, revivalWaitOver, time }: PlatformEventCommand, batch: FeedBatchVersions, now: Date): Promise<PlatformEventOutcome | 'repeated'> {
    const h = this.handlers;
    switch (change.type) {
      case 'vacancy.upserted':
        await h.upsertVacancies.execute({ companyId, vacancies: [{ ...change.vacancy, id }] });
        return 'applied';
      case 'board.columns-set':
        await h.setBoardColumns.execute({ companyId, vacancyId: id, columns: change.columns });
        return 'applied';
      case 'candidate.added':
        return this.addCard(batch, companyId, id, change.card, now, { revivalWaitOver: revivalWaitOver === true, time: time ?? null });
      case 'candidate.moved':
        // A card whose vacancy was deleted stands in no column and can no longer move: the move was made
        // before the deletion, which undid it.
        return (await h.moveCandidate.apply({ companyId, id, stage: change.stage })) === 'detached' ? 'stale' : 'applied';
      case 'candidate.transferred':
        // Made before the latest deletion of its target applied here, by the events' times: the deletion took the
        // technical card the transfer left there, whether the target lives again or not.
        if ((await this.madeBeforeDeletion(batch, companyId, change.vacancyId, time)) === true) return 'stale';
        // A target whose deletion was applied here, the transfer made after it (by the times) or the times telling
        // nothing: the platform made it again (a newer upsert still on its way) and the card was transferred after
        // that, or (the times telling nothing) it was deleted after the transfer. The transfer waits like any early
        // event, and once that wait is over, the target still deleted, is stale (as application.submitted waits).
        if (await this.isDeleted(batch, companyId, 'vacancy', change.vacancyId)) {
          if (revivalWaitOver === true) return 'stale';
          throw new ChangeNotYetApplicableError(`Vacancy ${change.vacancyId} of the transfer was deleted; it may be made again by an upsert on its way.`);
        }
        // A repeat leaves the technical card there as it was (applyIn keeps the time it was placed at).
        return (await h.transferCandidate.apply({ companyId, id, vacancyId: change.vacancyId })) === 'repeated' ? 'repeated' : 'applied';
      case 'candidate.resume-updated':
        await h.updateResume.apply({ companyId, id, resume: change.resume });
        return 'applied';
      default:
        throw new Error(`Unexpected change ${change.type} in apply.`);
    }
  }

  private async addCard(
    batch: FeedBatchVersions,
    companyId: string,
    id: string,
    card: Omit<ManualCandidate, 'id'>,
    now: Date,
    made: { readonly revivalWaitOver: boolean; readonly time: Date | null },
  ): Promise<PlatformEventOutcome> {
    // The card is there, and this event is newer than its creation (the version check said so): the card was
    // deleted and made again, the deletion still on its way. The newer card replaces the older whole, as the
    // deletion and the new card together would (its technical cards go with it); the late deletion is then stale.
    if ((await this.candidates.findById(companyId, id)) !== null) await this.handlers.deleteCandidate.execute({ companyId, id });
    const asPlaced = (stage: string) =>
      CandidateCard.manual({ id, companyId, vacancyId: card.vacancyId, stage, person: card.candidate, resume: card.resume, referral: card.referral, now });
    const detached = async (): Promise<PlatformEventOutcome> => {
      const placed = asPlaced(card.stage ?? '');
      placed.detachFromVacancy(now);
      await this.candidates.insert(placed);
      return 'applied';
    };
    // Made before the latest deletion of its vacancy applied here, by the events' times: the deletion left it
    // without a vacancy, as the vacancy's other cards, whether the vacancy lives again or not.
    if ((await this.madeBeforeDeletion(batch, companyId, card.vacancyId, made.time)) === true) return detached();
    if ((await this.vacancies.findById(companyId, card.vacancyId)) === null) {
      if (!(await this.isDeleted(batch, companyId, 'vacancy', card.vacancyId))) {
        throw new ChangeNotYetApplicableError(`Vacancy ${card.vacancyId} of the card does not exist (yet).`);
      }
      // Its deletion was applied here, the card made after it (by the times) or the times telling nothing: the
      // platform made the vacancy again (a newer upsert on its way) and the card after that, or (the times telling
      // nothing) the vacancy was deleted after the card was made. The card waits like any early event; once that
      // wait is over, the vacancy still deleted, it stays without a vacancy, as the deletion left the others.
      if (!made.revivalWaitOver) throw new ChangeNotYetApplicableError(`Vacancy ${card.vacancyId} of the card was deleted; it may be made again by an upsert on its way.`);
      return detached();
    }
    // Where the platform placed the card, also in a column this board lacks: one that a board change still on its
    // way adds, or one that a board change applied first removed after the card had moved on (a column that holds
    // cards cannot be removed), the move still on its way. Waiting for the column would wait for ever in the second
    // case; placed as the platform placed it, the card is set right by whichever event comes. Without a stage
    // (the schema requires one; a card of the admin CLI's file may lack it), the board's first column, as
    // AddCandidates places it. The card is made here rather than by AddCandidates, which would read the vacancy
    // and its board again.
    const stage = card.stage ?? ((await boardOf(this.boards, companyId, card.vacancyId)).columns[0] as string);
    await this.candidates.insert(asPlaced(stage));
    return 'applied';
  }

  /** Whether the entity's deletion is recorded: as the batch knows it (its own records wait for its end), else as stored. */
  private async isDeleted(batch: FeedBatchVersions, companyId: string, kind: FeedEntityKind, id: string | null): Promise<boolean> {
    if (id === null) return false;
    return (await this.versionsOf(batch, { companyId, kind, id })).deletedAt !== null;
  }

  /**
   * Whether a change naming the vacancy (a card added, a transfer, an application) was made before the vacancy's
   * latest deletion applied here, by the platform's times: the change's, and the deletion's, kept with its
   * tombstone or, once the vacancy lives again, with REVIVED_AFTER. Null when they cannot tell: no deletion
   * applied, a time missing, or both times alike. Versions cannot tell it: they order one entity's changes only.
   */
  private async madeBeforeDeletion(batch: FeedBatchVersions, companyId: string, vacancyId: string | null, time: Date | null | undefined): Promise<boolean | null> {
    if (vacancyId === null || time === null || time === undefined) return null;
    const versions = await this.versionsOf(batch, { companyId, kind: 'vacancy', id: vacancyId });
    const deleted = versions.deletedAt !== null ? versions.deletedTime : (versions.times.get(REVIVED_AFTER) ?? null);
    if (deleted === null || deleted.getTime() === time.getTime()) return null;
    return time.getTime() < deleted.getTime();
  }

  /** The entity's versions as the batch knows them, else as stored. */
  private async versionsOf(batch: FeedBatchVersions, entity: FeedEntityRef): Promise<FeedEntityVersions> {
    return batch.known(entity) ?? (await this.ledger.versionsOf(entity));
  }
}

function entityKindOf(change: PlatformChange): FeedEntityKind {
  return change.type.startsWith('candidate.') ? 'candidate' : 'vacancy';
}

/** The entity an event is about: none for an application, which is not versioned. */
function entityOf({ companyId, change, subject }: PlatformEventCommand): FeedEntityRef {
  return { companyId, kind: entityKindOf(change), id: subject };
}

function claimOf(command: PlatformEventCommand): FeedEventClaim {
  const { source, eventId, companyId, change } = command;
  return { source, eventId, companyId, entity: change.type === 'application.submitted' ? null : entityOf(command), vacancyId: namedVacancyOf(change) };
}

/**
 * The vacancy a change names besides its own entity, whose deletion decides where it goes (madeBeforeDeletion):
 * a card's, a transfer's target, an application's. Null for the others.
 */
function namedVacancyOf(change: PlatformChange): string | null {
  switch (change.type) {
    case 'candidate.added':
      return change.card.vacancyId;
    case 'candidate.transferred':
      return change.vacancyId;
    case 'application.submitted':
      return change.application.vacancyId;
    default:
      return null;
  }
}

/** The aspects of its entity a change sets; `all` for a deletion, which is newer than every aspect. */
function aspectsOf(change: PlatformChange): readonly string[] | 'all' {
  switch (change.type) {
    case 'vacancy.upserted':
      return ['vacancy'];
    case 'board.columns-set':
      return ['board'];
    case 'candidate.added':
      // A new card: its stage and resume are as new as the card.
      return ['card', 'stage', 'resume'];
    case 'candidate.moved':
      return ['stage'];
    case 'candidate.resume-updated':
      return ['resume'];
    case 'candidate.transferred':
      // Transfers to different vacancies are independent of each other; a repeat is settled by the store.
      return [transferAspect(change.vacancyId)];
    case 'vacancy.deleted':
    case 'candidate.deleted':
      return 'all';
    case 'application.submitted':
      throw new Error('Applications are not versioned.');
  }
}

function sameColumns(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((column, index) => column === b[index]);
}

/** The aspect of a card that its transfers to the vacancy set. */
function transferAspect(vacancyId: string): string {
  return `transfer:${vacancyId}`;
}

function isStale(versions: FeedEntityVersions, aspects: readonly string[] | 'all', version: number): boolean {
  if (versions.deletedAt !== null && version <= versions.deletedAt) return true;
  if (aspects === 'all') return [...versions.aspects.values()].some((stored) => version <= stored);
  const floor = versions.aspects.get(REVIVED_AFTER) ?? -Infinity;
  return aspects.some((aspect) => version <= Math.max(versions.aspects.get(aspect) ?? -Infinity, floor));
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

function isMissingVacancy(error: unknown): boolean {
  const { code, resource } = (error ?? {}) as { code?: unknown; resource?: unknown };
  return code === 'not_found' && resource === 'vacancy';
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
