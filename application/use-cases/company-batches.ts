/** The outcome of one item of a batch: a batch stores many items, and each may fail on its own. */
export type ItemOutcome<R> = { readonly value: R } | { readonly error: unknown };

interface Waiting<I, R> {
  readonly item: I;
  readonly resolve: (value: R) => void;
  readonly reject: (error: unknown) => void;
}

interface CompanyQueue<I, R> {
  running: number;
  readonly waiting: Waiting<I, R>[];
}

export interface CompanyBatchesOptions {
  /** Batches of one company stored at the same time by this process. */
  readonly concurrency: number;
  /** Items in one batch at most. */
  readonly maxItems: number;
  /**
   * A place each batch takes before it is cut and gives back once stored, shared with other batchers (of all
   * companies): a bound on the batches stored at once. While a company's next batch waits for its place, what
   * the company receives meanwhile joins it (up to maxItems), so that waiting makes batches larger rather than
   * leaving them as they were when the wait began. None: a batch is cut and stored at once.
   */
  readonly places?: BatchPlaces;
}

/** Places for batches, handed out in the order asked for. */
export interface BatchPlaces {
  /** Takes a free place now, if there is one. */
  tryTake(): boolean;
  /** Waits for a place, handed over by a `give`. */
  take(): Promise<void>;
  give(): void;
}

/** A count of free places, and those waiting for one in their order. */
export class BoundedBatchPlaces implements BatchPlaces {
  private readonly waiting: (() => void)[] = [];
  private free: number;

  constructor(places: number) {
    if (!Number.isInteger(places) || places < 1) throw new RangeError('BoundedBatchPlaces needs a whole number of places, at least 1.');
    this.free = places;
  }

  tryTake(): boolean {
    if (this.free === 0) return false;
    this.free--;
    return true;
  }

  async take(): Promise<void> {
    if (this.tryTake()) return;
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the place to the first one waiting, if any; else it is free again. */
  give(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.free++;
    else next();
  }
}

/**
 * Group commit for one company's writes that can be stored together (new applications): an item that
 * arrives while fewer than `concurrency` batches of its company are being stored starts a batch of its
 * own at once; one that arrives when all are busy waits, and everything that waited goes together as the
 * next batch when one of them ends. No timer, so a lone request is never held back; under load the fixed
 * cost of a transaction (begin, lock, commit) is shared by the items that queued meanwhile.
 *
 * `store` answers each item in order; when it throws, every item of its batch fails with that error.
 */
export class CompanyBatches<I, R> {
  private readonly queues = new Map<string, CompanyQueue<I, R>>();

  constructor(
    private readonly store: (companyId: string, items: readonly I[]) => Promise<ItemOutcome<R>[]>,
    private readonly options: CompanyBatchesOptions,
  ) {
    if (options.concurrency < 1 || options.maxItems < 1) throw new Error('CompanyBatches needs a concurrency and a batch size of at least 1.');
  }

  submit(companyId: string, item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let queue = this.queues.get(companyId);
      if (queue === undefined) {
        queue = { running: 0, waiting: [] };
        this.queues.set(companyId, queue);
      }
      queue.waiting.push({ item, resolve, reject });
      if (queue.running < this.options.concurrency) void this.run(companyId, queue);
    });
  }

  private async run(companyId: string, queue: CompanyQueue<I, R>): Promise<void> {
    queue.running++;
    const { places } = this.options;
    try {
      while (queue.waiting.length > 0) {
        if (places === undefined) {
          await this.storeBatch(companyId, queue.waiting.splice(0, this.options.maxItems));
          continue;
        }
        // A free place is taken at once, so that a lone item is not held back even by a microtask.
        if (!places.tryTake()) await places.take();
        try {
          // Another batch of the company may have taken everything while this one waited for its place.
          if (queue.waiting.length === 0) break;
          await this.storeBatch(companyId, queue.waiting.splice(0, this.options.maxItems));
        } finally {
          places.give();
        }
      }
    } finally {
      queue.running--;
      if (queue.running === 0 && queue.waiting.length === 0) this.queues.delete(companyId);
    }
  }

  private async storeBatch(companyId: string, batch: readonly Waiting<I, R>[]): Promise<void> {
    let outcomes: ItemOutcome<R>[];
    try {
      outcomes = await this.store(
        companyId,
        batch.map((waiting) => waiting.item),
      );
      if (outcomes.length !== batch.length) throw new Error(`A batch of ${batch.length} items was answered with ${outcomes.length} outcomes.`);
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    batch.forEach((waiting, index) => {
      const outcome = outcomes[index] as ItemOutcome<R>;
      if ('error' in outcome) waiting.reject(outcome.error);
      else waiting.resolve(outcome.value);
    });
  }
}
