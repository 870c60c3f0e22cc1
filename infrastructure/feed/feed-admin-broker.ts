import { Connection, type Channel, type Envelope, type SyncMessage } from 'rabbitmq-client';
import { CliFailure } from '../../adapters/cli/cli-failure.js';
import {
  isSelected,
  type DeadLetterSelection,
  type DeadLetterSummary,
  type FeedBroker,
  type FeedProgress,
  type OutgoingFeedEvent,
  type PublishOutcome,
  type ReplayOutcome,
} from '../../adapters/cli/feed-broker.js';
import { byDeadAt, COMPANY_HEADER, summarize } from './feed-dead-letter.js';
import { declareFeedTopology, FEED_HEADERS, feedTopology, type FeedTopology } from './feed-topology.js';
import { brokerErrorText } from './broker-error-text.js';
import { displayUrl } from '../display-url.js';

/** Structured-mode CloudEvents (the AMQP binding's content type). */
export const CLOUDEVENTS_CONTENT_TYPE = 'application/cloudevents+json';
const CONNECT_TIMEOUT_MS = 10_000;
/** Events published and not yet confirmed, at most: the broker's confirms keep pace without a file held in flight. */
const PUBLISH_WINDOW = 256;
/**
 * The broker's own bookkeeping on a dead-lettered message, which a replayed copy must not carry, and the
 * sender-selected routing headers, which would send the copy to other queues too.
 */
const BROKER_HEADERS = /^(x-death|x-(first|last)-death-.*|x-delivery-count|CC|BCC)$/;
/** Every header of the feed's own bookkeeping starts with it (FEED_HEADERS, and the consumer's copy marks). */
const FEED_HEADER_PREFIX = 'x-feed-';

export interface FeedAdminSettings {
  /** FEED_QUEUE. */
  readonly queue: string;
  /** FEED_RETRY_DELAYS_MS: part of the topology, declared with the same arguments as the consumer's. */
  readonly retryDelaysMs: readonly number[];
}

/** Connects (failing at once, not retrying, when the broker refuses) and declares the feed's topology. */
export async function openFeedAdminBroker(url: string, settings: FeedAdminSettings): Promise<FeedBroker> {
  const connection = await connect(url);
  const topology = feedTopology(settings.queue, settings.retryDelaysMs);
  try {
    await declareFeedTopology(connection, topology);
  } catch (error) {
    await connection.close();
    throw new CliFailure(`Declaring the feed's queues on the broker at ${displayUrl(url)} failed: ${brokerErrorText(error)}.`);
  }
  return new RabbitMqFeedAdminBroker(connection, topology);
}

/**
 * The `feed` commands' side of the broker, on rabbitmq-client. Dead letters are read with basic.get and
 * left unacknowledged on one channel: nothing else can take them meanwhile, and closing the channel gives
 * them all back (as the broker does for a client that dies). A quorum queue does not give them back in their
 * old order, so the list is sorted by when they were set aside.
 */
export class RabbitMqFeedAdminBroker implements FeedBroker {
  readonly queue: string;

  constructor(
    private readonly connection: Connection,
    private readonly topology: FeedTopology,
  ) {
    this.queue = topology.queue;
  }

  async publish(events: readonly OutgoingFeedEvent[], progress?: FeedProgress): Promise<PublishOutcome> {
    return this.onChannel(async (channel) => {
      await channel.confirmSelect();
      // Mandatory messages that reach no queue come back (before their confirm): they are not confirmed.
      let returned = 0;
      channel.on('basic.return', () => returned++);
      progress?.start(events.length);
      let published = 0;
      let acked = 0;
      let failure: unknown;
      const inFlight = new Set<Promise<void>>();
      for (const event of events) {
        if (failure !== undefined) break;
        while (inFlight.size >= PUBLISH_WINDOW) await Promise.race(inFlight);
        const sent: Promise<void> = channel
          .basicPublish(this.eventEnvelope(event), Buffer.from(event.body, 'utf8'))
          .then(
            () => {
              acked++;
            },
            (error: unknown) => {
              // A nack is one event the broker did not take; anything else (the connection lost) ends the run.
              if (!isNack(error)) failure ??= error;
            },
          )
          .finally(() => {
            inFlight.delete(sent);
            progress?.advance(1);
          });
        inFlight.add(sent);
        published++;
      }
      await Promise.all(inFlight);
      await returnsSeen();
      if (failure !== undefined) {
        throw new CliFailure(`Publishing stopped after ${published} events, ${acked - returned} of them confirmed: ${brokerErrorText(failure)}. Publishing the file again is safe.`);
      }
      return { published, confirmed: acked - returned };
    });
  }

  async listDead(): Promise<DeadLetterSummary[]> {
    return this.onChannel(async (channel) => {
      const letters: DeadLetterSummary[] = [];
      await this.eachDeadLetter(channel, undefined, async (letter) => void letters.push(summarize(letter)));
      return letters.sort(byDeadAt);
    });
  }

