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
    try {
      while (queue.waiting.length > 0) {
        const batch = queue.waiting.splice(0, this.options.maxItems);
        await this.storeBatch(companyId, batch);
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
