import type { ReplicaPosition } from './replica-position.js';
import type { WalPosition } from './wal-position.js';

/** A page's statements, values inlined as the primary's are (the list queries take them so, ADR 26). */
export type PageStatements = <T>(sql: string, params: readonly unknown[]) => Promise<T[]>;

/** A replica as the router sees it: its shared position, and its page statements for a barrier's position. */
export interface ReplicaCopy {
  /** Its label in the metrics: `replica-1`, … in the order of DATABASE_REPLICA_URLS. */
  readonly name: string;
  readonly position: ReplicaPosition;
  /** Each statement fails with ReplicaBehindError when the connection that runs it has not replayed up to `target`. */
  statements(target: WalPosition): PageStatements;
}

/** A replica's connection that had not replayed up to the page's barrier, though the shared position said so. */
export class ReplicaBehindError extends Error {
  constructor(replica: string) {
    super(`${replica} had not replayed up to the page's barrier on the connection that read it.`);
    this.name = 'ReplicaBehindError';
  }
}

/**
 * Why a page went to the primary: no replica answers (`unavailable`), none had replayed up to the barrier within
 * the wait's bound or one is known to be behind it (`lagging`), or the page failed on the replica (`error`).
 */
export const FALLBACK_REASONS = ['unavailable', 'lagging', 'error'] as const;
export type FallbackReason = (typeof FALLBACK_REASONS)[number];

export const PRIMARY = 'primary';

export interface ReplicaRouterOptions {
  /** How long a page waits for a replica to reach its barrier before it is read on the primary (DB_REPLICA_WAIT_MS). */
  readonly waitMs: number;
  /**
   * Called at the first page: the replicas' positions start being asked then, so that a process that reads no
   * list (the feed consumer, the admin CLI) never asks. That first page goes to the primary.
   */
  readonly onFirstRead?: () => void;
  /** A page that failed on a replica (then read on the primary). */
  readonly onPageError?: (replica: string, error: unknown) => void;
}

type Choice = { readonly replica: ReplicaCopy } | { readonly reason: FallbackReason };

/**
 * Picks where a list page is read (ADR 26): a replica whose shared replay position is at or past the page's
 * barrier (the primary's WAL position read with the barrier's clock), in turn among those that are; else it
 * waits, up to `waitMs`, for the first replica that gets there; else the primary. A page that fails on the
 * replica is read again, whole, on the primary. Nothing here asks a database: the positions are ReplicaPosition's.
 * Its counts (pages, fallbacks, lags) are what GET /metrics shows (ReplicaReadStats of the HTTP metrics).
 */
export class ReplicaRouter {
  private turn = 0;
  private reading = false;
  /** The newest primary position seen (barriers, notePrimaryPosition), for the lag metric. */
  private primary: WalPosition | null = null;
  private readonly served = new Map<string, number>();
  private readonly fellBack = new Map<FallbackReason, number>();

  constructor(
    private readonly replicas: readonly ReplicaCopy[],
    private readonly options: ReplicaRouterOptions,
  ) {
    for (const copy of [PRIMARY, ...replicas.map((replica) => replica.name)]) this.served.set(copy, 0);
    for (const reason of FALLBACK_REASONS) this.fellBack.set(reason, 0);
  }

  get pages(): ReadonlyMap<string, number> {
    return this.served;
  }

  get fallbacks(): ReadonlyMap<FallbackReason, number> {
    return this.fellBack;
  }

  lags(): { readonly replica: string; readonly bytes: number | null }[] {
    return this.replicas.map((replica) => {
      const replayed = replica.position.position;
      const bytes = replayed === null || this.primary === null ? null : Number(this.primary > replayed ? this.primary - replayed : 0n);
      return { replica: replica.name, bytes };
    });
  }

  /** The primary's position read elsewhere (a periodic question), so that the lag shows while no page is read. */
  notePrimaryPosition(position: WalPosition): void {
    if (this.primary === null || position > this.primary) this.primary = position;
  }

  /**
   * The page `work` reads, on a replica that holds every change committed before the barrier at `target`, or on
   * the primary (`onPrimary`, the same work on the primary's statements).
   */
  async read<T>(target: WalPosition, work: (statements: PageStatements) => Promise<T>, onPrimary: () => Promise<T>): Promise<T> {
    if (!this.reading) {
      this.reading = true;
      for (const replica of this.replicas) replica.position.start();
      this.options.onFirstRead?.();
    }
    this.notePrimaryPosition(target);
    const choice = await this.choose(target);
    if ('reason' in choice) return this.onPrimary(choice.reason, onPrimary);
    const { replica } = choice;
    let result: T;
    try {
      result = await work(replica.statements(target));
    } catch (error) {
      if (error instanceof ReplicaBehindError) return this.onPrimary('lagging', onPrimary);
      replica.position.failed();
      this.options.onPageError?.(replica.name, error);
      return this.onPrimary('error', onPrimary);
    }
    this.count(this.served, replica.name);
    return result;
  }

  private async onPrimary<T>(reason: FallbackReason, onPrimary: () => Promise<T>): Promise<T> {
    this.count(this.fellBack, reason);
    const result = await onPrimary();
    this.count(this.served, PRIMARY);
    return result;
  }

  private async choose(target: WalPosition): Promise<Choice> {
    const available = this.replicas.filter((replica) => replica.position.available);
    if (available.length === 0) return { reason: 'unavailable' };
    const ready = available.filter((replica) => replica.position.holds(target));
    if (ready.length > 0) return { replica: this.inTurn(ready) };
    const waitable = available.filter((replica) => !replica.position.behind);
    if (waitable.length === 0 || this.options.waitMs === 0) return { reason: 'lagging' };
    const first = await firstToReach(waitable, target, this.options.waitMs);
    if (first !== null) return { replica: first };
    return { reason: this.replicas.some((replica) => replica.position.available) ? 'lagging' : 'unavailable' };
  }

  private inTurn(replicas: readonly ReplicaCopy[]): ReplicaCopy {
    this.turn = (this.turn + 1) % 1_000_000;
    return replicas[this.turn % replicas.length] as ReplicaCopy;
  }

  private count<K>(counts: Map<K, number>, key: K): void {
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
}

/** The first replica to report `target` within `boundMs`; null when every one timed out or went down. */
function firstToReach(replicas: readonly ReplicaCopy[], target: WalPosition, boundMs: number): Promise<ReplicaCopy | null> {
  return new Promise((resolve) => {
    let pending = replicas.length;
    for (const replica of replicas) {
      void replica.position.waitFor(target, boundMs).then((outcome) => {
        pending -= 1;
        if (outcome === 'reached') resolve(replica);
        else if (pending === 0) resolve(null);
      });
    }
  });
}
