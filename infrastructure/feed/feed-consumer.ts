import { ConsumerStatus, type AsyncMessage, type Consumer } from 'rabbitmq-client';
import type { FeedDecision, FeedMessage } from '../../adapters/feed/platform-event-handler.js';
import { QuietErrorLog, unregisters } from './feed-consumer-errors.js';
import type { FeedConsumerOptions } from './feed-consumer-options.js';
import { companyHeaderOf } from './feed-dead-letter.js';
import { bodyOf, FeedRouting, retryCountsOf, type RetryCounts } from './feed-routing.js';
import { declareFeedTopology, mainQueueDeclaration } from './feed-topology.js';
import { loggableFeedError } from './loggable-feed-error.js';

export type { FeedConsumerOptions, FeedHandler } from './feed-consumer-options.js';

type State = 'idle' | 'consuming' | 'paused' | 'stopping' | 'stopped';

/**
 * An event whose work keeps timing out is retried for as long as it takes (the issue: a lock timeout is never a
 * reason to set an event aside), but it is stuck, and its company's later events wait behind it if they need it.
 * Once its takes in a row that did not get through the database (FEED_HEADERS.outages: the database away, or a
 * timeout of its work) reach `timeoutsBeforeWarning`, each retry after a timeout says so at warn, with what to
 * look at. The count is the header's, which does not tell the two apart: a long outage followed by one timeout
 * warns too, for an event that has not got through for as long.
 */
const TIMED_OUT_AGAIN_AND_AGAIN =
  "feed event's work timed out, after FEED_MAX_ATTEMPTS takes or more in a row that did not get through the database; still retried, never set aside for it: look for a long transaction holding its company's lock, or raise the feed's DB_STATEMENT_TIMEOUT_MS";

/**
 * The feed's consumer on the main queue: each message goes to the handler, and its decision is carried out
 * before the message is acknowledged: `ack` (the effect committed), `retry` (a confirmed copy waits in a retry
 * queue, taken again with attempt + 1, or outages + 1 when the database was away or ended the event's work) or `dead` (a confirmed copy
 * with its reason in `<queue>.dead`). Should the broker lose the connection, the client reconnects and the
 * broker redelivers what was not acknowledged, which the ledger makes harmless. Until the consumer is registered
 * again it is not consuming (`feed_consuming` 0), and the errors the loss causes (one per acknowledgement in
 * flight) are said once for each kind, with a count of the others.
 *
 * While the database is away (a `store_unavailable` retry, or READINESS saying no when asked while consuming,
 * which finds it away with no traffic), taking more messages would only move them through the retry queues: the
 * consumer cancels itself, lets those in flight finish, asks READINESS every second, and consumes again once it
 * answers.
 */
export class FeedConsumer {
  private readonly routing: FeedRouting;
  private readonly consumer: Consumer;
  private readonly pollMs: number;
  private readonly timeoutsBeforeWarning: number;
  private state: State = 'idle';
  private inFlightCount = 0;
  /** The cancel of a pause, still settling: a resume waits for it. */
  private cancelling: Promise<void> = Promise.resolve();
  private pollTimer: NodeJS.Timeout | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  /** False from the connection's loss until the consumer is registered again on a new one. */
  private connected = true;
  /**
   * Whether the broker has the consumer registered: false until its first `ready`, from a resume until the
   * next, and from an error that closed its channel or cancelled it (the queue deleted, a setup the broker
   * refused) until the client has set it up again; the connection's loss is `connected`'s.
   */
  private registered = false;
  /** Why the consumer is not registered, when an error said so: for GET /readyz. */
  private unregisteredBy: string | null = null;
  /** Per kind of consumer error (its code or name): when it was last said, and how many were not said since. */
  private readonly errors: QuietErrorLog;
  private readonly onConnectionLost = () => {
    this.connected = false;
    this.showConsuming();
  };

  constructor(private readonly options: FeedConsumerOptions) {
    this.pollMs = options.readinessPollMs ?? 1_000;
    this.errors = new QuietErrorLog(options.logger, { queue: options.topology.queue }, 'feed consumer error');
    this.timeoutsBeforeWarning = options.timeoutsBeforeWarning ?? 10;
    this.routing = new FeedRouting(options.connection, options.topology);
    this.consumer = options.connection.createConsumer(
      {
        queue: options.topology.queue,
        queueOptions: mainQueueDeclaration(options.topology),
        qos: { prefetchCount: options.prefetch },
        concurrency: options.prefetch,
        // A handler that throws (a copy the broker did not confirm) leaves the message to be delivered again.
        requeue: true,
        lazy: true,
      },
      (message) => this.take(message),
    );
    this.consumer.on('error', (error: unknown) => {
      this.errors.say(error);
      if (!unregisters(error)) return;
      this.registered = false;
      this.unregisteredBy = String((error as { code?: unknown }).code ?? (error as Error).name);
      this.showConsuming();
    });
    this.consumer.on('ready', () => {
      if (!this.connected) this.errors.sayUnsaid('feed consumer registered again on the new connection');
      else if (this.unregisteredBy !== null) this.errors.sayUnsaid('feed consumer registered again');
      this.connected = true;
      this.registered = true;
      this.unregisteredBy = null;
      this.showConsuming();
    });
    options.connection.on('error', this.onConnectionLost);
  }

