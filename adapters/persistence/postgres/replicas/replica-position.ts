import type { WalPosition } from './wal-position.js';

/**
 * Asks one replica how far it has replayed: pg_last_wal_replay_lsn(), or null when the server is not replaying
 * (not a standby: a replica promoted, or a URL that names a primary), which serves no page.
 */
export type ReplayPositionQuery = () => Promise<WalPosition | null>;

export interface ReplicaPositionOptions {
  /** Between two questions while no read waits for the replica: keeps the lag metric fresh and notices a return. */
  readonly idleRefreshMs: number;
  /** Between two questions while reads wait for the replica to reach their barrier. */
  readonly busyRefreshMs: number;
  /** Called with every failed question (the replica is then down until one succeeds). */
  readonly onError?: (error: unknown) => void;
}

/** How a wait for a position ended. */
export type WaitOutcome = 'reached' | 'timeout' | 'down';

interface Waiter {
  readonly target: WalPosition;
  readonly done: (outcome: WaitOutcome) => void;
}

/**
 * The one shared, frequently refreshed replay position of one replica (ADR 26): a single question in flight at
 * a time, whatever the number of reads, so the lag check costs a read no statement. The question is asked every
 * `idleRefreshMs`, and every `busyRefreshMs` while some read waits for the replica, starting at once when the
 * first one arrives. A failed question, or a page that failed on the replica (failed()), marks it down: it
 * serves nothing until a question succeeds again. A read that gave up waiting marks it behind that read's
 * barrier (gaveUpAt): later reads do not wait for it until it has replayed that far, so a replica whose replay
 * is paused, or which lags for long, costs them nothing, and is used again once it has caught up.
 */
export class ReplicaPosition {
  /** The last position the replica reported; null until it answers. */
  private replayed: WalPosition | null = null;
  private up = false;
  /** A barrier a read gave up waiting for: the replica is behind until it has replayed this far. */
  private behindUntil: WalPosition | null = null;
  private readonly waiters = new Set<Waiter>();
  private timer: NodeJS.Timeout | undefined;
  private asking: Promise<void> | undefined;
  private stopped = false;
  private started = false;

  constructor(
    private readonly ask: ReplayPositionQuery,
    private readonly options: ReplicaPositionOptions,
  ) {}

  /** Starts asking, once (later calls do nothing); the first question goes at once. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    void this.refresh();
  }

  /** Whether it answered its last question and has not failed a page since. */
  get available(): boolean {
    return this.up && this.replayed !== null;
  }

  /** Whether it answers but a read gave up waiting for it and it has not replayed that far since. */
  get behind(): boolean {
    return this.behindUntil !== null;
  }

  /** The position it last reported, null before its first answer. */
  get position(): WalPosition | null {
    return this.replayed;
  }

  /** Whether the page of a barrier at `target` may be read there now, without waiting. */
  holds(target: WalPosition): boolean {
    return this.available && (this.replayed as WalPosition) >= target;
  }

  /**
   * Resolves when the replica has reported a position at or past `target` ('reached'), when it goes down
   * ('down'), or after `boundMs` ('timeout', which marks it behind `target`).
   */
  waitFor(target: WalPosition, boundMs: number): Promise<WaitOutcome> {
    if (this.holds(target)) return Promise.resolve('reached');
    if (!this.available || this.stopped) return Promise.resolve('down');
    return new Promise<WaitOutcome>((resolve) => {
      const timer = setTimeout(() => finish('timeout'), boundMs);
      const waiter: Waiter = { target, done: (outcome) => finish(outcome) };
      const finish = (outcome: WaitOutcome) => {
        if (!this.waiters.delete(waiter)) return;
        clearTimeout(timer);
        if (outcome === 'timeout' && (this.behindUntil === null || target > this.behindUntil)) this.behindUntil = target;
        resolve(outcome);
      };
      this.waiters.add(waiter);
      // The first waiter brings the next question forward (one in flight at most).
      if (this.waiters.size === 1 && this.asking === undefined) {
        clearTimeout(this.timer);
        void this.refresh();
      }
    });
  }

  /**
   * A page failed on the replica: down until its next answer, asked for `idleRefreshMs` from now, so that a
   * replica that answers its position but fails pages is tried again at that pace, not by every read.
   */
  failed(): void {
    this.markDown();
    if (this.asking === undefined && !this.stopped) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.refresh(), this.options.idleRefreshMs);
      this.timer.unref();
    }
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const waiter of [...this.waiters]) waiter.done('down');
  }

  private refresh(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.asking = (async () => {
      try {
        const position = await this.ask();
        if (position === null) this.markDown();
        else this.reported(position);
      } catch (error) {
        this.options.onError?.(error);
        this.markDown();
      } finally {
        this.asking = undefined;
        if (!this.stopped) {
          const delay = this.waiters.size > 0 && this.up ? this.options.busyRefreshMs : this.options.idleRefreshMs;
          this.timer = setTimeout(() => void this.refresh(), delay);
          this.timer.unref();
        }
      }
    })();
    return this.asking;
  }

  private reported(position: WalPosition): void {
    this.up = true;
    // As reported, even when earlier than before: a replica restarted replays again from its last restartpoint, and
    // may take connections before it is back where it was. (The page checks again on its own connection.)
    this.replayed = position;
    if (this.behindUntil !== null && this.replayed >= this.behindUntil) this.behindUntil = null;
    for (const waiter of [...this.waiters]) if (this.replayed >= waiter.target) waiter.done('reached');
  }

  private markDown(): void {
    this.up = false;
    for (const waiter of [...this.waiters]) waiter.done('down');
  }
}
