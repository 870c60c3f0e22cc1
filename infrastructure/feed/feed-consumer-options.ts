import type { Connection } from 'rabbitmq-client';
import type { Logger } from 'pino';
import type { FeedMetrics } from '../../adapters/feed/feed-metrics.js';
import type { FeedDecision, FeedMessage } from '../../adapters/feed/platform-event-handler.js';
import type { FeedTopology } from './feed-topology.js';

/** What turns a message into a decision: the feed adapter's PlatformEventHandler, or a test's stand-in. */
export interface FeedHandler {
  handle(message: FeedMessage): Promise<FeedDecision>;
}

export interface FeedConsumerOptions {
  readonly connection: Connection;
  readonly topology: FeedTopology;
  readonly handler: FeedHandler;
  /** Messages held unacknowledged and handled at once (FEED_PREFETCH). */
  readonly prefetch: number;
  /** Whether the databases answer (the READINESS port); asked while the consumer pauses. */
  readonly readiness: () => Promise<boolean>;
  readonly logger: Logger;
  readonly metrics?: FeedMetrics | undefined;
  /** How often readiness is asked while paused. Default 1000 ms. */
  readonly readinessPollMs?: number | undefined;
  /**
   * How often readiness is asked while consuming (unset: never): a database gone away then pauses the consumer,
   * and GET /readyz says so, within this and readiness's own bound, with no message to find it away.
   */
  readonly readinessWhileConsumingMs?: number | undefined;
  /**
   * Takes in a row that did not get through the database (FEED_MAX_ATTEMPTS) from which a retry after a timeout
   * of the event's work is logged as a warning: it is still retried (never dead-lettered for a timeout), but
   * something holds its company's lock for long, or its work needs more than the statement bound. Default 10,
   * FEED_MAX_ATTEMPTS's default.
   */
  readonly timeoutsBeforeWarning?: number | undefined;
}