  /** Taking messages: started, neither paused nor stopping, on a connection the broker has, and registered on it. */
  get consuming(): boolean {
    return this.state === 'consuming' && this.connected && this.registered;
  }

  /** Null while it takes messages; else why not (the feed process's GET /readyz). */
  get notConsumingBecause(): string | null {
    switch (this.state) {
      case 'idle':
        return 'The feed consumer is starting: it is not registered with the broker yet.';
      case 'paused':
        return 'The feed consumer is paused: the database does not answer; it takes no messages until it does.';
      case 'stopping':
      case 'stopped':
        return 'The feed consumer is stopping: it finishes the messages in flight and takes no more.';
      case 'consuming':
        if (!this.connected) return 'The feed consumer lost its broker connection; it consumes again once it has reconnected.';
        if (this.unregisteredBy !== null) return `The broker does not have the feed consumer registered (${this.unregisteredBy}); it is being set up again.`;
        return this.registered ? null : 'The feed consumer is registering with the broker.';
    }
  }

  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Declares the topology, then consumes; resolves once the broker has registered the consumer. */
  async start(): Promise<void> {
    if (this.state !== 'idle') throw new Error('The feed consumer was started already.');
    await declareFeedTopology(this.options.connection, this.options.topology);
    // The first setup's failure (a queue declared with other arguments, say) fails the start.
    const ready = new Promise<void>((resolve, reject) => {
      const onError = (error: unknown) => {
        this.consumer.off('ready', onReady);
        reject(error);
      };
      const onReady = () => {
        this.consumer.off('error', onError);
        resolve();
      };
      this.consumer.once('ready', onReady).once('error', onError);
    });
    this.consumer.start();
    this.state = 'consuming';
    this.showConsuming();
    await ready;
    this.scheduleWatch();
  }

  /** Takes no more messages, lets those in flight finish and be acknowledged, then closes its channels. */
  async stop(): Promise<void> {
    if (this.state === 'stopping' || this.state === 'stopped') return;
    this.state = 'stopping';
    clearTimeout(this.pollTimer);
    clearTimeout(this.watchTimer);
    this.showConsuming();
    try {
      await this.cancelling;
      await this.closeConsumer();
      await this.routing.close();
    } finally {
      this.options.connection.off('error', this.onConnectionLost);
      this.errors.sayUnsaid('feed consumer stopped');
      this.state = 'stopped';
    }
  }

  private async take(message: AsyncMessage): Promise<ConsumerStatus> {
    // Counted apart from the call: `metrics?.f(++n)` would skip the increment when there are no metrics.
    this.inFlightCount += 1;
    this.options.metrics?.setInFlight(this.inFlightCount);
    try {
      const counts = retryCountsOf(message);
      const decision = await this.decide({ body: bodyOf(message), attempt: counts.attempt });
      await this.carryOut(decision, message, counts);
      return ConsumerStatus.ACK;
    } finally {
      this.inFlightCount -= 1;
      this.options.metrics?.setInFlight(this.inFlightCount);
    }
  }

  /** The handler's decision; one that throws (it should not) is retried as an unexpected error. */
  private async decide(message: FeedMessage): Promise<FeedDecision> {
    try {
      return await this.options.handler.handle(message);
    } catch (error) {
      // Never its message: an error from deep down may quote the event's data.
      const name = error instanceof Error ? error.name : typeof error;
      this.options.logger.error({ err: loggableFeedError(error) }, 'the feed handler failed; the event is retried');
      return { action: 'retry', reason: 'unexpected_error', detail: `the handler threw ${name}`, event: {} };
    }
  }

