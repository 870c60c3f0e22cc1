import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PLATFORM_CHANGE_TYPES } from '../../application/use-cases/platform-change.js';

/** What became of one message: the handler's outcomes, or where the consumer routed it. */
export type FeedEventOutcome = 'applied' | 'duplicate' | 'stale' | 'dead_lettered' | 'retried';

export const FEED_EVENT_OUTCOMES: readonly FeedEventOutcome[] = ['applied', 'duplicate', 'stale', 'dead_lettered', 'retried'];

/**
 * What the feed consumer reports for operators. The composition root hands an implementation over only when
 * metrics are on (METRICS=on); otherwise nothing is recorded and no /metrics listener starts.
 */
export interface FeedMetrics {
  /**
   * One message done with. `type` is the event's type when it could be read, else `unknown`;
   * `applyLatencySeconds` (applied only) is the time from the event's `time` to its commit.
   */
  eventFinished(type: string, outcome: FeedEventOutcome, applyLatencySeconds?: number): void;
  /** Messages taken and not yet acknowledged. */
  setInFlight(count: number): void;
  /** Events of one company handed over together for one transaction (group commit; 1 when none queued; a failure splits it). */
  batchApplied(events: number): void;
  /** Whether the consumer takes messages (false while it pauses for the database). */
  setConsuming(consuming: boolean): void;
  /** The exposition for a scrape. */
  render(): Promise<{ readonly contentType: string; readonly text: string }>;
}

/**
 * From an event applied within a few milliseconds of its publication to one that waited through a retry or
 * a consumer's restart. Past a minute the +Inf bucket says enough: something was held up.
 */
const APPLY_LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Up to the most a batch holds (FEED_BATCH_MAX, 32). */
const BATCH_SIZE_BUCKETS = [1, 2, 4, 8, 16, 32];

/**
 * Types are the publisher's text: only the platform's known types become label values, anything else is
 * `other`, so that a platform bug (or a hostile publisher) cannot make the series grow without bound.
 */
const KNOWN_TYPES: ReadonlySet<string> = new Set(PLATFORM_CHANGE_TYPES);

export interface PrometheusFeedMetricsOptions {
  /** Labels on every series, e.g. `{ region: 'kz' }`. */
  readonly defaultLabels?: Readonly<Record<string, string>>;
  /** Node's process metrics (CPU, memory, event loop lag, GC). Default true. */
  readonly processMetrics?: boolean;
}

/** prom-client on a registry of its own, as PrometheusHttpMetrics: every consumer (and test) counts for itself. */
export class PrometheusFeedMetrics implements FeedMetrics {
  private readonly registry = new Registry();
  private readonly events: Counter<'type' | 'outcome'>;
  private readonly latency: Histogram<'type'>;
  private readonly inFlight: Gauge;
  private readonly batches: Histogram;
  private readonly consuming: Gauge;

  constructor(options: PrometheusFeedMetricsOptions = {}) {
    const registers = [this.registry];
    if (options.defaultLabels !== undefined) this.registry.setDefaultLabels({ ...options.defaultLabels });
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    this.events = new Counter({
      name: 'feed_events_total',
      help: 'Feed messages done with, by event type ("other" when unknown or unreadable) and outcome: applied, duplicate, stale, dead_lettered, retried.',
      labelNames: ['type', 'outcome'],
      registers,
    });
    this.latency = new Histogram({
      name: 'feed_apply_latency_seconds',
      help: "Time from an applied event's time (as the platform stamped it) to the commit of its effect, by event type.",
      labelNames: ['type'],
      buckets: APPLY_LATENCY_BUCKETS_S,
      registers,
    });
    this.batches = new Histogram({
      name: 'feed_batch_events',
      help: "Events of one company handed over together for one transaction: those that queued while the company's earlier events were applied. A failing event splits its batch (each part in a transaction of its own).",
      buckets: BATCH_SIZE_BUCKETS,
      registers,
    });
    this.inFlight = new Gauge({ name: 'feed_messages_in_flight', help: 'Messages taken by the consumer and not yet acknowledged.', registers });
    this.consuming = new Gauge({ name: 'feed_consuming', help: '1 while the consumer takes messages; 0 while it pauses (the database does not answer), while its broker connection is lost, and once it stops.', registers });
    // Zero from the start, so that rate() and alerts work from the first scrape.
    for (const type of KNOWN_TYPES) for (const outcome of FEED_EVENT_OUTCOMES) this.events.inc({ type, outcome }, 0);
  }

  eventFinished(type: string, outcome: FeedEventOutcome, applyLatencySeconds?: number): void {
    const label = KNOWN_TYPES.has(type) ? type : 'other';
    this.events.inc({ type: label, outcome });
    // A clock of the platform's ahead of ours would give a negative time: counted as no wait at all.
    if (outcome === 'applied' && applyLatencySeconds !== undefined) this.latency.observe({ type: label }, Math.max(0, applyLatencySeconds));
  }

  setInFlight(count: number): void {
    this.inFlight.set(count);
  }

  batchApplied(events: number): void {
    this.batches.observe(events);
  }

  setConsuming(consuming: boolean): void {
    this.consuming.set(consuming ? 1 : 0);
  }

  async render(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
