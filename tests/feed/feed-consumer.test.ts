import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { Connection, type Publisher, type SyncMessage } from 'rabbitmq-client';
import { PlatformEventHandler, type FeedDecision, type FeedMessage } from '../../adapters/feed/platform-event-handler.js';
import { PrometheusFeedMetrics } from '../../adapters/feed/feed-metrics.js';
import { StoreUnavailableError } from '../../application/ports/store-unavailable.error.js';
import { ChangeNotYetApplicableError } from '../../application/use-cases/platform-change.js';
import { loadConfig } from '../../infrastructure/config.js';
import { buildContainer, disposeContainer } from '../../infrastructure/container/build-container.js';
import { FeedConsumer, type FeedHandler } from '../../infrastructure/feed/feed-consumer.js';
import { declareFeedTopology, deleteFeedTopology, FEED_HEADERS, feedTopology, retryQueueFor, type FeedTopology } from '../../infrastructure/feed/feed-topology.js';
import { startFeedConsumer } from '../../infrastructure/feed/start-feed-consumer.js';
import { USE_CASES } from '../../infrastructure/container/use-case.tokens.js';
import type { ApplyPlatformEvent } from '../../application/use-cases/apply-platform-event.use-case.js';
import type { PurgeFeedRecords } from '../../application/use-cases/purge-feed-records.use-case.js';
import { createLogger } from '../../infrastructure/logger.js';
import { eventsOf } from './support/platform-events.js';
import { TcpProxy } from '../rate-limit/support/tcp-proxy.js';

const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

/** Polls until the condition holds; fails naming what was awaited. */
async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function capturedLogger() {
  const lines: Record<string, any>[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, any>) });
  return { logger, lines, said: (msg: string) => lines.filter((line) => line.msg === msg) };
}

interface Take {
  readonly body: string;
  readonly attempt: number;
  readonly at: number;
}

/** A handler of the adapter's shape whose decisions the test writes; it remembers every take. */
class ScriptedHandler implements FeedHandler {
  readonly takes: Take[] = [];
  constructor(private readonly decide: (message: { body: string; attempt: number }) => FeedDecision | Promise<FeedDecision>) {}

  async handle(message: FeedMessage): Promise<FeedDecision> {
    const body = Buffer.isBuffer(message.body) ? message.body.toString('utf8') : message.body;
    this.takes.push({ body, attempt: message.attempt, at: Date.now() });
    return this.decide({ body, attempt: message.attempt });
  }

  takesOf(body: string): Take[] {
    return this.takes.filter((take) => take.body === body);
  }
}

/** A relay to the broker that the test can cut (connections dropped, new ones refused) and restore, as a network failure or a broker restart would; and its amqp URL. */
async function relayToBroker(): Promise<{ url: string; proxy: TcpProxy }> {
  const broker = new URL(AMQP_URL);
  const proxy = await TcpProxy.start({ host: broker.hostname, port: Number(broker.port || 5672) });
  const url = new URL(AMQP_URL);
  url.host = `127.0.0.1:${proxy.port}`;
  return { url: url.toString(), proxy };
}

const EVENT = { id: 'evt-1', type: 'candidate.moved', companyId: 'company-1', source: 'platform-test' };
const applied = (time: Date | null = new Date()): FeedDecision => ({ action: 'ack', outcome: 'applied', event: EVENT, time });

/** A queue of the test's own on the machine's shared RabbitMQ, and what is needed to watch it. */
class Broker {
  readonly connection = new Connection({ url: AMQP_URL, connectionName: 'feed consumer test' });
  readonly publisher: Publisher;
  readonly topology: FeedTopology;
  private readonly consumers: FeedConsumer[] = [];

  constructor(retryDelaysMs: readonly number[]) {
    this.connection.on('error', () => undefined);
    this.topology = feedTopology(`test.feed.${process.pid}.${randomBytes(4).toString('hex')}`, retryDelaysMs);
    this.publisher = this.connection.createPublisher({ confirm: true });
  }

  consumer(
    handler: FeedHandler,
    options: { prefetch?: number; readiness?: () => Promise<boolean>; readinessPollMs?: number; logger?: ReturnType<typeof capturedLogger>['logger']; metrics?: PrometheusFeedMetrics; timeoutsBeforeWarning?: number } = {},
  ): FeedConsumer {
    const consumer = new FeedConsumer({
      connection: this.connection,
      topology: this.topology,
      handler,
      prefetch: options.prefetch ?? 8,
      readiness: options.readiness ?? (async () => true),
      logger: options.logger ?? capturedLogger().logger,
      metrics: options.metrics,
      readinessPollMs: options.readinessPollMs,
      timeoutsBeforeWarning: options.timeoutsBeforeWarning,
    });
    this.consumers.push(consumer);
    return consumer;
  }

  async publish(body: string, extra: { messageId?: string; type?: string; headers?: Record<string, unknown> } = {}): Promise<void> {
    await this.publisher.send({ routingKey: this.topology.queue, contentType: 'application/cloudevents+json', durable: true, ...extra }, Buffer.from(body));
  }

  async depth(queue = this.topology.queue): Promise<number> {
    return (await this.connection.queueDeclare({ queue, passive: true })).messageCount;
  }

  async get(queue: string): Promise<SyncMessage | undefined> {
    return this.connection.basicGet({ queue, noAck: true });
  }

  async close(): Promise<void> {
    for (const consumer of this.consumers) await consumer.stop();
    await this.publisher.close();
    await deleteFeedTopology(this.connection, this.topology);
    await this.connection.close();
  }
}

