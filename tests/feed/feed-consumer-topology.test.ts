import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { Connection, type Publisher, type SyncMessage } from 'rabbitmq-client';
import {
  declareFeedTopology,
  deleteFeedTopology,
  DELIVERY_LIMIT,
  feedTopology,
  mainQueueDeclaration,
  retryQueueDeclaration,
  type FeedTopology,
} from '../../infrastructure/feed/feed-topology.js';

const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

describe("The feed's topology on the broker (real RabbitMQ)", function () {
  let connection: Connection;
  let publisher: Publisher;
  let topology: FeedTopology;

  beforeEach(async () => {
    connection = new Connection({ url: AMQP_URL, connectionName: 'feed topology test' });
    connection.on('error', () => undefined);
    publisher = connection.createPublisher({ confirm: true });
    topology = feedTopology(`test.feed-topology.${process.pid}.${randomBytes(4).toString('hex')}`, [200, 400]);
    await declareFeedTopology(connection, topology);
  });

  afterEach(async () => {
    await publisher.close();
    await deleteFeedTopology(connection, topology);
    await connection.close();
  });

  /** The first message of a queue, taken off it, once there is one. */
  async function next(queue: string, timeoutMs = 10_000): Promise<SyncMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const message = await connection.basicGet({ queue, noAck: true });
      if (message !== undefined) return message;
      if (Date.now() > deadline) throw new Error(`nothing arrived in ${queue}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('sends a copy published to a retry queue back to the main queue once its delay is over', async () => {
    const retry = topology.retryQueues[1] as FeedTopology['retryQueues'][number];
    const sent = Date.now();
    await publisher.send({ routingKey: retry.queue, durable: true, messageId: 'evt-1', headers: { 'x-feed-attempt': 1 } }, Buffer.from('{"n":1}'));
    const back = await next(topology.queue);
    expect(Date.now() - sent).to.be.at.least(retry.delayMs - 5);
    expect(back).to.include({ messageId: 'evt-1' });
    expect(back.headers).to.include({ 'x-feed-attempt': 1, 'x-first-death-reason': 'expired', 'x-first-death-queue': retry.queue });
    expect(Buffer.from(back.body as Buffer).toString('utf8')).to.equal('{"n":1}');
  });

  it('sets a message redelivered past the delivery limit aside in <queue>.dead', async () => {
    await publisher.send({ routingKey: topology.queue, durable: true, messageId: 'evt-poison' }, Buffer.from('{"n":2}'));
    const channel = await connection.acquire();
    let deliveries = 0;
    try {
      for (let message = await channel.basicGet({ queue: topology.queue }); message !== undefined; message = await channel.basicGet({ queue: topology.queue })) {
        deliveries++;
        channel.basicNack({ deliveryTag: message.deliveryTag, requeue: true });
      }
    } finally {
      await channel.close();
    }
    const dead = await next(topology.deadQueue);
    expect(deliveries).to.equal(DELIVERY_LIMIT + 1);
    expect(dead).to.include({ messageId: 'evt-poison' });
    expect(dead.headers).to.include({ 'x-first-death-reason': 'delivery_limit', 'x-first-death-queue': topology.queue });
  });

  // What the strategy guards against (a target that is missing or refuses) is retried by the broker only every
  // few minutes, too slow for a test: that the broker holds each queue to these arguments is checked instead.
  it('has every queue that dead-letters do it at least once, the retry queues being quorum queues', async () => {
    const declarations = [mainQueueDeclaration(topology), ...topology.retryQueues.map((retry) => retryQueueDeclaration(topology, retry))];
    const held = { 'x-queue-type': 'quorum', 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' };
    for (const declaration of declarations) {
      for (const [name, value] of Object.entries(held)) {
        // Declared again without it, the queue is refused if it has it, and only then.
        const without: Record<string, unknown> = { ...declaration.arguments };
        delete without[name];
        const refusal = await connection.queueDeclare({ ...declaration, arguments: without }).then(
          () => 'declared',
          (error: unknown) => (error as Error).message,
        );
        expect(refusal, `${declaration.queue} without ${name}`).to.contain(`PRECONDITION_FAILED - inequivalent arg '${name}'`).and.contain(`current is the value '${value}'`);
      }
    }
  });
});
