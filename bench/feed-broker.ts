import { randomBytes } from 'node:crypto';
import { Connection, type Publisher } from 'rabbitmq-client';
import type { FeedBroker } from '../adapters/cli/feed-broker.js';
import { loadConfig } from '../infrastructure/config.js';
import { openFeedAdminBroker, CLOUDEVENTS_CONTENT_TYPE } from '../infrastructure/feed/feed-admin-broker.js';
import { COMPANY_HEADER } from '../infrastructure/feed/feed-dead-letter.js';
import { deleteFeedTopology, feedTopology, type FeedTopology } from '../infrastructure/feed/feed-topology.js';
import type { FeedEvent } from './feed-events.js';
import { ProgressBar } from './progress.js';

/** What the bench sees of its queue at one moment. */
export interface QueueState {
  /** Messages waiting (not delivered, or delivered and given back). */
  readonly ready: number;
  readonly consumers: number;
}

/**
 * The bench's own queue and its topology (the consumer's: `<queue>.dead`, the retry queues), declared as
 * `admin feed publish` declares it, with the service's default retry delays, so that the consumer's own
 * declaration at start agrees. Pre-published events go through the admin CLI's publisher (confirmed, in
 * order); the latency run publishes one event at a time through a confirming publisher of its own.
 */
export class BenchQueue {
  readonly topology: FeedTopology;
  private readonly connection: Connection;
  private admin: FeedBroker | null = null;
  private publisher: Publisher | null = null;

  private constructor(
    readonly url: string,
    readonly name: string,
  ) {
    this.topology = feedTopology(name, loadConfig({}).feedRetryDelaysMs);
    this.connection = new Connection({ url, connectionName: `bench:feed ${process.pid}` });
  }

  /** A queue named bench.feed.<pid>.<random>, with its topology declared. */
  static async open(url: string): Promise<BenchQueue> {
    const queue = new BenchQueue(url, `bench.feed.${process.pid}.${randomBytes(4).toString('hex')}`);
    await queue.connection.onConnect(10_000);
    queue.admin = await openFeedAdminBroker(url, { queue: queue.name, retryDelaysMs: queue.topology.retryQueues.map((r) => r.delayMs) });
    return queue;
  }

  /** Publishes every event, in order, each confirmed, as `admin feed publish` does. */
  async prePublish(events: readonly FeedEvent[], label: string): Promise<void> {
    const progress = new ProgressBar(label, events.length, 'events');
    const outcome = await (this.admin as FeedBroker).publish(
      events.map((e) => ({ body: e.body, id: e.id, type: e.type, companyId: e.companyId })),
      { start: () => undefined, advance: (n) => progress.advance(n) },
    );
    progress.finish();
    if (outcome.confirmed !== events.length) throw new Error(`the broker confirmed ${outcome.confirmed} of ${events.length} events`);
  }

  /** One event, with the properties `admin feed publish` gives it; resolves on the broker's confirm. */
  publish(event: FeedEvent): Promise<void> {
    this.publisher ??= this.connection.createPublisher({ confirm: true });
    return this.publisher.send(
      {
        exchange: '',
        routingKey: this.name,
        mandatory: true,
        durable: true,
        contentType: CLOUDEVENTS_CONTENT_TYPE,
        messageId: event.id,
        type: event.type,
        headers: { [COMPANY_HEADER]: event.companyId },
      },
      Buffer.from(event.body, 'utf8'),
    );
  }

  async state(queue = this.name): Promise<QueueState> {
    const ok = await this.connection.queueDeclare({ queue, passive: true });
    return { ready: ok.messageCount, consumers: ok.consumerCount };
  }

  /** Messages in the dead-letter queue and in the retry queues: none, when every event applied at once. */
  async setAside(): Promise<{ readonly dead: number; readonly retrying: number }> {
    const dead = (await this.state(this.topology.deadQueue)).ready;
    let retrying = 0;
    for (const retry of this.topology.retryQueues) retrying += (await this.state(retry.queue)).ready;
    return { dead, retrying };
  }

  /** Deletes the queues and the exchange, and closes. */
  async close(): Promise<void> {
    await this.publisher?.close();
    await this.admin?.close();
    await deleteFeedTopology(this.connection, this.topology);
    await this.connection.close();
  }
}