  async replayDead(selection: DeadLetterSelection, progress?: FeedProgress): Promise<ReplayOutcome> {
    return this.onChannel(async (channel) => {
      await channel.confirmSelect();
      let returned = 0;
      channel.on('basic.return', () => returned++);
      let replayed = 0;
      let matched = 0;
      await this.eachDeadLetter(channel, progress, async (letter) => {
        if (!isSelected(summarize(letter), selection)) return;
        matched++;
        const returnedBefore = returned;
        try {
          await channel.basicPublish(this.replayEnvelope(letter), bodyBytes(letter.body));
        } catch (error) {
          if (!isNack(error)) throw error;
          return;
        }
        await returnsSeen();
        // Confirmed and routed: only then is the dead copy let go. Should the process die in between, the
        // event is in both queues, and the consumer applies its id once.
        if (returned === returnedBefore && channel.active) {
          channel.basicAck({ deliveryTag: letter.deliveryTag });
          replayed++;
        }
      });
      return { replayed, failed: matched - replayed, matched };
    });
  }

  async discardDead(selection: DeadLetterSelection, progress?: FeedProgress): Promise<DeadLetterSummary[]> {
    return this.onChannel(async (channel) => {
      const discarded: DeadLetterSummary[] = [];
      await this.eachDeadLetter(channel, progress, async (letter) => {
        const summary = summarize(letter);
        if (!isSelected(summary, selection)) return;
        channel.basicAck({ deliveryTag: letter.deliveryTag });
        discarded.push(summary);
      });
      // A round trip after the acknowledgements (which the broker does not answer): once it is back, they were taken.
      await channel.queueDeclare({ queue: this.topology.deadQueue, passive: true });
      return discarded.sort(byDeadAt);
    });
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  /**
   * Takes (without acknowledging) each letter that was in the dead-letter queue when it began, not those set
   * aside meanwhile: a replayed event that fails again comes back while a replay runs, and must not go round.
   */
  private async eachDeadLetter(channel: Channel, progress: FeedProgress | undefined, visit: (letter: SyncMessage) => Promise<void>): Promise<void> {
    let remaining = Number.POSITIVE_INFINITY;
    while (remaining > 0) {
      const letter = await channel.basicGet({ queue: this.topology.deadQueue });
      if (letter === undefined) break;
      if (remaining === Number.POSITIVE_INFINITY) {
        remaining = letter.messageCount + 1;
        progress?.start(remaining);
      }
      remaining--;
      await visit(letter);
      progress?.advance(1);
    }
  }

  /** A channel for one command, closed after it: every letter it took and did not acknowledge goes back. */
  private async onChannel<T>(work: (channel: Channel) => Promise<T>): Promise<T> {
    const channel = await this.connection.acquire();
    try {
      return await work(channel);
    } finally {
      if (channel.active) await channel.close().catch(() => undefined);
    }
  }

  private eventEnvelope(event: OutgoingFeedEvent): Envelope {
    return {
      exchange: '',
      routingKey: this.topology.queue,
      mandatory: true,
      durable: true,
      contentType: CLOUDEVENTS_CONTENT_TYPE,
      ...(event.id === null ? {} : { messageId: event.id }),
      ...(event.type === null ? {} : { type: event.type }),
      headers: event.companyId === null ? {} : { [COMPANY_HEADER]: event.companyId },
    };
  }

  /**
   * The letter as it was first published: its properties and headers, without the broker's bookkeeping of its
   * death nor the feed's own (x-feed-*: attempts, outages, why and when it was set aside), and with attempts from 0.
   */
  private replayEnvelope(letter: SyncMessage): Envelope {
    const headers: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(letter.headers ?? {})) {
      if (!BROKER_HEADERS.test(name) && !name.startsWith(FEED_HEADER_PREFIX)) headers[name] = value;
    }
    headers[FEED_HEADERS.attempt] = 0;
    const kept = { contentType: letter.contentType, contentEncoding: letter.contentEncoding, messageId: letter.messageId, type: letter.type };
    const extra = { correlationId: letter.correlationId, appId: letter.appId, timestamp: letter.timestamp, priority: letter.priority };
    const properties = Object.fromEntries(Object.entries({ ...kept, ...extra }).filter(([, value]) => value !== undefined));
    return { ...properties, exchange: '', routingKey: this.topology.queue, mandatory: true, durable: true, headers };
  }
}

/**
 * The broker sends a mandatory message's return before its confirm, but rabbitmq-client emits the return on the
 * next turn of the event loop (setImmediate) while it resolves the confirm at once: one turn later, every
 * return of what was confirmed so far has been counted (as FeedRouting waits too).
 */
function returnsSeen(): Promise<void> {
  return new Promise((turn) => setImmediate(turn));
}

function bodyBytes(body: unknown): Buffer {
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  // The client decodes an application/json body; encoded again, it is the same JSON.
  return Buffer.from(JSON.stringify(body), 'utf8');
}

function isNack(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'NACK';
}

/** A connection that is open, or a failure naming the broker: the first refusal ends it (a command does not wait for a broker). */
async function connect(url: string): Promise<Connection> {
  const connection = new Connection({ url, connectionName: 'integration-admin feed', connectionTimeout: CONNECT_TIMEOUT_MS });
  // Errors after the start (a connection lost mid-command) fail the pending call; they must not crash the process.
  connection.on('error', () => undefined);
  try {
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: unknown) => {
        clearTimeout(timer);
        connection.off('connection', onConnection);
        connection.off('error', settle);
        if (error === undefined) resolve();
        else reject(error);
      };
      const onConnection = () => settle();
      const timer = setTimeout(() => settle(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
      connection.once('connection', onConnection);
      connection.once('error', settle);
    });
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw new CliFailure(`Cannot connect to the broker at ${displayUrl(url)}: ${brokerErrorText(error)}.`);
  }
  return connection;
}
