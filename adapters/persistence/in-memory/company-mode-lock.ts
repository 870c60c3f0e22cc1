import type { LockMode } from '../../../application/ports/unit-of-work.port.js';

type Waiter = { mode: LockMode; grant: () => void };

/**
 * One company's lock with the three modes of the UnitOfWork port: reads share it with reads, appends
 * with appends, a write with nobody. Granted in arrival order, so a stream of one mode cannot starve
 * another. It plays the part of the PostgreSQL adapter's advisory locks; a read holds it for its whole
 * work here (in-memory writes are visible before they end, PostgreSQL's only once committed).
 */
export class CompanyModeLock {
  private holders = 0;
  private heldMode: LockMode | null = null;
  private readonly queue: Waiter[] = [];

  async acquire(mode: LockMode): Promise<() => void> {
    if (this.queue.length === 0 && this.canGrant(mode)) {
      this.take(mode);
    } else {
      await new Promise<void>((resolve) => this.queue.push({ mode, grant: resolve }));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders--;
      if (this.holders === 0) this.heldMode = null;
      this.drain();
    };
  }

  get idle(): boolean {
    return this.holders === 0 && this.queue.length === 0;
  }

  private canGrant(mode: LockMode): boolean {
    if (this.heldMode === null) return true;
    return mode !== 'write' && mode === this.heldMode;
  }

  private take(mode: LockMode): void {
    this.heldMode = mode;
    this.holders++;
  }

  private drain(): void {
    while (this.queue.length > 0) {
      const next = this.queue[0] as Waiter;
      if (!this.canGrant(next.mode)) return;
      this.queue.shift();
      this.take(next.mode);
      next.grant();
    }
  }
}
