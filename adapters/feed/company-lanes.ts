/**
 * One lane per company: work of a company runs one at a time, in arrival order; work of different companies
 * runs side by side.
 *
 * Why the feed needs it: every fed change takes its company's lock for its whole transaction, so events of one
 * company apply one after another whatever the consumer does. Started all at once (a burst of one company's
 * events, up to the prefetch), each would hold a pooled connection while it waits for the lock: the pool runs
 * dry, waits for a connection time out (a false "database away") and the API's reads of that company queue
 * behind them all. Waiting here costs no connection, and keeps the lock's queue one deep per process.
 */
export class CompanyLanes {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(companyId: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(companyId) ?? Promise.resolve();
    const result = before.then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(companyId, tail);
    // Forgotten when its last work ends, so that the map holds only the companies with work in flight.
    void tail.then(() => {
      if (this.tails.get(companyId) === tail) this.tails.delete(companyId);
    });
    return result;
  }

  /** Companies with work queued or running. */
  get busy(): number {
    return this.tails.size;
  }
}
