import { DEFAULT_APPLICATION_SOURCE } from '../../domain/inbound-application/application-limits.js';
import { canonicalApplication, checkApplicationKeys, checkApplicationSource, type InboundApplication } from '../../domain/inbound-application/inbound-application.js';
import { MANUAL_SOURCE } from '../../domain/inbound-application/application-limits.js';
import { Board } from '../../domain/board/board.js';
import { CandidateCard } from '../../domain/candidate/candidate-card.js';
import { NotFoundError } from '../../domain/shared/domain-error.js';
import type { BoardRepository } from '../ports/board-repository.port.js';
import type { CandidateRepository, StoredApplication } from '../ports/candidate-repository.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { Secrets } from '../ports/secrets.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { CompanyBatches, type ItemOutcome } from './company-batches.js';
import { RepeatForecast } from './repeat-forecast.js';

export interface SubmitApplicationCommand {
  readonly companyId: string;
  readonly application: InboundApplication;
}

export type SubmitApplicationResult =
  | { readonly status: 'created'; readonly id: string }
  /** `bodyDiffers`: the earlier application under this externalId had another body. */
  | { readonly status: 'duplicate'; readonly id: string; readonly bodyDiffers: boolean };

/**
 * Batches of one company run by one process at the same time, at most: two of new applications (a second
 * need not wait for a slow first; more split the load into smaller batches), one of repeat lookups (a
 * read, quickly done). Tried on the bench's POST scenarios: 4 and 8 insert batches were slower than 2.
 */
const CONCURRENT_BATCHES = 2;
const CONCURRENT_LOOKUPS = 1;
/** Applications (or lookups) in one batch at most: one INSERT (or SELECT) statement for them all. */
const MAX_BATCH = 64;

interface PendingApplication {
  readonly application: InboundApplication;
  readonly fingerprint: string;
}

/**
 * Spec 4.3: creates a card in the first column of the vacancy's board, once per externalId and company.
 *
 * New applications of a company that arrive while others are being stored are stored together, in one
 * transaction (CompanyBatches: group commit; ADR 10); each request is still answered for its own
 * application, and one that fails (a missing vacancy) fails alone. The repeat check before them is
 * batched the same way: one read for the externalIds that arrived together. It runs only while the
 * company's recent applications were repeats often enough to pay for it (RepeatForecast, ADR 21);
 * otherwise a repeat is told by the insert, with the same answer.
 */
export class SubmitApplication {
  private readonly batches: CompanyBatches<PendingApplication, SubmitApplicationResult>;
  private readonly lookups: CompanyBatches<string, StoredApplication | null>;
  private readonly forecast: RepeatForecast;
  private readonly reservedSources: ReadonlySet<string>;

  constructor(
    private readonly boards: BoardRepository,
    private readonly candidates: CandidateRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly secrets: Secrets,
    options: {
      /** Whether repeats are looked up first (ADR 21); a forecast of its own by default. */
      readonly forecast?: RepeatForecast;
      /** The labels an application's `source` may not be (reservedApplicationSources); `manual` alone by default. */
      readonly reservedSources?: ReadonlySet<string>;
    } = {},
  ) {
    this.forecast = options.forecast ?? new RepeatForecast();
    this.reservedSources = options.reservedSources ?? new Set([MANUAL_SOURCE]);
    this.batches = new CompanyBatches((companyId, pending) => this.store(companyId, pending), { concurrency: CONCURRENT_BATCHES, maxItems: MAX_BATCH });
    this.lookups = new CompanyBatches((companyId, externalIds) => this.findStored(companyId, externalIds), { concurrency: CONCURRENT_LOOKUPS, maxItems: MAX_BATCH });
  }

  /** The stored application of each externalId, or null: one read for the batch. */
  private async findStored(companyId: string, externalIds: readonly string[]): Promise<ItemOutcome<StoredApplication | null>[]> {
    const stored = new Map((await this.candidates.findStoredApplications(companyId, externalIds)).map((earlier) => [earlier.externalId, earlier]));
    return externalIds.map((externalId) => ({ value: stored.get(externalId) ?? null }));
  }

  async execute(command: SubmitApplicationCommand): Promise<SubmitApplicationResult> {
    const { companyId, application } = command;
    checkApplicationKeys(application);
    checkApplicationSource(application, this.reservedSources);
    const fingerprint = this.secrets.sha256(canonicalApplication(application));
    // While the company's applications are often repeats, answer a repeat from a lookup, without taking the
    // company's lock at all (a stored card does not stop being the answer); concurrent lookups of a company
    // share one read. Otherwise straight to the batch: its insert tells a repeat as well (ADR 21).
    if (this.forecast.expectsRepeat(companyId)) {
      const known = await this.lookups.submit(companyId, application.externalId);
      if (known !== null) {
        this.forecast.record(companyId, true);
        return duplicateOf(known, fingerprint);
      }
    }
    const result = await this.batches.submit(companyId, { application, fingerprint });
    this.forecast.record(companyId, result.status === 'duplicate');
    return result;
  }