describe('Feed consumer runtime (real RabbitMQ, a scripted handler)', function () {
  let broker: Broker;
  afterEach(async () => broker?.close());

  it('acknowledges a message once the handler has applied it, and counts it with its apply latency', async () => {
    broker = new Broker([50, 100]);
    const metrics = new PrometheusFeedMetrics({ processMetrics: false });
    const handler = new ScriptedHandler(() => applied(new Date(Date.now() - 2_000)));
    const consumer = broker.consumer(handler, { metrics });
    await consumer.start();
    for (const n of [1, 2, 3]) await broker.publish(`{"n":${n}}`);
    await until('three takes', () => handler.takes.length === 3);
    await consumer.stop();
    // Unacknowledged messages would be back in the queue once the consumer's channel closed.
    expect(await broker.depth()).to.equal(0);
    expect(handler.takes.map((take) => take.attempt)).to.deep.equal([0, 0, 0]);
    const text = (await metrics.render()).text;
    expect(text).to.match(/^feed_events_total\{type="candidate\.moved",outcome="applied"\} 3$/m);
    expect(text).to.match(/^feed_apply_latency_seconds_bucket\{le="1",type="candidate\.moved"\} 0$/m);
    expect(text).to.match(/^feed_apply_latency_seconds_bucket\{le="2\.5",type="candidate\.moved"\} 3$/m);
    expect(text).to.match(/^feed_messages_in_flight 0$/m);
  });

  it('takes at most FEED_PREFETCH messages at once', async () => {
    broker = new Broker([50]);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let running = 0;
    let most = 0;
    const handler = new ScriptedHandler(async () => {
      most = Math.max(most, ++running);
      await released;
      running--;
      return applied();
    });
    const consumer = broker.consumer(handler, { prefetch: 3 });
    try {
      await consumer.start();
      for (let n = 0; n < 7; n++) await broker.publish(`{"n":${n}}`);
      await until('three in flight', () => consumer.inFlight === 3);
      await sleep(200);
      expect(handler.takes).to.have.length(3);
    } finally {
      release();
    }
    await until('all seven', () => handler.takes.length === 7);
    expect(most).to.equal(3);
  });

  it('retries a message through the delay queue of its attempt, with attempt + 1, the last delay repeating', async () => {
    broker = new Broker([50, 200]);
    const logs = capturedLogger();
    const metrics = new PrometheusFeedMetrics({ processMetrics: false });
    const handler = new ScriptedHandler(({ attempt }) =>
      attempt < 3 ? { action: 'retry', reason: 'not_yet_applicable', detail: 'the card is not there yet', event: EVENT } : applied(),
    );
    const consumer = broker.consumer(handler, { logger: logs.logger, metrics });
    await consumer.start();
    await broker.publish('{"retry":"me"}');
    await until('the fourth take', () => handler.takes.length === 4);
    const takes = handler.takesOf('{"retry":"me"}');
    expect(takes.map((take) => take.attempt)).to.deep.equal([0, 1, 2, 3]);
    const gaps = takes.slice(1).map((take, i) => take.at - (takes[i] as Take).at);
    // 50 ms after the first take, then 200 ms, then 200 ms again (the last delay repeats).
    expect(gaps[0]).to.be.at.least(45).and.below(190);
    expect(gaps[1]).to.be.at.least(190);
    expect(gaps[2]).to.be.at.least(190);
    await consumer.stop();
    expect(await broker.depth()).to.equal(0);
    for (const { queue } of broker.topology.retryQueues) expect(await broker.depth(queue)).to.equal(0);
    const retried = logs.said('feed event retried later');
    expect(retried.map((line) => [line.attempt, line.delayMs])).to.deep.equal([[1, 50], [2, 200], [3, 200]]);
    expect(retried[0]).to.include({ level: 30, id: 'evt-1', type: 'candidate.moved', companyId: 'company-1', reason: 'not_yet_applicable', detail: 'the card is not there yet' });
    expect((await metrics.render()).text).to.match(/^feed_events_total\{type="candidate\.moved",outcome="retried"\} 3$/m);
  });

  it('retries an event whose work the database ended at a timeout without counting an attempt and without pausing: other events go on', async () => {
    broker = new Broker([50, 300]);
    const logs = capturedLogger();
    const timedOut: FeedDecision = { action: 'retry', reason: 'store_timeout', detail: 'the database ended the work', event: EVENT };
    const handler: ScriptedHandler = new ScriptedHandler(({ body }) => (body.includes('locked') && handler.takes.filter((t) => t.body.includes('locked')).length <= 2 ? timedOut : applied()));
    const consumer = broker.consumer(handler, { logger: logs.logger, readinessPollMs: 10 });
    await consumer.start();
    await broker.publish('{"company":"locked"}');
    await until('the locked event taken three times', () => handler.takes.filter((t) => t.body.includes('locked')).length === 3);
    await broker.publish('{"company":"other"}');
    await until('the other event taken', () => handler.takes.some((t) => t.body.includes('other')));
    await consumer.stop();
    expect(handler.takes.filter((t) => t.body.includes('locked')).map((t) => t.attempt)).to.deep.equal([0, 0, 0]);
    const retried = logs.said('feed event retried later, not counted as an attempt: the database ended its work at a timeout');
    expect(retried.map((line) => [line.attempt, line.outages, line.reason])).to.deep.equal([[0, 1, 'store_timeout'], [0, 2, 'store_timeout']]);
    expect(logs.said('feed paused: the database does not answer; taking no messages until it does')).to.deep.equal([]);
    expect(await broker.depth()).to.equal(0);
  });

  it('says at warn, once its takes in a row not getting through reach timeoutsBeforeWarning (timeouts here), that an event whose work keeps timing out is stuck, and still retries it', async () => {
    broker = new Broker([20, 50]);
    const logs = capturedLogger();
    const timedOut: FeedDecision = { action: 'retry', reason: 'store_timeout', detail: 'the database ended the work', event: EVENT };
    const handler: ScriptedHandler = new ScriptedHandler(() => (handler.takes.length <= 4 ? timedOut : applied()));
    const consumer = broker.consumer(handler, { logger: logs.logger, readinessPollMs: 10, timeoutsBeforeWarning: 3 });
    await consumer.start();
    await broker.publish('{"work":"too long"}');
    await until('the fifth take', () => handler.takes.length === 5);
    await consumer.stop();
    expect(handler.takes.map((take) => take.attempt)).to.deep.equal([0, 0, 0, 0, 0]);
    const quiet = logs.said('feed event retried later, not counted as an attempt: the database ended its work at a timeout');
    expect(quiet.map((line) => [line.level, line.outages])).to.deep.equal([[30, 1], [30, 2]]);
    const loud = logs.said(
      "feed event's work timed out, after FEED_MAX_ATTEMPTS takes or more in a row that did not get through the database; still retried, never set aside for it: look for a long transaction holding its company's lock, or raise the feed's DB_STATEMENT_TIMEOUT_MS",
    );
    expect(loud.map((line) => [line.level, line.outages])).to.deep.equal([[40, 3], [40, 4]]);
    expect(loud[0]).to.include({ id: 'evt-1', companyId: 'company-1', reason: 'store_timeout', detail: 'the database ended the work' });
    expect(await broker.depth()).to.equal(0);
    expect(await broker.depth(broker.topology.deadQueue)).to.equal(0);
  });

  it('retries while the database is away without counting attempts: outages + 1, the delay of the outages so far, the last repeating', async () => {
    broker = new Broker([50, 300]);
    const logs = capturedLogger();
    const outage: FeedDecision = { action: 'retry', reason: 'store_unavailable', detail: 'the database does not answer', event: EVENT };
    const notYet: FeedDecision = { action: 'retry', reason: 'not_yet_applicable', detail: 'the card is not there yet', event: EVENT };
    const script = [outage, outage, outage, notYet];
    const handler: ScriptedHandler = new ScriptedHandler(() => script[handler.takes.length - 1] ?? applied());
    const consumer = broker.consumer(handler, { logger: logs.logger, readinessPollMs: 10 });
    await consumer.start();
    await broker.publish('{"outage":"long"}');
    await until('the fifth take', () => handler.takes.length === 5);
    await consumer.stop();
    const takes = handler.takes;
    expect(takes.map((take) => take.attempt)).to.deep.equal([0, 0, 0, 0, 1]);
    const gaps = takes.slice(1).map((take, i) => take.at - (takes[i] as Take).at);
    expect(gaps[0]).to.be.at.least(45).and.below(290);
    expect(gaps[1]).to.be.at.least(290);
    expect(gaps[2]).to.be.at.least(290);
    // Once a take reached the database, its retry waits the delay of its first attempt, not the outages'.
    expect(gaps[3]).to.be.at.least(45).and.below(290);
    const waited = logs.said('feed event retried once the database answers, not counted as an attempt');
    expect(waited.map((line) => [line.attempt, line.outages, line.delayMs])).to.deep.equal([[0, 1, 50], [0, 2, 300], [0, 3, 300]]);
    expect(waited[0]).to.include({ level: 30, id: 'evt-1', reason: 'store_unavailable' });
    expect(logs.said('feed event retried later').map((line) => [line.attempt, line.outages, line.delayMs])).to.deep.equal([[1, undefined, 50]]);
    // Paused and resumed once for each outage, said once each.
    expect(logs.said('feed paused: the database does not answer; taking no messages until it does')).to.have.length(3);
    expect(logs.said('feed resumed: the database answers')).to.have.length(3);
    expect(await broker.depth()).to.equal(0);
  });

  it('pauses and resumes once, said once each, when several messages in flight find the database away', async () => {
    broker = new Broker([50]);
    const logs = capturedLogger();
    let databaseUp = false;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const handler: ScriptedHandler = new ScriptedHandler(async () => {
      if (databaseUp) return applied();
      if (handler.takes.length === 3) release();
      await released;
      return { action: 'retry', reason: 'store_unavailable', detail: 'connection refused', event: EVENT };
    });
    const consumer = broker.consumer(handler, { logger: logs.logger, readiness: async () => databaseUp, readinessPollMs: 50 });
    await consumer.start();
    for (const n of [1, 2, 3]) await broker.publish(`{"n":${n}}`);
    await until('three outage retries', () => logs.said('feed event retried once the database answers, not counted as an attempt').length === 3);
    expect(consumer.consuming).to.equal(false);
    databaseUp = true;
    await until('all three applied', () => handler.takes.length === 6);
    await consumer.stop();
    const waited = logs.said('feed event retried once the database answers, not counted as an attempt');
    expect(waited.map((line) => [line.attempt, line.outages])).to.deep.equal([[0, 1], [0, 1], [0, 1]]);
    expect(handler.takes.map((take) => take.attempt)).to.deep.equal([0, 0, 0, 0, 0, 0]);
    expect(logs.said('feed paused: the database does not answer; taking no messages until it does')).to.have.length(1);
    expect(logs.said('feed resumed: the database answers')).to.have.length(1);
    expect(logs.lines.filter((line) => line.level >= 40).map((line) => line.msg)).to.deep.equal(['feed paused: the database does not answer; taking no messages until it does']);
  });

  it('after an outage longer than FEED_MAX_ATTEMPTS takes, still gives an event that is not yet applicable all its attempts', async () => {
    broker = new Broker([20, 40]);
    let applies = 0;
    // Three takes find the database away, then the event's card never arrives.
    const apply = {
      executeAll: async (commands: readonly unknown[]) =>
        commands.map(() => {
          applies++;
          return { error: applies <= 3 ? new StoreUnavailableError('ECONNREFUSED') : new ChangeNotYetApplicableError('The card c-1 is not there yet.') };
        }),
    };
    const handler = new PlatformEventHandler(apply, { maxAttempts: 2 });
    const consumer = broker.consumer(handler, { readinessPollMs: 10 });
    await consumer.start();
    const event = eventsOf('company-1').candidateMoved('c-1', 2, 'INTERVIEW');
    await broker.publish(JSON.stringify(event), { messageId: event.id });
    await until('the dead letter', async () => (await broker.depth(broker.topology.deadQueue)) === 1);
    await consumer.stop();
    expect(applies).to.equal(5);
    const dead = await broker.get(broker.topology.deadQueue);
    expect(dead?.headers).to.include({ [FEED_HEADERS.deadReason]: 'not_applicable', [FEED_HEADERS.attempt]: 1, [FEED_HEADERS.outages]: 0 });
    expect(String(dead?.headers?.[FEED_HEADERS.deadDetail])).to.match(/^Still not applicable after 2 attempts/);
  });

  it('publishes a retry as a confirmed copy of the message (body, id, type, headers) and only then acknowledges it', async () => {
    broker = new Broker([600_000, 700_000, 800_000]);
    const handler = new ScriptedHandler(() => ({ action: 'retry', reason: 'store_unavailable', detail: 'the database does not answer', event: EVENT }));
    const consumer = broker.consumer(handler);
    await consumer.start();
    const body = '{"specversion":"1.0","data":{"name":"Ada"}}';
    await broker.publish(body, { messageId: 'evt-1', type: 'candidate.moved', headers: { 'x-platform-trace': 'abc', [FEED_HEADERS.attempt]: 4, [FEED_HEADERS.outages]: 1 } });
    await until('the take', () => handler.takes.length === 1);
    await consumer.stop();
    // An outage retry: the delay of the outages so far (the 2nd), not of the attempts (the last).
    const retryQueue = retryQueueFor(broker.topology, 1).queue;
    const copy = await broker.get(retryQueue);
    expect(copy, 'the copy in the retry queue').not.to.equal(undefined);
    expect(Buffer.from(copy?.body as Buffer).toString('utf8')).to.equal(body);
    expect(copy).to.include({ messageId: 'evt-1', type: 'candidate.moved', contentType: 'application/cloudevents+json', durable: true });
    expect(copy?.headers).to.include({ 'x-platform-trace': 'abc', [FEED_HEADERS.attempt]: 4, [FEED_HEADERS.outages]: 2 });
    expect(await broker.depth()).to.equal(0);
    expect(handler.takes[0]?.attempt).to.equal(4);
  });

  it('never acknowledges a message whose copy the broker could not route (a retry queue deleted under it)', async () => {
    broker = new Broker([50]);
    const handler = new ScriptedHandler(({ attempt }) =>
      attempt === 0 ? { action: 'retry', reason: 'not_yet_applicable', detail: 'not yet', event: EVENT } : applied(),
    );
    const consumer = broker.consumer(handler);
    await consumer.start();
    // A first retry opens the publishing channel (which declares the retry queues as it opens).
    await broker.publish('{"n":"first"}');
    await until('the first retried', () => handler.takesOf('{"n":"first"}').length === 2);
    await broker.connection.queueDelete({ queue: retryQueueFor(broker.topology, 0).queue });
    await broker.publish('{"n":"a"}');
    // The first copy went nowhere: the message is taken again (attempt 0), its copy now reaches the queue
    // declared again, and comes back with attempt 1.
    await until('attempt 1 of a', () => handler.takesOf('{"n":"a"}').some((take) => take.attempt === 1));
    expect(handler.takesOf('{"n":"a"}').map((take) => take.attempt)).to.deep.equal([0, 0, 1]);
    await consumer.stop();
    expect(await broker.depth()).to.equal(0);
  });

  it('dead-letters a message into <queue>.dead with its reason, detail and time, logging no data', async () => {
    broker = new Broker([50]);
    const logs = capturedLogger();
    const metrics = new PrometheusFeedMetrics({ processMetrics: false });
    const handler = new ScriptedHandler(({ body }) =>
      body.startsWith('{')
        ? applied()
        : // As the parser decides on a body that is not JSON: nothing of the event could be read.
          { action: 'dead', reason: 'invalid_json', detail: 'the body is not JSON', event: {} },
    );
    const consumer = broker.consumer(handler, { logger: logs.logger, metrics });
    await consumer.start();
    const before = Date.now();
    await broker.publish('not json: Ada Lovelace, +7 700 000 00 00', { messageId: 'evt-9', type: 'candidate.added', headers: { companyid: 'company-9' } });
    await broker.publish('{"after":"the poison"}');
    await until('both takes', () => handler.takes.length === 2);
    await consumer.stop();
    const dead = await broker.get(broker.topology.deadQueue);
    expect(dead, 'the dead letter').not.to.equal(undefined);
    expect(Buffer.from(dead?.body as Buffer).toString('utf8')).to.equal('not json: Ada Lovelace, +7 700 000 00 00');
    expect(dead?.messageId).to.equal('evt-9');
    expect(dead?.headers).to.include({ [FEED_HEADERS.deadReason]: 'invalid_json', [FEED_HEADERS.deadDetail]: 'the body is not JSON', [FEED_HEADERS.attempt]: 0 });
    const at = Date.parse(String(dead?.headers?.[FEED_HEADERS.deadAt]));
    expect(at).to.be.within(before - 1, Date.now());
    expect(await broker.depth(broker.topology.deadQueue)).to.equal(0);
    expect(await broker.depth()).to.equal(0);
    const said = logs.said('feed event dead-lettered');
    expect(said).to.have.length(1);
    // Named by the message's properties, as `admin feed dead list` names it.
    expect(said[0]).to.include({ level: 40, id: 'evt-9', type: 'candidate.added', companyId: 'company-9', reason: 'invalid_json', detail: 'the body is not JSON' });
    expect(JSON.stringify(logs.lines)).not.to.contain('Lovelace');
    expect((await metrics.render()).text).to.match(/^feed_events_total\{type="other",outcome="dead_lettered"\} 1$/m);
  });

  it('logs an unexpected error by its name, codes and stack frames, never its message, which may quote the event', async () => {
    broker = new Broker([50]);
    const logs = capturedLogger();
    const email = 'aigerim.bekova@example.com';
    // As MikroORM wraps PostgreSQL's error: the statement with the event's values inlined, the key in `detail`.
    const driverError = new UniqueConstraintViolationException(
      Object.assign(new Error(`insert into "candidate" ("name", "email") values ('Aigerim', '${email}') - duplicate key value violates unique constraint "candidate_email_unique"`), {
        code: '23505',
        severity: 'ERROR',
        detail: `Key (email)=(${email}) already exists.`,
        constraint: 'candidate_email_unique',
        table: 'candidate',
      }),
    );
    const causes: Record<string, Error> = { driver: driverError, parse: new SyntaxError(`Unexpected token 'a', "${email}" is not valid JSON`) };
    const handler = new ScriptedHandler(({ body }) => {
      if (body === 'throws') throw new TypeError(`cannot read the resume of ${email}`);
      return { action: 'dead', reason: 'unexpected_error', detail: 'An unexpected error stopped the event.', event: EVENT, cause: causes[body] };
    });
    const consumer = broker.consumer(handler, { logger: logs.logger, metrics: new PrometheusFeedMetrics({ processMetrics: false }) });
    await consumer.start();
    for (const body of ['driver', 'parse']) await broker.publish(body);
    await until('both dead letters', async () => (await broker.depth(broker.topology.deadQueue)) === 2);
    await broker.publish('throws');
    await until('the thrown error said', () => logs.said('the feed handler failed; the event is retried').length === 1);
    await consumer.stop();

    expect(JSON.stringify(logs.lines)).not.to.contain('aigerim.bekova');
    const errors = logs.said('feed event stopped by an unexpected error').map((line) => line.err as Record<string, unknown>);
    const driver = errors.find((err) => err.type === 'UniqueConstraintViolationException');
    expect(driver, JSON.stringify(errors)).to.include({ code: '23505', constraint: 'candidate_email_unique', table: 'candidate' });
    const parse = errors.find((err) => err.type === 'SyntaxError');
    const thrown = logs.said('the feed handler failed; the event is retried')[0]?.err as Record<string, unknown> | undefined;
    expect(thrown).to.include({ type: 'TypeError' });
    // The frames that find the bug stay: each error was made in this file.
    for (const err of [driver, parse, thrown]) expect(String(err?.stack)).to.match(/^\w+: \[message withheld[^\n]*\n\s+at .*feed-consumer\.test\.ts/);
  });

  it('pauses when the database does not answer, takes nothing while paused, and resumes by itself once it answers', async () => {
    broker = new Broker([50]);
    const logs = capturedLogger();
    const metrics = new PrometheusFeedMetrics({ processMetrics: false });
    let databaseUp = false;
    let readinessAsked = 0;
    const handler = new ScriptedHandler(() =>
      databaseUp ? applied() : { action: 'retry', reason: 'store_unavailable', detail: 'connection refused', event: EVENT },
    );
    const readiness = async () => {
      readinessAsked++;
      return databaseUp;
    };
    const consumer = broker.consumer(handler, { logger: logs.logger, metrics, readiness, readinessPollMs: 100 });
    expect(consumer.notConsumingBecause).to.match(/starting/);
    await consumer.start();
    expect(consumer.notConsumingBecause).to.equal(null);
    await broker.publish('{"n":"a"}');
    await until('the pause', () => !consumer.consuming);
    expect((await metrics.render()).text).to.match(/^feed_consuming 0$/m);
    expect(consumer.notConsumingBecause).to.match(/paused: the database does not answer/);
    await broker.publish('{"n":"b"}');
    // The retried copy comes back after 50 ms; neither it nor b is taken while paused.
    await sleep(600);
    expect(handler.takes.map((take) => take.body)).to.deep.equal(['{"n":"a"}']);
    await until('both messages back in the queue', async () => (await broker.depth()) === 2);
    expect(readinessAsked).to.be.at.least(3);
    databaseUp = true;
    await until('the resume', () => consumer.consuming);
    expect(consumer.notConsumingBecause).to.equal(null);
    await until('both applied', () => handler.takesOf('{"n":"a"}').length === 2 && handler.takesOf('{"n":"b"}').length === 1);
    // The take that found the database away was no attempt of the event.
    expect(handler.takesOf('{"n":"a"}').map((take) => take.attempt)).to.deep.equal([0, 0]);
    expect(logs.said('feed paused: the database does not answer; taking no messages until it does')).to.have.length(1);
    expect(logs.said('feed resumed: the database answers')).to.have.length(1);
    expect((await metrics.render()).text).to.match(/^feed_consuming 1$/m);
    await consumer.stop();
    expect(consumer.notConsumingBecause).to.match(/stopping/);
    expect(await broker.depth()).to.equal(0);
  });

  it('resumes after a pause whose cancel the broker connection, lost meanwhile, failed: takes messages again once both are back', async () => {
    // A network failure of this host puts the database and the broker out of reach at once. The pause cancels
    // the client's consumer; the cancel is sent, and the connection is lost before the broker answers it.
    broker = new Broker([50]);
    const { url, proxy } = await relayToBroker();
    const connection = new Connection({ url, retryLow: 100, retryHigh: 300 });
    connection.on('error', () => undefined);
    let databaseUp = false;
    const handler = new ScriptedHandler(() => {
      if (databaseUp) return applied();
      proxy.cut();
      return { action: 'retry', reason: 'store_unavailable', detail: 'connection refused', event: EVENT };
    });
    const logs = capturedLogger();
    const consumer = new FeedConsumer({ connection, topology: broker.topology, handler, prefetch: 4, readiness: async () => databaseUp, readinessPollMs: 100, logger: logs.logger });
    try {
      await consumer.start();
      await broker.publish('{"n":"a"}');
      await until('the pause', () => /paused/.test(consumer.notConsumingBecause ?? ''));
      await until('the cancel failed', () => logs.lines.some((line) => line.level >= 40 && /cancel/.test(String(line.msg))));
      proxy.restore();
      databaseUp = true;
      await until('consuming again', () => consumer.consuming, 15_000);
      await broker.publish('{"n":"b"}');
      // a was never acknowledged on the lost connection: it comes again, with b (and its retry copy may come too,
      // should the client publish it again once connected: the ledger makes such a repeat harmless).
      await until('a and b applied', () => handler.takesOf('{"n":"b"}').length === 1 && handler.takesOf('{"n":"a"}').length >= 2, 15_000);
      expect(logs.said('feed consumer could not be cancelled; closing its channel')).to.have.length(1);
      expect(logs.said('feed consumer could not be closed')).to.have.length(0);
      await consumer.stop();
    } finally {
      databaseUp = true;
      await consumer.stop();
      await connection.close();
      await proxy.close();
    }
  });

  it('goes on after the broker connection is lost: what was in flight comes again and is acknowledged', async () => {
    broker = new Broker([50]);
    const { url, proxy } = await relayToBroker();
    const connection = new Connection({ url, retryLow: 100, retryHigh: 500 });
    connection.on('error', () => undefined);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const handler = new ScriptedHandler(async ({ body }) => {
      if (body === '{"n":"a"}' && handler.takesOf(body).length === 1) await released;
      return applied();
    });
    const logs = capturedLogger();
    const consumer = new FeedConsumer({ connection, topology: broker.topology, handler, prefetch: 4, readiness: async () => true, logger: logs.logger });
    try {
      await consumer.start();
      await broker.publish('{"n":"a"}');
      await until('the first take of a', () => handler.takesOf('{"n":"a"}').length === 1);
      proxy.cut();
      release();
      proxy.restore();
      // Its ack could not reach the broker: a is delivered again once the consumer is back.
      await until('a again', () => handler.takesOf('{"n":"a"}').length === 2);
      await broker.publish('{"n":"b"}');
      await until('b', () => handler.takesOf('{"n":"b"}').length === 1);
      await consumer.stop();
      expect(await broker.depth()).to.equal(0);
    } finally {
      release();
      await consumer.stop();
      await connection.close();
      await proxy.close();
    }
  });

  it('while the broker connection is lost: not consuming (feed_consuming 0), each kind of error logged once, the others counted; back: consuming', async () => {
    broker = new Broker([50]);
    const { url, proxy } = await relayToBroker();
    const connection = new Connection({ url, retryLow: 100, retryHigh: 300 });
    connection.on('error', () => undefined);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const handler = new ScriptedHandler(async ({ body }) => {
      if (handler.takesOf(body).length === 1) await released;
      return applied();
    });
    const logs = capturedLogger();
    const metrics = new PrometheusFeedMetrics();
    const consumer = new FeedConsumer({ connection, topology: broker.topology, handler, prefetch: 16, readiness: async () => true, logger: logs.logger, metrics });
    const gauge = async () => /^feed_consuming (\d)$/m.exec((await metrics.render()).text)?.[1];
    try {
      await consumer.start();
      for (let n = 0; n < 16; n++) await broker.publish(`{"n":${n}}`);
      await until('sixteen takes', () => handler.takes.length === 16);
      // The broker out of reach: every acknowledgement in flight fails.
      proxy.cut();
      release();
      await until('not consuming', async () => (await gauge()) === '0' && !consumer.consuming);
      expect(consumer.notConsumingBecause).to.match(/lost its broker connection/);
      proxy.restore();
      await until('consuming again', async () => (await gauge()) === '1' && consumer.consuming);
      expect(consumer.notConsumingBecause).to.equal(null);
      await until('each message again', () => handler.takes.length === 32);
      const errors = logs.said('feed consumer error');
      const kinds = new Set(errors.map((line) => String(line.err?.code ?? line.err?.type)));
      expect(errors.length, JSON.stringify(errors.map((line) => line.err?.message))).to.equal(kinds.size);
      const counted = logs.said('feed consumer registered again on the new connection')[0]?.errorsNotLogged as { kind: string; count: number }[];
      // Sixteen acknowledgements failed (the client reports most of them one by one): those not logged are counted.
      expect(counted?.reduce((sum, kind) => sum + kind.count, 0), 'errors counted, not logged').to.be.at.least(1);
      await consumer.stop();
      expect(await broker.depth()).to.equal(0);
    } finally {
      release();
      await consumer.stop();
      await connection.close();
      await proxy.close();
    }
  });

  it('is not consuming while the broker has cancelled it (its queue deleted), saying why, and consumes again once the client has set it up again', async () => {
    broker = new Broker([50]);
    const handler = new ScriptedHandler(() => applied());
    // Each change of feed_consuming, with the reason the consumer gave at that moment (no timing involved).
    const changes: { consuming: boolean; because: string | null }[] = [];
    let consumer!: FeedConsumer;
    const metrics = new (class extends PrometheusFeedMetrics {
      override setConsuming(consuming: boolean): void {
        super.setConsuming(consuming);
        changes.push({ consuming, because: consumer?.notConsumingBecause ?? null });
      }
    })({ processMetrics: false });
    consumer = broker.consumer(handler, { metrics });
    await consumer.start();
    expect(consumer.notConsumingBecause).to.equal(null);
    changes.length = 0;
    await broker.connection.queueDelete({ queue: broker.topology.queue });
    await until('not consuming, then consuming again', () => changes.some((change) => !change.consuming) && consumer.consuming);
    expect(changes.find((change) => !change.consuming)?.because).to.equal('The broker does not have the feed consumer registered (CANCEL_FORCED); it is being set up again.');
    expect(changes.at(-1)).to.deep.equal({ consuming: true, because: null });
    // Set up again, it declared its queue anew and takes from it.
    await broker.publish('{"n":1}');
    await until('the take', () => handler.takes.length === 1);
    await consumer.stop();
  });

  it('at stop, takes no more messages, and finishes and acknowledges those in flight before it resolves', async () => {
    broker = new Broker([50]);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const handler = new ScriptedHandler(async ({ body }) => {
      if (body === '{"slow":true}') await released;
      return applied();
    });
    // Room for more than the slow one: only the stop keeps the consumer from taking the next.
    const consumer = broker.consumer(handler, { prefetch: 4 });
    await consumer.start();
    await broker.publish('{"slow":true}');
    await until('the slow take', () => handler.takes.length === 1);
    let stopped = false;
    const stopping = consumer.stop().then(() => (stopped = true));
    try {
      // Published once the stop has begun: a consumer that still consumed would take it at once.
      await sleep(100);
      await broker.publish('{"after":"stop"}');
      await sleep(300);
      expect(stopped, 'stop resolved with a message in flight').to.equal(false);
      expect(handler.takes.map((take) => take.body), 'taken while stopping').to.deep.equal(['{"slow":true}']);
    } finally {
      release();
    }
    await stopping;
    expect(handler.takes.map((take) => take.body)).to.deep.equal(['{"slow":true}']);
    // The slow one was acknowledged; the one after it was never taken and waits for the next consumer.
    expect(await broker.depth()).to.equal(1);
    expect(Buffer.from((await broker.get(broker.topology.queue))?.body as Buffer).toString('utf8')).to.equal('{"after":"stop"}');
  });
});

describe('startFeedConsumer (the consumer on a container, as npm run feed starts it)', function () {
  it('refuses to start without FEED_URL, naming it', async () => {
    const container = await buildContainer({ profile: 'memory', config: { store: 'memory' } });
    try {
      const config = { ...loadConfig({}), feedUrl: null };
      const error = await startFeedConsumer(container, config, capturedLogger().logger).then(() => null, (e: unknown) => e as Error);
      expect(error?.message).to.match(/^FEED_URL is not set/);
    } finally {
      await disposeContainer(container);
    }
  });

  it('refuses to start at once when the broker refuses its login, saying so, without the password', async () => {
    const container = await buildContainer({ profile: 'memory', config: { store: 'memory' } });
    try {
      const wrong = new URL(AMQP_URL);
      wrong.password = 'not-the-Password-42';
      const config = loadConfig({ FEED_URL: wrong.toString(), FEED_QUEUE: `test.feed.${process.pid}.${randomBytes(4).toString('hex')}` });
      const logs = capturedLogger();
      // A wait for the connect timeout would outlast the test's own.
      const error = await startFeedConsumer(container, config, logs.logger, { connectTimeoutMs: 600_000 }).then(() => null, (e: unknown) => e as Error);
      expect(error?.message).to.match(/^the broker at FEED_URL \(amqp:\/\/guest:\*\*\*@[^)]+\) refused the connection: ACCESS_REFUSED - Login was refused/);
      expect(error?.message).to.not.contain('not-the-Password-42');
      expect(error?.message).to.not.contain('undefined:');
      expect(logs.said('feed broker connection error; reconnecting')[0]?.error).to.match(/^ACCESS_REFUSED/);
    } finally {
      await disposeContainer(container);
    }
  });

  it('waits for a broker it cannot reach (it may be starting) up to the connect timeout, then refuses to start, naming the last error', async () => {
    const container = await buildContainer({ profile: 'memory', config: { store: 'memory' } });
    const { url, proxy } = await relayToBroker();
    proxy.cut();
    try {
      const config = loadConfig({ FEED_URL: url, FEED_QUEUE: `test.feed.${process.pid}.${randomBytes(4).toString('hex')}` });
      const error = await startFeedConsumer(container, config, capturedLogger().logger, { connectTimeoutMs: 1_500 }).then(() => null, (e: unknown) => e as Error);
      expect(error?.message).to.match(/^cannot reach the broker at FEED_URL \(amqp:\/\/guest:\*\*\*@127\.0\.0\.1:\d+\) within 1500 ms: .+; the last error: /);
    } finally {
      await proxy.close();
      await disposeContainer(container);
    }
  });

  it('declares the topology, consumes, purges the ledger at start, and stops', async () => {
    const container = await buildContainer({ profile: 'memory', config: { store: 'memory' } });
    const queue = `test.feed.${process.pid}.${randomBytes(4).toString('hex')}`;
    const config = { ...loadConfig({ FEED_URL: AMQP_URL, FEED_QUEUE: queue, FEED_RETRY_DELAYS_MS: '50,100', FEED_PREFETCH: '4' }) };
    const logs = capturedLogger();
    const handler = new ScriptedHandler(() => applied());
    const running = await startFeedConsumer(container, config, logs.logger, { handler });
    const connection = new Connection(AMQP_URL);
    connection.on('error', () => undefined);
    try {
      expect(running.consuming).to.equal(true);
      expect(running.notConsumingBecause).to.equal(null);
      expect(running.topology.retryQueues.map((retry) => retry.queue)).to.deep.equal([`${queue}.retry.50`, `${queue}.retry.100`]);
      for (const name of [queue, `${queue}.dead`, `${queue}.retry.50`, `${queue}.retry.100`]) await connection.queueDeclare({ queue: name, passive: true });
      const publisher = connection.createPublisher({ confirm: true });
      await publisher.send({ routingKey: queue, contentType: 'application/cloudevents+json' }, Buffer.from('{"hello":1}'));
      await publisher.close();
      await until('the take', () => handler.takes.length === 1);
      await until('the purge at start', () => logs.said('feed records purged').length === 1);
      expect(logs.said('feed records purged')[0]).to.include({ retentionDays: 7 });
      await running.stop();
      expect(running.consuming).to.equal(false);
      expect(running.notConsumingBecause).to.match(/stopping/);
      expect((await connection.queueDeclare({ queue, passive: true })).messageCount).to.equal(0);
    } finally {
      await running.stop();
      await deleteFeedTopology(connection, running.topology);
      await connection.close();
      await disposeContainer(container);
    }
  });

  it('at stop, takes no more messages at once, even while a purge of the ledger runs, and ends after the purge', async () => {
    const container = await buildContainer({ profile: 'memory', config: { store: 'memory' } });
    // A purge of a large ledger (minutes of chunks) stands in: it ends when the test says so.
    let endPurge!: () => void;
    const purgeEnded = new Promise<void>((resolve) => (endPurge = resolve));
    let purges = 0;
    const purge = {
      execute: async () => {
        purges++;
        await purgeEnded;
        return { events: 0, tombstones: 0 };
      },
    };
    container.rebind(USE_CASES.purgeFeedRecords).toConstantValue(purge as unknown as PurgeFeedRecords);
    const queue = `test.feed.${process.pid}.${randomBytes(4).toString('hex')}`;
    const config = loadConfig({ FEED_URL: AMQP_URL, FEED_QUEUE: queue, FEED_RETRY_DELAYS_MS: '50' });
    const handler = new ScriptedHandler(() => applied());
    const running = await startFeedConsumer(container, config, capturedLogger().logger, { handler });
    const connection = new Connection(AMQP_URL);
    connection.on('error', () => undefined);
    try {
      await until('the purge at start running', () => purges === 1);
      let stopped = false;
      const stopping = running.stop().then(() => (stopped = true));
      // The broker no longer lists the consumer while the purge still runs: nothing more is taken.
      await until('no consumer on the queue', async () => (await connection.queueDeclare({ queue, passive: true })).consumerCount === 0);
      expect(running.consuming).to.equal(false);
      expect(running.notConsumingBecause).to.match(/stopping/);
      expect(stopped, 'the stop waits for the purge').to.equal(false);
      endPurge();
      await stopping;
      expect(purges).to.equal(1);
    } finally {
      endPurge();
      await running.stop();
      await deleteFeedTopology(connection, running.topology);
      await connection.close();
      await disposeContainer(container);
    }
  });

  it('stops at once while the broker is out of reach; what was taken and not acknowledged waits for the next consumer', async function () {
    // The client's consumer, reconnecting, waits up to 20 s for a connection: a stop that did not close the
    // connection first would wait that out.
    this.timeout(15_000);
    const container = await buildContainer({ profile: 'memory', config: { store: 'memory' } });
    const { url, proxy } = await relayToBroker();
    const queue = `test.feed.${process.pid}.${randomBytes(4).toString('hex')}`;
    const config = loadConfig({ FEED_URL: url, FEED_QUEUE: queue, FEED_RETRY_DELAYS_MS: '50' });
    const logs = capturedLogger();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const handler = new ScriptedHandler(async () => {
      await released;
      return applied();
    });
    const running = await startFeedConsumer(container, config, logs.logger, { handler });
    const connection = new Connection(AMQP_URL);
    connection.on('error', () => undefined);
    try {
      const publisher = connection.createPublisher({ confirm: true });
      await publisher.send({ routingKey: queue, contentType: 'application/cloudevents+json' }, Buffer.from('{"slow":1}'));
      await publisher.close();
      await until('the take', () => handler.takes.length === 1);
      proxy.cut();
      await until('the loss said', () => logs.said('feed broker connection error; reconnecting').length === 1);
      // Its acknowledgement cannot reach the broker.
      release();
      // Past the consumer's first retry (1 to 2 s): its reconnection now waits on the connection.
      await sleep(2_500);
      await running.stop();
      expect(running.consuming).to.equal(false);
      expect((await connection.queueDeclare({ queue, passive: true })).messageCount, 'the message never acknowledged').to.equal(1);
    } finally {
      release();
      await running.stop();
      await deleteFeedTopology(connection, running.topology);
      await connection.close();
      await proxy.close();
      await disposeContainer(container);
    }
  });

  it('applies at most DB_POOL_MAX batches at once, of all companies, as npm run feed wires its handler', async () => {
    const container = await buildContainer({ profile: 'memory', config: { store: 'memory' } });
    // The use case stands in, so that the test sees how many batches the handler runs at once.
    let applying = 0;
    let most = 0;
    let applied = 0;
    const apply = {
      executeAll: async (commands: readonly unknown[]) => {
        applying++;
        most = Math.max(most, applying);
        await sleep(100);
        applying--;
        applied += commands.length;
        return commands.map(() => ({ value: 'applied' as const }));
      },
    };
    container.rebind(USE_CASES.applyPlatformEvent).toConstantValue(apply as unknown as ApplyPlatformEvent);
    const queue = `test.feed.${process.pid}.${randomBytes(4).toString('hex')}`;
    const config = loadConfig({ FEED_URL: AMQP_URL, FEED_QUEUE: queue, FEED_PREFETCH: '16', DB_POOL_MAX: '2' });
    const running = await startFeedConsumer(container, config, capturedLogger().logger);
    const connection = new Connection(AMQP_URL);
    connection.on('error', () => undefined);
    try {
      const publisher = connection.createPublisher({ confirm: true });
      for (let company = 1; company <= 6; company++) {
        const event = eventsOf(`co-${company}`).candidateMoved('card-1', 1, 'NEW');
        await publisher.send({ routingKey: queue, contentType: 'application/cloudevents+json' }, Buffer.from(JSON.stringify(event)));
      }
      await publisher.close();
      await until('every event applied', () => applied === 6);
      expect(most, 'six companies, two batches at a time').to.equal(2);
    } finally {
      await running.stop();
      await deleteFeedTopology(connection, running.topology);
      await connection.close();
      await disposeContainer(container);
    }
  });

  it('declares the same topology as another consumer starting at the same moment', async () => {
    const topology = feedTopology(`test.feed.${process.pid}.${randomBytes(4).toString('hex')}`, [50, 100]);
    const connections = [new Connection(AMQP_URL), new Connection(AMQP_URL)];
    for (const connection of connections) connection.on('error', () => undefined);
    try {
      await Promise.all(connections.map((connection) => declareFeedTopology(connection, topology)));
      const consumers = connections.map(
        (connection) =>
          new FeedConsumer({ connection, topology, handler: new ScriptedHandler(() => applied()), prefetch: 2, readiness: async () => true, logger: capturedLogger().logger }),
      );
      await Promise.all(consumers.map((consumer) => consumer.start()));
      expect(consumers.every((consumer) => consumer.consuming)).to.equal(true);
      await Promise.all(consumers.map((consumer) => consumer.stop()));
    } finally {
      await deleteFeedTopology(connections[0] as Connection, topology);
      for (const connection of connections) await connection.close();
    }
  });
});
