import { expect } from 'chai';
import { OwnPostgres } from '../faults/support/own-postgres.js';
import type { FeedProcess } from './support/feed-process.js';
import { eventually, FeedWorld } from './support/feed-world.js';
import { eventsOf } from './support/platform-events.js';

/** The feed process's GET /readyz: its status and the detail of a 503. */
async function readiness(consumer: FeedProcess): Promise<{ status: number; detail?: string }> {
  const started = consumer.logs().find((line) => line.msg === 'feed consumer started') as { metrics: string };
  const response = await fetch(new URL('/readyz', started.metrics));
  const body = (await response.json()) as { detail?: string };
  return { status: response.status, ...(body.detail === undefined ? {} : { detail: body.detail }) };
}

describe('The feed process\'s GET /readyz while its PostgreSQL goes away with no traffic (a cluster the test owns)', function () {
  this.timeout(180_000);
  let postgres: OwnPostgres | undefined;
  let world: FeedWorld | undefined;

  before(async function () {
    postgres = await OwnPostgres.create();
    world = await FeedWorld.create({ databaseUrl: postgres.url });
  });
  after(async () => {
    await world?.close();
    await postgres?.destroy();
  });

  it('answers 503 within 5 s of the database stopping, and 200 again, consuming, once it is back', async () => {
    const w = world as FeedWorld;
    const consumer = await w.startConsumer({ METRICS: 'on', METRICS_PORT: '0' });
    const { companyId, key } = await w.company();
    await eventually(() => readiness(consumer), (r) => r.status === 200, 10_000, 'ready at start');

    // No message is in flight or published while the database is away: only a check of its own can notice.
    await postgres!.stop();
    const stoppedAt = Date.now();
    const notReady = await eventually(() => readiness(consumer), (r) => r.status === 503, 10_000, '503 after the stop');
    const noticedInMs = Date.now() - stoppedAt;
    expect(noticedInMs, `503 came ${noticedInMs} ms after the stop`).to.be.below(5_000);
    expect(notReady.detail).to.match(/paused: the database does not answer/);
    expect(consumer.logs().find((l) => /paus/i.test(String(l.msg)))).to.include({ noticedBy: 'the readiness check' });

    await postgres!.start();
    await eventually(() => readiness(consumer), (r) => r.status === 200, 30_000, 'ready again');
    const event = eventsOf(companyId).vacancyUpserted('after-the-outage', 1);
    await w.publish(event);
    await eventually(() => w.vacancies(key).catch(() => []), (v) => v.some((vacancy) => vacancy.id === 'after-the-outage'), 30_000, 'the event after the outage');
    expect(await w.depth(w.topology.deadQueue)).to.equal(0);
    expect(consumer.output()).not.to.match(/"level":(50|60)/);
  });
});
