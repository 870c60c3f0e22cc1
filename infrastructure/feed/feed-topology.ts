import type { Connection } from 'rabbitmq-client';

/**
 * The broker's side of the feed (DESIGN 4a), named from the main queue (FEED_QUEUE):
 *
 * - `<queue>`: a durable quorum queue that the platform publishes to (default exchange, routing key = the
 *   queue's name). A message redelivered more than DELIVERY_LIMIT times (a consumer that dies on it again and
 *   again) is dead-lettered by the broker itself.
 * - `<queue>.dead`: an exchange and a quorum queue bound to it: events that can never apply, each with its
 *   reason in the headers (FEED_HEADERS), kept until an operator replays or purges them.
 * - `<queue>.retry.<ms>`: one durable quorum queue per delay of the retry schedule, with no consumer: a
 *   message waits there `<ms>` (x-message-ttl, which quorum queues keep since RabbitMQ 3.10), then the broker
 *   dead-letters it back into `<queue>` (default exchange). A retry is a copy published there with its counts,
 *   then the original is acked.
 *
 * Nothing may be lost on the way: the queues that dead-letter (`<queue>` past its delivery limit, the retry
 * queues at expiry) do it at least once (`x-dead-letter-strategy`, RabbitMQ 3.10, quorum queues only). The
 * broker keeps a message in its queue until the target has confirmed it, retrying a target that is missing or
 * refuses it, where the default (at most once) drops it. That strategy needs `x-overflow: reject-publish`
 * (with the default drop-head the broker falls back to at most once); no queue here has a length limit, so
 * nothing is refused for it. Checked on RabbitMQ 3.10.8: a copy comes back from a retry queue after its TTL,
 * a message over the delivery limit lands in `<queue>.dead`, and an expired copy whose target queue was
 * deleted arrived once the queue was declared again (the broker retries every few minutes) where at most once
 * dropped it.
 *
 * Declaring is idempotent: every process that uses the feed (consumers, `admin feed ...`) declares it at start,
 * with the same arguments, so two starting at once agree. Different arguments for an existing queue are refused
 * by the broker (PRECONDITION_FAILED), which is why they are fixed here, not settings. Changing them later
 * means new queues (or deleting the old ones once drained): the retry queues were classic and the strategy
 * unset before any deployment, so these were simply changed.
 */
export interface FeedTopology {
  readonly queue: string;
  readonly deadExchange: string;
  readonly deadQueue: string;
  /** Ascending delays, with the queue that holds a message for each. */
  readonly retryQueues: readonly { readonly delayMs: number; readonly queue: string }[];
}

/** Redeliveries of one message (without an ack) before the broker sets it aside as a dead letter. */
export const DELIVERY_LIMIT = 20;

/** Header names of the feed's own bookkeeping on a message (events carry no personal data in headers). */
export const FEED_HEADERS = {
  /**
   * How many times the consumer has taken the event before this delivery (0 when published), not counting the
   * takes that found the database away: those are `outages`. FEED_MAX_ATTEMPTS counts these.
   */
  attempt: 'x-feed-attempt',
  /**
   * How many takes in a row did not get through the database: it was away (`store_unavailable`) or ended the
   * event's work (`store_timeout`: a statement or lock timeout, say). 0 again once a take gets through. They
   * choose the delay of the next such retry; they never count as attempts, so an event is never dead-lettered
   * for an outage or a timeout, however long, nor waits for what is missing less often because of one.
   */
  outages: 'x-feed-outages',
  /** Why a dead letter was set aside: a stable code (`invalid_json`, `invalid_event`, `unknown_type`, ...). */
  deadReason: 'x-feed-dead-reason',
  /** The reason in words, without personal data. */
  deadDetail: 'x-feed-dead-detail',
  /** When it was set aside (RFC 3339). */
  deadAt: 'x-feed-dead-at',
} as const;

export function feedTopology(queue: string, retryDelaysMs: readonly number[]): FeedTopology {
  const delays = [...new Set(retryDelaysMs)].sort((a, b) => a - b);
  return {
    queue,
    deadExchange: `${queue}.dead`,
    deadQueue: `${queue}.dead`,
    retryQueues: delays.map((delayMs) => ({ delayMs, queue: `${queue}.retry.${delayMs}` })),
  };
}

/** Declares the whole topology on the broker (idempotent). */
export async function declareFeedTopology(connection: Connection, topology: FeedTopology): Promise<void> {
  await connection.exchangeDeclare(deadExchangeDeclaration(topology));
  await connection.queueDeclare(deadQueueDeclaration(topology));
  await connection.queueBind(deadQueueBinding(topology));
  await connection.queueDeclare(mainQueueDeclaration(topology));
  for (const retry of topology.retryQueues) await connection.queueDeclare(retryQueueDeclaration(topology, retry));
}

/** Dead-lettering that keeps a message until its target confirmed it; what it needs of its queue. */
const AT_LEAST_ONCE = { 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' as const };

/** The main queue's declaration, also what a consumer re-declares whenever its connection is reset. */
export function mainQueueDeclaration(topology: FeedTopology) {
  return {
    queue: topology.queue,
    durable: true,
    arguments: { 'x-queue-type': 'quorum' as const, 'x-delivery-limit': DELIVERY_LIMIT, 'x-dead-letter-exchange': topology.deadExchange, ...AT_LEAST_ONCE },
  };
}

export function deadExchangeDeclaration(topology: FeedTopology) {
  return { exchange: topology.deadExchange, type: 'fanout' as const, durable: true };
}

export function deadQueueDeclaration(topology: FeedTopology) {
  return { queue: topology.deadQueue, durable: true, arguments: { 'x-queue-type': 'quorum' as const } };
}

export function deadQueueBinding(topology: FeedTopology) {
  return { queue: topology.deadQueue, exchange: topology.deadExchange, routingKey: '' };
}

export function retryQueueDeclaration(topology: FeedTopology, retry: FeedTopology['retryQueues'][number]) {
  return {
    queue: retry.queue,
    durable: true,
    arguments: { 'x-queue-type': 'quorum' as const, 'x-message-ttl': retry.delayMs, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': topology.queue, ...AT_LEAST_ONCE },
  };
}

/**
 * The retry queue of the `step`-th delay of the schedule (0: the first), the last one for every step past its
 * end (FEED_RETRY_DELAYS_MS). The step is the attempt of a take that failed, or the outages before this one.
 */
export function retryQueueFor(topology: FeedTopology, step: number): FeedTopology['retryQueues'][number] {
  const { retryQueues } = topology;
  if (retryQueues.length === 0) throw new Error('The feed topology has no retry delay.');
  return retryQueues[Math.min(Math.max(0, step), retryQueues.length - 1)] as FeedTopology['retryQueues'][number];
}

/** Deletes the topology (tests that made a queue of their own clean up after themselves). */
export async function deleteFeedTopology(connection: Connection, topology: FeedTopology): Promise<void> {
  for (const { queue } of topology.retryQueues) await connection.queueDelete({ queue });
  await connection.queueDelete({ queue: topology.queue });
  await connection.queueDelete({ queue: topology.deadQueue });
  await connection.exchangeDelete({ exchange: topology.deadExchange });
}
