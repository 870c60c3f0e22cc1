import pg from 'pg';
import type { PgUnitOfWorkOptions } from '../../adapters/persistence/postgres/pg-unit-of-work.js';

/**
 * Holds the next write transaction open just before its COMMIT (the unit of work's beforeCommit seam),
 * until the test lets it go.
 */
export class WriteGate {
  private armed = false;
  private reportHeld: (now: Date) => void = () => {};
  private letGo: () => void = () => {};
  /** Resolves with the write's `now` once it waits at the gate. */
  held: Promise<Date> = Promise.resolve(new Date(0));

  readonly seam: NonNullable<PgUnitOfWorkOptions['beforeCommit']> = async ({ mode, now }) => {
    if (mode === 'read' || !this.armed) return;
    this.armed = false;
    const released = new Promise<void>((resolve) => (this.letGo = resolve));
    this.reportHeld(now);
    await released;
  };

  arm(): void {
    this.armed = true;
    this.held = new Promise<Date>((resolve) => (this.reportHeld = resolve));
  }

  release(): void {
    this.letGo();
  }
}

/** Reads the database server's state on a connection of its own. */
export class DatabaseProbe {
  private constructor(private readonly client: pg.Client) {}

  static async open(url: string): Promise<DatabaseProbe> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return new DatabaseProbe(client);
  }

  close(): Promise<void> {
    return this.client.end();
  }

  /**
   * Whether `pass` gets queued behind an advisory lock (a reader waiting for a writer) before it finishes
   * on its own: true as soon as a lock waiter shows in pg_locks, false when the pass settles first.
   */
  async waitsForLock(pass: Promise<unknown>): Promise<boolean> {
    let settled = false;
    pass.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (;;) {
      const { rows } = await this.client.query<{ n: number }>(
        `select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database
          where l.locktype = 'advisory' and not l.granted and d.datname = current_database()`,
      );
      if ((rows[0]?.n ?? 0) > 0) return true;
      if (settled) return false;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** How many advisory lock requests of this database are waiting now. */
  async lockWaiters(): Promise<number> {
    const { rows } = await this.client.query<{ n: number }>(
      `select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database
        where l.locktype = 'advisory' and not l.granted and d.datname = current_database()`,
    );
    return rows[0]?.n ?? 0;
  }

  /** Waits until the database clock has passed `moment` by at least a millisecond. */
  async waitForClockPast(moment: Date): Promise<void> {
    for (;;) {
      const { rows } = await this.client.query<{ ms: number }>('select floor(extract(epoch from clock_timestamp()) * 1000)::float8 as ms');
      if ((rows[0]?.ms ?? 0) > moment.getTime()) return;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
}
