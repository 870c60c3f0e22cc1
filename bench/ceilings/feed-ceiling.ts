import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { Connection, type AsyncMessage } from 'rabbitmq-client';
import { answerHelp } from '../../infrastructure/process-arguments.js';
import { ceilingApplier, NotYet, type CeilingEvent } from './feed-ceiling-sql.js';

/**
 * The feed benchmark's in-run ceiling: a consumer of the same library (rabbitmq-client) with the same prefetch
 * and concurrency as the service's, taking each event to feed-ceiling-sql.ts (the service's SQL for its type,
 * without the framework) on a pg pool of the service's size, then acknowledging it; one that fails is counted
 * and given back to the queue.
 *
 * Env: FEED_URL, FEED_QUEUE, DATABASE_URL, FEED_PREFETCH (256, the service's default), DB_POOL_MAX (10), COMPANY_LANES (on: a
 * company's events one batch at a time in this process, those that queued meanwhile in one transaction, at most
 * DB_POOL_MAX batches at once, as the service's PlatformEventHandler), STATS_FILE (written
 * at SIGTERM: events by type and outcome).
 */
answerHelp(
  process.argv.slice(2),
  'bench/ceilings/feed-ceiling.ts',
  `Usage: FEED_URL=amqp://... FEED_QUEUE=NAME DATABASE_URL=postgres://... npx tsx bench/ceilings/feed-ceiling.ts

The feed benchmark's in-run ceiling (npm run bench:feed starts it): a rabbitmq-client consumer that applies each
event with the service's SQL for its type (bench/ceilings/feed-ceiling-sql.ts) and acknowledges it after the
commit. Other settings: FEED_PREFETCH (256), DB_POOL_MAX (10), COMPANY_LANES (on: a company's events one batch
at a time, as the service), STATS_FILE (events by type and outcome, written at SIGTERM). Settings are
environment variables only.`,
);
const url = required('FEED_URL');
const queue = required('FEED_QUEUE');
const prefetch = Number(process.env.FEED_PREFETCH ?? 256);
const poolMax = Number(process.env.DB_POOL_MAX ?? 10);
const pool = new pg.Pool({ connectionString: required('DATABASE_URL'), max: poolMax });
pool.on('error', (error) => process.stderr.write(`feed ceiling: idle connection: ${error.message}\n`));
const apply = ceilingApplier(pool, { lanes: (process.env.COMPANY_LANES ?? 'on') === 'on', places: poolMax });

const stats: Record<string, Record<string, number>> = {};
const count = (type: string, outcome: string) => {
  const byOutcome = (stats[type] ??= {});
  byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1;
};

async function take(message: AsyncMessage): Promise<void> {
  const raw = Buffer.isBuffer(message.body) ? message.body.toString('utf8') : JSON.stringify(message.body);
  const event = JSON.parse(raw) as CeilingEvent;
  try {
    count(event.type, await apply(event));
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
