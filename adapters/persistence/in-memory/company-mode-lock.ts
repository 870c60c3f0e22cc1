type Waiter = { mode: 'read' | 'write'; grant: () => void };

/**
 * A per-key lock with shared (read) and exclusive (write) holders, granted in arrival order so that
 * a stream of readers cannot starve a writer. It plays the part of PostgreSQL's advisory xact locks.
 */
export class ReadWriteLock {
  private readers = 0;
  private writer = false;
  private readonly queue: Waiter[] = [];

  async acquire(mode: 'read' | 'write'): Promise<() => void> {
    if (this.queue.length === 0 && this.canGrant(mode)) {
      this.take(mode);
    } else {
      await new Promise<void>((resolve) => this.queue.push({ mode, grant: resolve }));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (mode === 'write') this.writer = false;
      else this.readers--;
      this.drain();
    };
  }

  get idle(): boolean {
    return this.readers === 0 && !this.writer && this.queue.length === 0;
  }

  private canGrant(mode: 'read' | 'write'): boolean {
    return mode === 'read' ? !this.writer : !this.writer && this.readers === 0;
  }

  private take(mode: 'read' | 'write'): void {
    if (mode === 'write') this.writer = true;
    else this.readers++;
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
