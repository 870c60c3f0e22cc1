import { AsyncLocalStorage } from 'node:async_hooks';
import type { BoardSnapshot } from '../../../domain/board/board.js';
import type { CandidateCardSnapshot } from '../../../domain/candidate/candidate-card.js';
import type { CompanySnapshot } from '../../../domain/company/company.js';
import type { PlatformTokenEvent } from '../../../domain/platform-token/platform-token-event.js';
import type { PlatformTokenSnapshot } from '../../../domain/platform-token/platform-token.js';
import type { KeyEvent } from '../../../domain/service-key/key-event.js';
import type { ServiceKeySnapshot } from '../../../domain/service-key/service-key.js';
import type { VacancySnapshot } from '../../../domain/vacancy/vacancy.js';

/** An applied event of the platform feed (the FeedLedger port). */
export interface FeedAppliedEventRow {
  readonly companyId: string;
  readonly source: string;
  readonly eventId: string;
  readonly appliedAt: Date;
  /** The transaction that claimed it, while that one is open: a second claimer waits for its end, as on PostgreSQL. */
  readonly claimedBy: InMemoryTransaction | undefined;
}

/** The versions the feed recorded for one entity: its aspects, and its tombstone while it lasts. */
export interface FeedEntityVersionsRow {
  readonly aspects: ReadonlyMap<string, FeedVersionRecorded>;
  readonly tombstone: FeedVersionRecorded | null;
}

/** A version as recorded, and when. */
export interface FeedVersionRecorded {
  readonly version: number;
  readonly recordedAt: Date;
}

type Undo = () => void;

/** A table: rows by primary key. Writes inside a transaction record how to undo them. */
export class InMemoryTable<Row> {
  private readonly rows = new Map<string, Row>();

  constructor(private readonly journal: () => Undo[] | undefined) {}

  get(key: string): Row | undefined {
    return this.rows.get(key);
  }

  has(key: string): boolean {
    return this.rows.has(key);
  }

  set(key: string, row: Row): void {
    const had = this.rows.has(key);
    const previous = this.rows.get(key);
    this.journal()?.push(() => (had ? this.rows.set(key, previous as Row) : this.rows.delete(key)));
    this.rows.set(key, row);
  }

  delete(key: string): boolean {
    if (!this.rows.has(key)) return false;
    const previous = this.rows.get(key) as Row;
    this.journal()?.push(() => this.rows.set(key, previous));
    return this.rows.delete(key);
  }

  values(): IterableIterator<Row> {
    return this.rows.values();
  }

  entries(): IterableIterator<[string, Row]> {
    return this.rows.entries();
  }
}

/** Composite keys for rows scoped by company. */
export function rowKey(companyId: string, id: string): string {
  return `${companyId}\u0000${id}`;
}

/** A transaction in progress: the undo journal of its writes, and when it ends (committed or undone). */
export class InMemoryTransaction {
  readonly journal: Undo[] = [];
  open = true;
  private finish: () => void = () => {};
  readonly ended = new Promise<void>((resolve) => (this.finish = resolve));

  end(): void {
    this.open = false;
    this.finish();
  }
}

/**
 * The in-memory stand-in for the databases: one object the in-memory repositories share, as PostgreSQL
 * tables share a server. Rows are stored as snapshots and copied in and out by the repositories.
 */
export class InMemoryDatabase {
  private readonly transactions = new AsyncLocalStorage<InMemoryTransaction>();
  private readonly currentJournal = () => this.transactions.getStore()?.journal;

  readonly companies = new InMemoryTable<CompanySnapshot>(this.currentJournal);
  readonly serviceKeys = new InMemoryTable<ServiceKeySnapshot>(this.currentJournal);
  readonly keyEvents = new InMemoryTable<KeyEvent>(this.currentJournal);
  /** key_events.sequence: the order the events were recorded in, by event id (nextKeyEventSequence). */
  readonly keyEventSequences = new InMemoryTable<number>(this.currentJournal);
  /** The unique index of the key events a key has at most one of: event id by (key id, type). */
  readonly onceKeyEvents = new InMemoryTable<string>(this.currentJournal);
  readonly platformTokens = new InMemoryTable<PlatformTokenSnapshot>(this.currentJournal);
  /** The rows of key_events without a company: the platform tokens' events. */
  readonly platformTokenEvents = new InMemoryTable<PlatformTokenEvent>(this.currentJournal);
  readonly vacancies = new InMemoryTable<VacancySnapshot>(this.currentJournal);
  readonly boards = new InMemoryTable<BoardSnapshot>(this.currentJournal);
  readonly candidates = new InMemoryTable<CandidateCardSnapshot>(this.currentJournal);
  readonly feedAppliedEvents = new InMemoryTable<FeedAppliedEventRow>(this.currentJournal);
  readonly feedEntityVersions = new InMemoryTable<FeedEntityVersionsRow>(this.currentJournal);

  private lastKeyEventSequence = 0;

  /** As PostgreSQL's sequence: increasing, never given twice, not given back by a rollback. */
  nextKeyEventSequence(): number {
    this.lastKeyEventSequence += 1;
    return this.lastKeyEventSequence;
  }

  /** The transaction the caller runs in, if any. */
  currentTransaction(): InMemoryTransaction | undefined {
    return this.transactions.getStore();
  }

  /** Runs work so that, if it throws, every write it made is undone: all or nothing, like a transaction. */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    const transaction = new InMemoryTransaction();
    try {
      return await this.transactions.run(transaction, work);
    } catch (error) {
      for (const undo of transaction.journal.reverse()) undo();
      throw error;
    } finally {
      transaction.end();
    }
  }
}