  /**
   * Stores one application now, unbatched, in the caller's unit of work of the company (an `append` or a
   * `write`), which it joins: for the platform feed, whose record of the event must commit with the card.
   * Batches would store it in another transaction.
   */
  async executeNow(command: SubmitApplicationCommand): Promise<SubmitApplicationResult> {
    const { companyId, application } = command;
    checkApplicationKeys(application);
    checkApplicationSource(application, this.reservedSources);
    const [outcome] = await this.store(companyId, [{ application, fingerprint: this.secrets.sha256(canonicalApplication(application)) }]);
    if (outcome === undefined) throw new Error('A batch of one application was answered with no outcome.');
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  /**
   * For the platform feed: an application the platform took for a vacancy that has been deleted since (its
   * deletion applied here first), stored as that deletion left the vacancy's other cards: without a vacancy
   * and a column. Once per externalId like every application (an earlier card of it makes this a duplicate),
   * in the caller's unit of work, which it joins.
   */
  async executeDetachedNow(command: SubmitApplicationCommand): Promise<SubmitApplicationResult> {
    const { companyId, application } = command;
    checkApplicationKeys(application);
    checkApplicationSource(application, this.reservedSources);
    const fingerprint = this.secrets.sha256(canonicalApplication(application));
    return this.unitOfWork.run(companyId, 'append', async ({ now }) => {
      const card = this.cardOf(companyId, application.vacancyId, '', application, fingerprint, now);
      card.detachFromVacancy(now);
      const [earlier] = await this.candidates.insertApplications([card]);
      return earlier === null || earlier === undefined ? { status: 'created', id: card.id } : duplicateOf(earlier, fingerprint);
    });
  }

  /**
   * An append: applications of one company are stored side by side, not one after another; copies of one
   * externalId racing each other, in this batch or another, are settled by the store's insert (one card).
   */
  private store(companyId: string, pending: readonly PendingApplication[]): Promise<ItemOutcome<SubmitApplicationResult>[]> {
    return this.unitOfWork.run(companyId, 'append', async ({ now }) => {
      const outcomes: ItemOutcome<SubmitApplicationResult>[] = [];
      // Every vacancy of the batch with its board, in one read.
      const boards = await this.boards.findOfVacancies(companyId, [...new Set(pending.map(({ application }) => application.vacancyId))]);
      const cards: { readonly index: number; readonly card: CandidateCard }[] = [];
      const missingVacancy: number[] = [];
      for (const [index, { application, fingerprint }] of pending.entries()) {
        const { vacancyId } = application;
        // Rule 5: a missing vacancy and another company's vacancy look the same.
        if (!boards.has(vacancyId)) {
          missingVacancy.push(index);
          continue;
        }
        const board = boards.get(vacancyId) ?? Board.create(companyId, vacancyId);
        try {
          cards.push({ index, card: this.cardOf(companyId, vacancyId, board.firstColumn, application, fingerprint, now) });
        } catch (error) {
          outcomes[index] = { error };
        }
      }
      const earlier = await this.candidates.insertApplications(cards.map(({ card }) => card));
      cards.forEach(({ index, card }, position) => {
        const raced = earlier[position] ?? null;
        outcomes[index] = { value: raced === null ? { status: 'created', id: card.id } : duplicateOf(raced, pending[index]?.fingerprint as string) };
      });
      // A repeat stays a duplicate after its vacancy was deleted, also when its first copy was stored meanwhile.
      for (const index of missingVacancy) {
        const { application, fingerprint } = pending[index] as PendingApplication;
        const [stored] = await this.candidates.findStoredApplications(companyId, [application.externalId]);
        outcomes[index] =
          stored !== undefined
            ? { value: duplicateOf(stored, fingerprint) }
            : { error: new NotFoundError('vacancy', `Vacancy ${application.vacancyId} not found.`, '/vacancyId') };
      }
      return outcomes;
    });
  }

  private cardOf(companyId: string, vacancyId: string, stage: string, application: InboundApplication, fingerprint: string, now: Date): CandidateCard {
    return CandidateCard.fromApplication({
      id: this.ids.newId(),
      companyId,
      vacancyId,
      stage,
      externalId: application.externalId,
      source: application.source ?? DEFAULT_APPLICATION_SOURCE,
      coverLetter: application.coverLetter,
      person: { ...application.candidate, gender: null, citizenship: [] },
      resume: application.resume,
      referral: application.referral,
      requestFingerprint: fingerprint,
      now,
    });
  }
}

function duplicateOf(earlier: StoredApplication, fingerprint: string): SubmitApplicationResult {
  return { status: 'duplicate', id: earlier.id, bodyDiffers: earlier.requestFingerprint !== fingerprint };
}
