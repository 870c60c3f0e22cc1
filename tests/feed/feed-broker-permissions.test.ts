import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { Connection } from 'rabbitmq-client';
import type { FeedDecision, FeedMessage } from '../../adapters/feed/platform-event-handler.js';
import { loadConfig } from '../../infrastructure/config.js';
import { buildContainer, disposeContainer } from '../../infrastructure/container/build-container.js';
import { startFeedConsumer, type RunningFeedConsumer } from '../../infrastructure/feed/start-feed-consumer.js';
import { createLogger } from '../../infrastructure/logger.js';
import { shellExamplesOf } from '../docs/support/shell-examples.js';
import { AMQP_URL, eventually, requireBroker } from './support/feed-world.js';

const run = promisify(execFile);
const DOCUMENT = fileURLToPath(new URL('../../docs/feed-broker.md', import.meta.url));

/** The document's `rabbitmqctl` lines, its names (the shell variables it sets first) replaced by the test's. */
function permissionScript(names: Record<'vhost' | 'queue' | 'platform_user' | 'feed_user', string>): string {
  const example = shellExamplesOf(DOCUMENT).find((candidate) => candidate.script.includes('set_permissions'));
  if (example === undefined) throw new Error(`${DOCUMENT} has no shell example that sets permissions`);
  const replaced = new Set<string>();
  const script = example.script.replace(/^(vhost|queue|platform_user|feed_user)=.*$/gm, (_line, name: keyof typeof names) => {
    replaced.add(name);
    return `${name}='${names[name]}'`;
  });
  expect([...replaced].sort(), 'the names the example sets').to.deep.equal(Object.keys(names).sort());
  return script;
}

async function rabbitmqctl(...args: string[]): Promise<void> {
  await run('rabbitmqctl', args, { timeout: 60_000 });
}

/** Fails at once, saying what to do, when rabbitmqctl cannot reach the machine's broker (the permissions need it). */
async function requireRabbitmqctl(): Promise<void> {
  await rabbitmqctl('list_vhosts').catch((error: unknown) => {
    throw new Error(`This test sets a virtual host's permissions with rabbitmqctl, which failed (run it where the broker runs, as a user that may administer it): ${(error as Error).message}`);
  });
}

/** The broker's code for what a connection was refused, or 'allowed'. */
async function outcome(action: () => Promise<unknown>): Promise<string> {
  try {
    await action();
    return 'allowed';
  } catch (error) {
    return String((error as { code?: unknown }).code);
  }
}

