import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Connection } from 'rabbitmq-client';
import { EVENT_MAX_BYTES } from '../adapters/feed/feed-limits.js';
import { processMemoryMb } from './proc.js';
import { declareFeedTopology, deleteFeedTopology, feedTopology } from '../infrastructure/feed/feed-topology.js';

const USAGE = `Usage: npx tsx bench/feed-held-memory.ts [--prefetch 8,32] [--amqp-url URL]

What a feed consumer's memory comes to when every message is of the largest size (docs/feed-broker.md): for
each prefetch, starts \`npm run feed\` (STORE=memory, FEED_MAX_HELD_BYTES = prefetch x ${EVENT_MAX_BYTES}), publishes
three prefetch windows of bodies of ${EVENT_MAX_BYTES - 1024} bytes before it starts (JSON that the consumer parses
whole, then sets aside as not an event), and prints the process's peak resident memory (VmHWM, Linux) against
that of the same consumer started on an empty queue, and against the bodies' budget. Needs RabbitMQ (TEST_AMQP_URL, default amqp://guest:guest@127.0.0.1:5672) whose
max_message_size lets such a body through (RabbitMQ's default does).
`;

const MiB = 1024 * 1024;

interface Figures {
  readonly prefetch: number;
  readonly budgetMiB: number;
  readonly rssBeforeMiB: number;
  readonly rssPeakMiB: number;
}

/** A body of `bytes` that is JSON, parsed whole by the consumer, and no event (refused after parsing). */
function largeBody(bytes: number): Buffer {
  const head = '{"specversion":"1.0","padding":"';
  const tail = '"}';
  return Buffer.from(head + 'x'.repeat(bytes - head.length - tail.length) + tail);
}

/** `npm run feed` on the queue, resolved once the broker lists it as the queue's consumer. */
async function startFeed(connection: Connection, amqpUrl: string, queue: string, prefetch: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infrastructure/feed-main.ts'], {
    env: {
      ...process.env, STORE: 'memory', LOG_LEVEL: 'warn', FEED_URL: amqpUrl, FEED_QUEUE: queue, FEED_RETRY_DELAYS_MS: '1000',
      FEED_PREFETCH: String(prefetch), FEED_MAX_HELD_BYTES: String(prefetch * EVENT_MAX_BYTES), METRICS: 'off',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((done) => child.once('exit', done));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 60_000;
  while ((await connection.queueDeclare({ queue, passive: true })).consumerCount === 0) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the consumer did not start (exit ${child.exitCode})`);
    }
    await new Promise((wake) => setTimeout(wake, 20));
  }
  return { pid: child.pid as number, stop };
}

/**
 * Two consumers of the same settings: one on an empty queue (its memory once started), one started on three
 * prefetch windows of the largest bodies published beforehand, which the broker sends it a window at a time.
 */
async function measure(amqpUrl: string, prefetch: number): Promise<Figures> {
  const queue = `bench.feed-memory.${process.pid}.${randomBytes(3).toString('hex')}`;
  const topology = feedTopology(queue, [1000]);
  const connection = new Connection({ url: amqpUrl, connectionName: 'bench feed-held-memory' });
  connection.on('error', () => undefined);
  await declareFeedTopology(connection, topology);
  try {
    const idle = await startFeed(connection, amqpUrl, queue, prefetch);
    await new Promise((wake) => setTimeout(wake, 2_000));
    const rssBeforeMiB = processMemoryMb(idle.pid, 'VmHWM');
    await idle.stop();
    const publisher = connection.createPublisher({ confirm: true });
    const body = largeBody(EVENT_MAX_BYTES - 1024);
    const total = 3 * prefetch;
    for (let i = 0; i < total; i++) await publisher.send({ routingKey: queue, contentType: 'application/cloudevents+json', messageId: `big-${i}` }, body);
    await publisher.close();
    const busy = await startFeed(connection, amqpUrl, queue, prefetch);
    try {
      while ((await connection.queueDeclare({ queue: topology.deadQueue, passive: true })).messageCount < total) await new Promise((wake) => setTimeout(wake, 100));
      return { prefetch, budgetMiB: (prefetch * EVENT_MAX_BYTES) / MiB, rssBeforeMiB, rssPeakMiB: processMemoryMb(busy.pid, 'VmHWM') };
    } finally {
      await busy.stop();
    }
  } finally {
    await deleteFeedTopology(connection, topology).catch(() => undefined);
    await connection.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { prefetch: { type: 'string' }, 'amqp-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help === true) {
    process.stdout.write(USAGE);
    return;
  }
  const prefetches = (values.prefetch ?? '8,32').split(',').map(Number);
  if (!prefetches.every((n) => Number.isInteger(n) && n >= 1 && n <= 1000)) throw new Error('--prefetch takes whole numbers from 1 to 1000, separated by commas');
  const amqpUrl = values['amqp-url'] ?? process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const fixed = (n: number) => n.toFixed(0).padStart(8);
  process.stdout.write('prefetch  bodies MiB  RSS idle  RSS peak  peak - idle  (peak - idle) / bodies\n');
  for (const prefetch of prefetches) {
    const f = await measure(amqpUrl, prefetch);
    const growth = f.rssPeakMiB - f.rssBeforeMiB;
    process.stdout.write(`${String(f.prefetch).padStart(8)}  ${fixed(f.budgetMiB)}   ${fixed(f.rssBeforeMiB)}  ${fixed(f.rssPeakMiB)}  ${fixed(growth)}       ${(growth / f.budgetMiB).toFixed(2)}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`feed-held-memory: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
