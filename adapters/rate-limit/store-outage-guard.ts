import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { budgetOptions, FlexibleRateLimiter, type RateLimitBudget } from './flexible-rate-limiter.js';
import type { RateLimiter, RateLimitOutcome } from './rate-limiter.js';

/** `degraded`: the shared store failed and requests are counted per process; `recovered`: it answers again. */
export type StoreOutageEvent = 'degraded' | 'recovered';

/** How a shared store's limiter tells the composition root (which logs it) about outages. */
export interface SharedStoreOptions {
  readonly budget: RateLimitBudget;
  readonly onOutage: (event: StoreOutageEvent) => void;
  /** While an outage lasts, `degraded` is repeated at most this often. Default 60 s. */
  readonly repeatOutageReportMs?: number;
}

/**
 * The insurance of a shared store, and the watch over it. rate-limiter-flexible hands a request to the
 * `insuranceLimiter` when the store fails (an error, not a spent budget); ours counts it in this process's
 * memory with the same budget and notes that it did. A request decided without the insurance after an
 * outage means the store answers again. The listener hears of the start of an outage, of its end, and
 * in between at most once per `repeatMs`, so that a long outage is visible without a line per request.
 */
export class StoreOutageGuard {
  private fallbacks = 0;
  private degraded = false;
  private lastReportAt = 0;

  constructor(
    private readonly options: SharedStoreOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** A memory limiter with the budget of the shared store, to pass as its `insuranceLimiter`. */
  insurance(): RateLimiterMemory {
    const guard = this;
    return new (class ReportingMemoryInsurance extends RateLimiterMemory {
      override consume(key: string | number, points?: number, options?: Record<string, unknown>) {
        guard.fellBack();
        return super.consume(key, points, options);
      }
    })(budgetOptions(this.options.budget));
  }

  /**
   * The RateLimiter of the insured store limiter. Only consumption watches the store: a peek that the
   * insurance answered leaves no trace of it, so it must not count as the store answering either.
   */
  limiterOf(storeLimiter: Pick<RateLimiterAbstract, 'consume' | 'get' | 'points'>): RateLimiter {
    const decided = new FlexibleRateLimiter(storeLimiter);
    return {
      consume: async (bucket: string): Promise<RateLimitOutcome> => {
        const fallbacksBefore = this.fallbacks;
        const outcome = await decided.consume(bucket);
        if (this.fallbacks === fallbacksBefore) this.storeAnswered();
        return outcome;
      },
      peek: (bucket: string): Promise<RateLimitOutcome> => decided.peek(bucket),
    };
  }

  private fellBack(): void {
    this.fallbacks += 1;
    const now = this.now();
    if (!this.degraded || now - this.lastReportAt >= (this.options.repeatOutageReportMs ?? 60_000)) {
      this.degraded = true;
      this.lastReportAt = now;
      this.options.onOutage('degraded');
    }
  }

  private storeAnswered(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.options.onOutage('recovered');
  }
}