describe('The feed broker permissions of docs/feed-broker.md (a virtual host and users of the test\'s own)', function () {
  this.timeout(180_000);
  const tag = `${process.pid}-${randomBytes(3).toString('hex')}`;
  const vhost = `test-feed-${tag}`;
  const queue = `test.feed.permissions.${tag}`;
  const platform = { user: `test-platform-${tag}`, password: randomBytes(12).toString('hex') };
  const feed = { user: `test-feed-consumer-${tag}`, password: randomBytes(12).toString('hex') };
  const urlOf = (who: { user: string; password: string }) => {
    const url = new URL(AMQP_URL);
    url.username = who.user;
    url.password = who.password;
    url.pathname = `/${encodeURIComponent(vhost)}`;
    return url.toString();
  };
  const opened: Connection[] = [];
  const connect = (url: string) => {
    const connection = new Connection({ url, retryLow: 100, retryHigh: 200 });
    connection.on('error', () => undefined);
    opened.push(connection);
    return connection;
  };

  before(async () => {
    await requireBroker();
    await requireRabbitmqctl();
    const script = permissionScript({ vhost, queue: queue.replaceAll('.', '\\.'), platform_user: platform.user, feed_user: feed.user });
    await run('sh', ['-euc', script], { env: { ...process.env, PLATFORM_PASSWORD: platform.password, FEED_PASSWORD: feed.password }, timeout: 120_000 });
  });
  after(async () => {
    for (const connection of opened) await connection.close().catch(() => undefined);
    await rabbitmqctl('delete_vhost', vhost).catch(() => undefined);
    for (const user of [platform.user, feed.user]) await rabbitmqctl('delete_user', user).catch(() => undefined);
  });

  it('lets the consumer declare, take, retry and dead-letter; the platform only publish; nobody else in', async () => {
    const takes: { body: string; attempt: number }[] = [];
    const handler = {
      async handle(message: FeedMessage): Promise<FeedDecision> {
        const body = Buffer.isBuffer(message.body) ? message.body.toString('utf8') : message.body;
        takes.push({ body, attempt: message.attempt });
        const event = { id: body, type: 'candidate.moved', companyId: 'company-1', source: 'permissions-test' };
        if (body === 'poison') return { action: 'dead', reason: 'invalid_json', detail: 'the body is not JSON', event: {} };
        if (message.attempt === 0) return { action: 'retry', reason: 'not_yet_applicable', detail: 'not yet', event };
        return { action: 'ack', outcome: 'applied', event, time: null };
      },
    };
    const container = await buildContainer({ profile: 'memory', config: { store: 'memory' } });
    const config = loadConfig({ FEED_URL: urlOf(feed), FEED_QUEUE: queue, FEED_RETRY_DELAYS_MS: '50', FEED_PREFETCH: '4' });
    let consumer: RunningFeedConsumer | undefined;
    try {
      // The consumer's user declares the whole topology: its queues, the dead-letter exchange and binding.
      consumer = await startFeedConsumer(container, config, createLogger('silent'), { handler, connectTimeoutMs: 10_000 });

      const asPlatform = connect(urlOf(platform));
      const publisher = asPlatform.createPublisher({ confirm: true });
      for (const body of ['retry-me', 'poison']) await publisher.send({ routingKey: queue, contentType: 'application/cloudevents+json', durable: true }, Buffer.from(body));
      await publisher.close();
      await eventually(async () => takes, (seen) => seen.some((take) => take.body === 'retry-me' && take.attempt === 1) && seen.some((take) => take.body === 'poison'), 15_000, 'the retry come back and the poison taken');
      const asFeed = connect(urlOf(feed));
      await eventually(async () => (await asFeed.queueDeclare({ queue: `${queue}.dead`, passive: true })).messageCount, (count) => count === 1, 10_000, 'the dead letter');

      // The platform publishes and does nothing else: it reads no queue and declares none.
      expect(await outcome(() => connect(urlOf(platform)).basicGet({ queue, noAck: true }))).to.equal('ACCESS_REFUSED');
      expect(await outcome(() => connect(urlOf(platform)).queueDeclare({ queue: `${queue}.other`, durable: true }))).to.equal('ACCESS_REFUSED');
      // The consumer declares nothing but the feed's own.
      expect(await outcome(() => connect(urlOf(feed)).queueDeclare({ queue: `another.${tag}`, durable: true }))).to.equal('ACCESS_REFUSED');
      expect(await outcome(() => connect(urlOf(feed)).exchangeDeclare({ exchange: `${queue}.other`, type: 'fanout' }))).to.equal('ACCESS_REFUSED');
      // Any other user of the broker (the test's own guest) cannot even open the virtual host.
      const stranger = new Connection({ url: Object.assign(new URL(AMQP_URL), { pathname: `/${encodeURIComponent(vhost)}` }).toString(), retryLow: 100 });
      opened.push(stranger);
      const refused = await new Promise<string>((done) => {
        stranger.once('error', (error: unknown) => done(String((error as { code?: unknown }).code)));
        stranger.once('connection', () => done('allowed'));
      });
      expect(refused).to.equal('NOT_ALLOWED');
      await consumer.stop();
      expect(takes.map((take) => `${take.body}@${take.attempt}`).sort()).to.deep.equal(['poison@0', 'retry-me@0', 'retry-me@1']);
    } finally {
      await consumer?.stop();
      await disposeContainer(container);
    }
  });
});
