import { randomUUID } from 'node:crypto';
import type { AsyncMessage, Connection, Envelope, Publisher, ReturnedMessage } from 'rabbitmq-client';
import {
  deadExchangeDeclaration,
  deadQueueBinding,
  deadQueueDeclaration,
  declareFeedTopology,
  FEED_HEADERS,
  retryQueueDeclaration,
  retryQueueFor,
  type FeedTopology,
} from './feed-topology.js';

/**
 * Headers the broker writes on a message it dead-letters or redelivers, and RabbitMQ's sender-selected
 * destinations: a copy of ours must not carry them (CC/BCC would send the copy to more queues, and the death
 * history of the last trip through a retry queue describes that trip, not the event).
 */
const BROKER_HEADERS = new Set(['x-death', 'x-first-death-exchange', 'x-first-death-queue', 'x-first-death-reason', 'x-last-death-exchange', 'x-last-death-queue', 'x-last-death-reason', 'x-delivery-count', 'CC', 'BCC']);
/** A header of ours on every copy, so that a copy the broker returns as unroutable is told from the others. */
const COPY_HEADER = 'x-feed-copy';

/** The feed's counts on a message: attempts (FEED_MAX_ATTEMPTS counts them) and the outages in a row since. */
export interface RetryCounts {
  readonly attempt: number;
  readonly outages: number;
}

/** x-feed-attempt and x-feed-outages of a delivery, each 0 when absent or not a count. */
export function retryCountsOf(message: AsyncMessage): RetryCounts {
  return { attempt: countOf(message.headers?.[FEED_HEADERS.attempt]), outages: countOf(message.headers?.[FEED_HEADERS.outages]) };
}

function countOf(value: unknown): number {
  const count = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;
  return typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : 0;
}

/**
 * The bytes as published. The client decodes text/plain into a string and application/json into a value
 * (when it parses); the platform publishes application/cloudevents+json, which arrives as bytes untouched.
 */
export function bodyOf(message: AsyncMessage): Buffer {
  const body: unknown = message.body;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  return Buffer.from(JSON.stringify(body) ?? '', 'utf8');
}

/**
 * Publishes the copies that take a message off the main queue for a while (a retry) or for good (a dead
 * letter), each confirmed by the broker before the original may be acknowledged.
 */
export class FeedRouting {
  private readonly publisher: Publisher;
  /** Copies the broker returned as unroutable (their COPY_HEADER), seen before their confirm arrives. */
  private readonly returned = new Set<string>();

  constructor(
    private readonly connection: Connection,
    private readonly topology: FeedTopology,
  ) {
    // Declared again on every new channel, so that a reset broker (or a deleted queue, at the next reset) has
    // them before the first copy; mandatory below catches a queue deleted in between.
    this.publisher = connection.createPublisher({
      confirm: true,
      maxAttempts: 3,
      exchanges: [deadExchangeDeclaration(topology)],
      queues: [deadQueueDeclaration(topology), ...topology.retryQueues.map((retry) => retryQueueDeclaration(topology, retry))],
      queueBindings: [deadQueueBinding(topology)],
    });
    this.publisher.on('basic.return', (message: ReturnedMessage) => {
      const copy: unknown = message.headers?.[COPY_HEADER];
      if (typeof copy === 'string') this.returned.add(copy);
    });
  }

  /**
   * Sends the event to wait in a retry queue, from which it comes back to the main queue. After a take that
   * failed: the attempt-th delay, attempt + 1, no outage. After a take that found the database away (`outage`):
   * the delay of its outages so far, outages + 1, the attempt unchanged: an outage is no attempt of the event.
   */
  async retry(message: AsyncMessage, counts: RetryCounts, outage: boolean): Promise<{ delayMs: number; counts: RetryCounts }> {
    const next: RetryCounts = outage ? { attempt: counts.attempt, outages: counts.outages + 1 } : { attempt: counts.attempt + 1, outages: 0 };
    const { delayMs, queue } = retryQueueFor(this.topology, outage ? counts.outages : counts.attempt);
    await this.send({ exchange: '', routingKey: queue }, message, { [FEED_HEADERS.attempt]: next.attempt, [FEED_HEADERS.outages]: next.outages });
    return { delayMs, counts: next };
  }

  /** Sets the event aside in `<queue>.dead`, with why (a stable code and words without personal data) and when. */
  async deadLetter(message: AsyncMessage, attempt: number, reason: string, detail: string, at: Date): Promise<void> {
    await this.send({ exchange: this.topology.deadExchange, routingKey: this.topology.queue }, message, {
      [FEED_HEADERS.attempt]: attempt,
      [FEED_HEADERS.deadReason]: reason,
      [FEED_HEADERS.deadDetail]: detail,
      [FEED_HEADERS.deadAt]: at.toISOString(),
    });
  }

  /** Waits for the copies on their way to be confirmed, then closes the channel. */
  async close(): Promise<void> {
    await this.publisher.close();
  }

  private async send(route: { exchange: string; routingKey: string }, message: AsyncMessage, extraHeaders: Record<string, unknown>): Promise<void> {
    const copy = randomUUID();
    const headers: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(message.headers ?? {})) if (!BROKER_HEADERS.has(name)) headers[name] = value;
    Object.assign(headers, extraHeaders, { [COPY_HEADER]: copy });
    // The original's properties, but never its expiration (a copy set aside must not vanish) nor its user-id
    // (the broker refuses one that is not this connection's user).
    const envelope: Envelope = {
      ...route,
      mandatory: true,
      durable: true,
      headers,
      ...pick(message, ['contentType', 'contentEncoding', 'messageId', 'correlationId', 'type', 'timestamp', 'appId', 'priority']),
    };
    await this.publisher.send(envelope, bodyOf(message));
    // The broker sends a return before the confirm of the same copy; the client emits it on the next turn of
    // the event loop (setImmediate) while the confirm resolves at once, so one turn later it has been seen.
    await new Promise((turn) => setImmediate(turn));
    if (this.returned.delete(copy)) {
      await declareFeedTopology(this.connection, this.topology).catch(() => undefined);
      throw new Error(`the broker could not route a copy to ${route.exchange === '' ? route.routingKey : route.exchange}: declared the feed's queues again; the message goes back to its queue`);
    }
  }
}

function pick<K extends keyof AsyncMessage>(message: AsyncMessage, keys: readonly K[]): Partial<Pick<AsyncMessage, K>> {
  const picked: Partial<Pick<AsyncMessage, K>> = {};
  for (const key of keys) if (message[key] !== undefined) picked[key] = message[key];
  return picked;
}
