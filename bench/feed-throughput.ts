import { loadavg } from 'node:os';
import pg from 'pg';
import { cpuSnapshot, cpuUse, type CpuUse } from './feed-cpu.js';
import type { BenchQueue } from './feed-broker.js';
import type { FeedEvent } from './feed-events.js';
import type { ConsumerProcess } from './feed-process.js';
import { ProgressBar } from './progress.js';

export interface ThroughputFigures {
  readonly consumer: string;
  readonly events: number;
  /** From the broker listing the consumer to the last event recorded in feed_applied_events. */
  readonly seconds: number;
  readonly eventsPerSecond: number;
  /** Between 10% and 90% of the events taken off the queue: without the start and the last prefetch window. */
  readonly steadyEventsPerSecond: number | null;
  /** Every event recorded (none left waiting, dead or unaccounted for). */
  readonly drained: boolean;
  readonly recorded: number;
  /** Left in `<queue>.dead` and in the retry queues at the end: 0 when every event applied at its first take. */
  readonly deadLettered: number;
  readonly retrying: number;
  /** CPU milliseconds of the consumer's process (user + system) per event recorded. */
  readonly consumerCpuMsPerEvent: number | null;
  /** CPU milliseconds per event recorded of the bench database's PostgreSQL backends. */
  readonly databaseCpuMsPerEvent: number | null;
  /** Who used the two cores during the run (feed-cpu.ts), and how busy they were. */
  readonly cpu: CpuUse | null;
  /** The machine's 1-minute load average when the run began: other work on a shared machine shows here. */
  readonly loadAverageAtStart: number;
  readonly exitCode: number | null;
}

/** No progress (nothing taken off the queue, nothing recorded) for this long ends the wait: the run did not drain. */
const STALL_MS = 20_000;
const POLL_MS = 25;

export async function recordedEvents(db: pg.Client): Promise<number> {
  return Number((await db.query<{ n: string }>('select count(*) as n from feed_applied_events')).rows[0]?.n ?? 0);
}

/**
 * One throughput run: the events are published first (confirmed), then the consumer is started; the run is
 * timed from the moment the broker lists the consumer until the queue is empty and every event has its row in
 * feed_applied_events (counted once the queue is empty, every 25 ms). The queue's depth, polled meanwhile,
 * draws the progress and gives the steady rate.
 */
export async function throughputRun(
  name: string,
  events: readonly FeedEvent[],
  queue: BenchQueue,
  db: pg.Client,
  start: () => Promise<ConsumerProcess>,
): Promise<ThroughputFigures> {
  const database = (await db.query<{ name: string }>('select current_database() as name')).rows[0]?.name as string;
  const total = events.length;
  const baseline = await recordedEvents(db);
  await queue.prePublish(events, `${name}: publish`);
  const waiting = (await queue.state()).ready;
  if (waiting !== total) throw new Error(`${total} events published, ${waiting} in ${queue.name}`);
  const loadAverageAtStart = Math.round((loadavg()[0] as number) * 100) / 100;
  const consumer = await start();
  const started = performance.now();
  const roles = { consumerPid: consumer.pid, database };
  const cpuBefore = cpuSnapshot(roles);
  const progress = new ProgressBar(`${name}: apply`, total, 'events');
  let recorded = 0;
  let lastChange = started;
  let lastSeen = -1;
  let at10: number | null = null;
  let at90: number | null = null;
  let finished: number | null = null;
  for (;;) {
    const now = performance.now();
    const { ready } = await queue.state();
    const taken = total - ready;
    if (at10 === null && taken >= total * 0.1) at10 = now;
    if (at90 === null && taken >= total * 0.9) at90 = now;
    if (ready === 0) recorded = (await recordedEvents(db)) - baseline;
    progress.set(ready === 0 ? recorded : taken);
    if (recorded >= total) {
      finished = performance.now();
      break;
    }
    const seen = taken + recorded;
    if (seen !== lastSeen) {
      lastSeen = seen;
      lastChange = now;
    } else if (now - lastChange > STALL_MS) {
      break;
    }
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
  const end = finished ?? performance.now();
  const cpu = cpuUse(cpuBefore, cpuSnapshot(roles));
  const setAside = await queue.setAside();
  const exitCode = await consumer.stop();
  const seconds = (end - started) / 1000;
  progress.finish(finished === null ? `NOT DRAINED: ${recorded} of ${total} recorded` : `${Math.round(total / seconds)} events/s`);
  if (finished === null) {
    // The next runs' events depend on these: the bench cannot go on.
    throw new Error(
      `${name}: nothing moved for ${STALL_MS / 1000} s with ${recorded} of ${total} events recorded, ${(await queue.state()).ready} waiting, ` +
        `${setAside.dead} dead-lettered, ${setAside.retrying} waiting to be retried; the consumer exited with ${exitCode} (its output is above)`,
    );
  }
  const perEvent = (role: string) => {
    const seconds = cpu?.secondsByRole[role];
    return seconds === undefined || recorded === 0 ? null : round((seconds * 1000) / recorded, 3);
  };
  return {
    consumer: name,
    events: total,
    seconds: round(seconds, 2),
    eventsPerSecond: round(recorded / seconds, 0),
    steadyEventsPerSecond: at10 === null || at90 === null || at90 <= at10 ? null : round((total * 0.8) / ((at90 - at10) / 1000), 0),
    drained: finished !== null,
    recorded,
    deadLettered: setAside.dead,
    retrying: setAside.retrying,
    consumerCpuMsPerEvent: perEvent('consumer'),
    databaseCpuMsPerEvent: perEvent('postgres: bench database backends'),
    cpu,
    loadAverageAtStart,
    exitCode,
  };
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
