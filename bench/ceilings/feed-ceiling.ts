import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { Connection, type AsyncMessage } from 'rabbitmq-client';
import { answerHelp } from '../../infrastructure/process-arguments.js';
import { applyEvent, NotYet, type CeilingEvent } from './feed-ceiling-apply.js';

/**
 * The feed benchmark's in-run ceiling: what one would write instead of the service to mirror the platform's
 * feed into these tables. A rabbitmq-client consumer with the service's prefetch (as many events at once), each
 * event applied in a transaction of its own on a pg pool of the service's size (feed-ceiling-apply.ts), then
 * acknowledged; one that fails is counted and given back to the queue.
 *
 * Env: FEED_URL, FEED_QUEUE, DATABASE_URL, FEED_PREFETCH (256), DB_POOL_MAX (10), STATS_FILE (written at
 * SIGTERM: events by type and outcome).
 */
answerHelp(
  process.argv.slice(2),
  'bench/ceilings/feed-ceiling.ts',
  `Usage: FEED_URL=amqp://... FEED_QUEUE=NAME DATABASE_URL=postgres://... npx tsx bench/ceilings/feed-ceiling.ts

The feed benchmark's in-run ceiling (npm run bench:feed starts it): a rabbitmq-client consumer that applies each
event in a transaction of its own with plain versioned SQL (bench/ceilings/feed-ceiling-apply.ts: per entity
and aspect the highest entityversion wins, a deletion leaves a tombstone) and acknowledges it after the commit.
Other settings: FEED_PREFETCH (256), DB_POOL_MAX (10), STATS_FILE (events by type and outcome, written at
SIGTERM). Settings are environment variables only.`,
);
const url = required('FEED_URL');
const queue = required('FEED_QUEUE');
const prefetch = Number(process.env.FEED_PREFETCH ?? 256);
const pool = new pg.Pool({ connectionString: required('DATABASE_URL'), max: Number(process.env.DB_POOL_MAX ?? 10) });
pool.on('error', (error) => process.stderr.write(`feed ceiling: idle connection: ${error.message}\n`));

const stats: Record<string, Record<string, number>> = {};
const count = (type: string, outcome: string) => {
  const byOutcome = (stats[type] ??= {});
  byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1;
};

async function take(message: AsyncMessage): Promise<void> {
  const raw = Buffer.isBuffer(message.body) ? message.body.toString('utf8') : JSON.stringify(message.body);
  const event = JSON.parse(raw) as CeilingEvent;
  try {
    count(event.type, await applyEvent(pool, event));
  } catch (error) {
    // Counted and given back to the queue (the service would retry it after a delay); the bench's events never
    // get here.
    count(event.type, error instanceof NotYet ? 'not_yet_applicable' : 'failed');
    process.stderr.write(`feed ceiling: ${event.type} ${event.id}: ${error instanceof Error ? error.message : String(error)}\n`);
    throw error;
  }
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const rabbit = new Connection({ url, connectionName: `feed-ceiling ${process.pid}` });
const consumer = rabbit.createConsumer({ queue, queueOptions: { passive: true }, qos: { prefetchCount: prefetch }, concurrency: prefetch, requeue: true }, take);
consumer.on('error', (error: unknown) => process.stderr.write(`feed ceiling: consumer: ${String(error)}\n`));

process.once('SIGTERM', () => {
  void (async () => {
    await consumer.close();
    await rabbit.close();
    await pool.end();
    if (process.env.STATS_FILE) writeFileSync(process.env.STATS_FILE, JSON.stringify(stats));
    process.exit(0);
  })();
});
