/** When and how long to wait before trying a request again. */
export interface RetryOptions {
  /** Attempts in all, the first one included. Default 5; 1 turns retries off. */
  readonly maxAttempts?: number;
  /** The first backoff step; each further step doubles it. Default 500 ms. */
  readonly baseDelayMs?: number;
  /** The longest backoff step. Default 30 s. */
  readonly maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown at once. Default 120 s. */
  readonly maxRetryAfterMs?: number;
  /** Statuses worth another attempt. Default 429, 502, 503, 504. */
  readonly retryStatuses?: readonly number[];
}

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxRetryAfterMs: number;
  readonly retryStatuses: ReadonlySet<number>;
}

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  const o = options === false ? { maxAttempts: 1 } : (options ?? {});
  return {
    maxAttempts: Math.max(1, Math.floor(o.maxAttempts ?? 5)),
    baseDelayMs: o.baseDelayMs ?? 500,
    maxDelayMs: o.maxDelayMs ?? 30_000,
    maxRetryAfterMs: o.maxRetryAfterMs ?? 120_000,
    retryStatuses: new Set(o.retryStatuses ?? [429, 502, 503, 504]),
  };
}

/**
 * Exponential backoff with jitter for attempt `attempt` (1 = the wait after the first failure): half of
 * the step is fixed and half random, so clients that failed together do not come back together.
 */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * The wait a Retry-After asks for, in ms: whole seconds, or an HTTP date. A little jitter is added so that
 * clients told the same second do not all return at once; never less than what the server asked.
 */
export function retryAfterDelay(header: string | null, now: number, random: () => number): number | null {
  if (header === null) return null;
  const value = header.trim();
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return null;
    ms = Math.max(0, at - now);
  }
  return ms + Math.round(random() * 250);
}

/** A wait that ends early, with the signal's reason, when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