  private async carryOut(decision: FeedDecision, message: AsyncMessage, counts: RetryCounts): Promise<void> {
    const { logger, metrics } = this.options;
    const type = decision.event.type ?? 'unknown';
    if (decision.action === 'ack') {
      const latency = decision.outcome === 'applied' && decision.time !== null ? (Date.now() - decision.time.getTime()) / 1000 : undefined;
      metrics?.eventFinished(type, decision.outcome, latency);
      return;
    }
    // Only the event's identity and the reason: never its data, which may be personal. The message's properties
    // name an event whose body could not be read (not JSON, say), as `admin feed dead list` names it.
    const said = {
      id: decision.event.id ?? (message.messageId || undefined),
      type: decision.event.type ?? (message.type || undefined),
      companyId: decision.event.companyId ?? companyHeaderOf(message),
      reason: decision.reason,
      detail: decision.detail,
    };
    // An unexpected error is a bug: its stack is for whoever fixes it, its message (which may quote the event) for nobody.
    if (decision.cause !== undefined) logger.error({ ...said, err: loggableFeedError(decision.cause) }, 'feed event stopped by an unexpected error');
    if (decision.action === 'retry') {
      // The database away, or ending the event's work at a timeout (a lock held elsewhere), is no fault of the
      // event: retried without counting an attempt (FEED_HEADERS.outages). Only the database away pauses the
      // consumer; a timeout of one event's work leaves the other events (other companies') going.
      const outage = decision.reason === 'store_unavailable';
      const notCounted = outage || decision.reason === 'store_timeout';
      if (outage) this.pause('an event');
      const { delayMs, counts: next } = await this.routing.retry(message, counts, notCounted);
      metrics?.eventFinished(type, 'retried');
      if (outage) logger.info({ ...said, attempt: next.attempt, outages: next.outages, delayMs }, 'feed event retried once the database answers, not counted as an attempt');
      else if (!notCounted) logger.info({ ...said, attempt: next.attempt, delayMs }, 'feed event retried later');
      else if (next.outages < this.timeoutsBeforeWarning) logger.info({ ...said, attempt: next.attempt, outages: next.outages, delayMs }, 'feed event retried later, not counted as an attempt: the database ended its work at a timeout');
      else logger.warn({ ...said, attempt: next.attempt, outages: next.outages, delayMs }, TIMED_OUT_AGAIN_AND_AGAIN);
      return;
    }
    await this.routing.deadLetter(message, counts.attempt, decision.reason, decision.detail, new Date());
    metrics?.eventFinished(type, 'dead_lettered');
    logger.warn({ ...said, deadLetterQueue: this.options.topology.deadQueue }, 'feed event dead-lettered');
  }

  /**
   * Cancels the consumer (not awaited here: the cancel waits for this very message to finish). `noticedBy`: an
   * event that found the database away, or the readiness check while consuming.
   */
  private pause(noticedBy: 'an event' | 'the readiness check'): void {
    if (this.state !== 'consuming') return;
    this.state = 'paused';
    this.showConsuming();
    this.options.logger.warn({ queue: this.options.topology.queue, noticedBy }, 'feed paused: the database does not answer; taking no messages until it does');
    this.cancelling = this.closeConsumer().catch((error: unknown) => this.options.logger.error({ err: error }, 'feed consumer could not be closed'));
    this.schedulePoll();
  }

  /**
   * The client's close, seen through to its end. rabbitmq-client 5.0.8 marks its consumer closing before it
   * cancels it; a cancel that fails (the connection lost before the broker answered) leaves it closing for good,
   * where it neither takes messages nor can be started again: a pause would never resume. A second close, with
   * nothing left to cancel, waits for the handlers in flight and closes the channel, after which the client's
   * consumer can start again.
   */
  private async closeConsumer(): Promise<void> {
    try {
      await this.consumer.close();
    } catch (error) {
      this.options.logger.warn({ err: error, queue: this.options.topology.queue }, 'feed consumer could not be cancelled; closing its channel');
      await this.consumer.close();
    }
  }

  private showConsuming(): void {
    this.options.metrics?.setConsuming(this.consuming);
  }

  /** While consuming, readiness every readinessWhileConsumingMs; one check at a time, from start to stop. */
  private scheduleWatch(): void {
    const everyMs = this.options.readinessWhileConsumingMs;
    if (everyMs === undefined || this.state === 'stopping' || this.state === 'stopped') return;
    this.watchTimer = setTimeout(() => void this.watch(), everyMs);
  }

  private async watch(): Promise<void> {
    if (this.state === 'consuming') {
      const ready = await this.options.readiness().catch(() => false);
      if (!ready && this.state === 'consuming') this.pause('the readiness check');
    }
    this.scheduleWatch();
  }

  private schedulePoll(): void {
    this.pollTimer = setTimeout(() => void this.poll(), this.pollMs);
  }

  private async poll(): Promise<void> {
    const ready = await this.options.readiness().catch(() => false);
    if (this.state !== 'paused') return;
    if (!ready) return this.schedulePoll();
    await this.cancelling;
    if (this.state !== 'paused') return;
    this.state = 'consuming';
    this.registered = false;
    this.consumer.start();
    this.showConsuming();
    this.options.logger.info({ queue: this.options.topology.queue }, 'feed resumed: the database answers');
  }
}
