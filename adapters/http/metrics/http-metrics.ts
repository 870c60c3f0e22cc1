/** One answered request, as the metrics see it: the route template, never the URL. */
export interface RequestSample {
  readonly method: string;
  /** The route template, or null when no route matched (unknown paths, requests refused before routing). */
  readonly route: string | null;
  readonly status: number;
  /** Whether the answer was a 429 of the rate limit, and whose budget was spent. */
  readonly rateLimited: 'key' | 'address' | null;
  readonly durationSeconds: number;
}

/**
 * What the HTTP adapter reports for operators. The composition root hands an implementation over only
 * when metrics are on (METRICS=on); without one, nothing is recorded and /metrics does not exist.
 */
export interface HttpMetrics {
  requestFinished(sample: RequestSample): void;
  applicationAccepted(outcome: 'created' | 'duplicate'): void;
  /** The exposition for a scrape. */
  render(): Promise<{ readonly contentType: string; readonly text: string }>;
}

/** Use of one connection pool at the moment of a scrape. */
export interface DatabasePoolStats {
  /** Which pool: e.g. `business` or `registry`. */
  readonly pool: string;
  /** Connections open, in use or idle. */
  readonly total: number;
  readonly idle: number;
  /** Requests waiting for a connection. */
  readonly waiting: number;
}

/**
 * Asked at every scrape. A store with pools provides one (the PostgreSQL profile, from its knex/tarn
 * pools); the memory store has none, and no pool series are exported.
 */
export type DatabasePoolStatsSource = () => readonly DatabasePoolStats[];

/**
 * Where list pages were read (ADR 26), at the moment of a scrape: counts since the start by copy (`primary`,
 * `replica-1`, …) and by the reason a page went to the primary, and each replica's lag in bytes (null: unknown).
 */
export interface ReplicaReadStats {
  readonly pages: ReadonlyMap<string, number>;
  readonly fallbacks: ReadonlyMap<string, number>;
  lags(): readonly { readonly replica: string; readonly bytes: number | null }[];
}
