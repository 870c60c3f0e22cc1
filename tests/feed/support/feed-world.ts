import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { Connection, type Publisher } from 'rabbitmq-client';
import { declareFeedTopology, deleteFeedTopology, feedTopology, type FeedTopology } from '../../../infrastructure/feed/feed-topology.js';
import { adminContainer } from '../../scale/support/admin-container.js';
import { startServerProcess, type ServerProcess } from '../../scale/support/server-process.js';
import { startFeedProcess, type FeedProcess } from './feed-process.js';
import type { PlatformEvent } from './platform-events.js';

export const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

/** Short retry delays, so that a test sees an event retried and dead-lettered in well under a second. */
export const FAST_RETRIES = '50,100,200';

export interface FeedWorldOptions {
  /** The business database (and key registry) the API and the consumers use. */
  readonly databaseUrl: string;
  /** Settings of every consumer started by this world (FEED_MAX_ATTEMPTS, FEED_PREFETCH, ...). */
  readonly consumerEnv?: Record<string, string>;
}

export interface ApiPage {
  readonly items: Record<string, any>[];
  readonly watermark: string | null;
}

/**
 * What a feed test needs, all real: a queue of its own on the machine's RabbitMQ (declared as the consumer
 * declares it), the API as a process on the test's database, the admin side (a company and a key), and
 * consumers started as `npm run feed` starts them.
 */
export class FeedWorld {
  readonly consumers: FeedProcess[] = [];

  private constructor(
    readonly options: FeedWorldOptions,
    readonly topology: FeedTopology,
    readonly connection: Connection,
    private readonly publisher: Publisher,
    readonly api: ServerProcess,
    readonly admin: Awaited<ReturnType<typeof adminContainer>>,
  ) {}

  static async create(options: FeedWorldOptions): Promise<FeedWorld> {
    await requireBroker();
    const queue = `test.feed.${process.pid}.${randomBytes(4).toString('hex')}`;
    const topology = feedTopology(queue, FAST_RETRIES.split(',').map(Number));
    const connection = new Connection({ url: AMQP_URL, connectionName: 'feed test' });
    connection.on('error', () => undefined);
    await declareFeedTopology(connection, topology);
    const publisher = connection.createPublisher({ confirm: true, maxAttempts: 3 });
    const admin = await adminContainer({ businessUrl: options.databaseUrl });
    const api = await startServerProcess({ DATABASE_URL: options.databaseUrl, RATE_LIMIT_POINTS: '100000' });
    return new FeedWorld(options, topology, connection, publisher, api, admin);
  }

  get queue(): string {
    return this.topology.queue;
  }

  /** The consumer's environment: this world's queue and database, fast retries. */
  consumerEnv(extra: Record<string, string> = {}): Record<string, string> {
    return {
      FEED_URL: AMQP_URL,
      FEED_QUEUE: this.queue,
      FEED_RETRY_DELAYS_MS: FAST_RETRIES,
      DATABASE_URL: this.options.databaseUrl,
      ...this.options.consumerEnv,
      ...extra,
    };
  }

  async startConsumer(extra: Record<string, string> = {}): Promise<FeedProcess> {
    const consumer = await startFeedProcess(this.consumerEnv(extra));
    this.consumers.push(consumer);
    return consumer;
  }

  /** Publishes events to the main queue, as `admin feed publish` does: confirmed, the event id as message id. */
  async publish(...events: readonly PlatformEvent[]): Promise<void> {
    for (const event of events) {
      await this.publisher.send(
        { routingKey: this.queue, messageId: event.id, type: event.type, contentType: 'application/cloudevents+json', durable: true },
        Buffer.from(JSON.stringify(event)),
      );
    }
  }

  /** Publishes a body as it is (a poison message). */
  async publishRaw(body: string): Promise<void> {
    await this.publisher.send({ routingKey: this.queue, contentType: 'application/cloudevents+json', durable: true }, Buffer.from(body));
  }

  /** Messages waiting in a queue of the world (the main one by default). */
  async depth(queue = this.queue): Promise<number> {
    return (await this.connection.queueDeclare({ queue, passive: true })).messageCount;
  }

  /** A company and a key that reads everything, made as the admin CLI makes them. */
  async company(): Promise<{ companyId: string; key: string }> {
    const companyId = await this.admin.company();
    const issued = await this.admin.issueKey(companyId);
    return { companyId, key: issued.key };
  }

  /** Every page of a list, as a sync client reads it; the first page's watermark. */
  async list(key: string, what: 'candidates' | 'vacancies', query = ''): Promise<ApiPage> {
    const items: Record<string, any>[] = [];
    let cursor: string | null = null;
    let watermark: string | null = null;
    do {
      const params = new URLSearchParams(query);
      params.set('limit', '100');
      if (what === 'vacancies' && !params.has('status')) params.set('status', 'all');
      if (cursor !== null) params.set('cursor', cursor);
      const response = await fetch(`${this.api.apiUrl}/${what}?${params.toString()}`, { headers: { 'x-api-key': key } });
      const body = (await response.json()) as { items: Record<string, any>[]; nextCursor: string | null };
      if (response.status !== 200) throw new Error(`GET /${what} answered ${response.status}: ${JSON.stringify(body)}`);
      watermark ??= response.headers.get('x-sync-watermark');
      items.push(...body.items);
      cursor = body.nextCursor;
    } while (cursor !== null);
    return { items, watermark };
  }

  async candidates(key: string): Promise<Record<string, any>[]> {
    return (await this.list(key, 'candidates')).items;
  }

  async vacancies(key: string): Promise<Record<string, any>[]> {
    return (await this.list(key, 'vacancies')).items;
  }

  /** Stops every consumer, the API and the admin container; deletes the queues. */
  async close(): Promise<void> {
    await Promise.all(this.consumers.map((consumer) => consumer.stop()));
    await this.api.stop();
    await this.admin.dispose();
    await deleteFeedTopology(this.connection, this.topology).catch(() => undefined);
    await this.publisher.close();
    await this.connection.close();
  }
}

/** Fails at once, saying what to do, when no broker answers (the client library would retry for ever). */
export async function requireBroker(): Promise<void> {
  const { hostname, port } = new URL(AMQP_URL);
  const answers = await new Promise<boolean>((done) => {
    const socket = connect({ host: hostname, port: Number(port || 5672) });
    socket.setTimeout(3_000, () => {
      socket.destroy();
      done(false);
    });
    socket.once('connect', () => {
      socket.end();
      done(true);
    });
    socket.once('error', () => done(false));
  });
  if (!answers) {
    throw new Error(`The feed tests need RabbitMQ at ${hostname}:${port || 5672} (TEST_AMQP_URL), and it does not answer: start it (rabbitmq-server -detached), or install it (apt-get install -y rabbitmq-server).`);
  }
}

/** Polls `read` until `done` holds for what it returns; fails with the last value after `timeoutMs`. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000, what = 'the expected state'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await read();
    if (done(last)) return last;
    await new Promise((wake) => setTimeout(wake, 100));
  }
  throw new Error(`${what} was not reached within ${timeoutMs} ms; last seen: ${JSON.stringify(last)?.slice(0, 2000)}`);
}
