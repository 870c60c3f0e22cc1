import { expect } from 'chai';
import { OwnPostgres } from '../faults/support/own-postgres.js';
import { eventually, FeedWorld } from './support/feed-world.js';
import { eventsOf } from './support/platform-events.js';

describe('The platform feed while its PostgreSQL stops and starts again (a cluster the test owns)', function () {
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

  it('loses nothing, dead-letters nothing, pauses while the database is away and resumes by itself', async () => {
    const w = world as FeedWorld;
    const consumer = await w.startConsumer({ FEED_PREFETCH: '8' });
    const { companyId, key } = await w.company();
    const e = eventsOf(companyId);
    await w.publish(...Array.from({ length: 10 }, (_, i) => e.vacancyUpserted(`before-${i}`, 1)));
    await eventually(() => w.vacancies(key), (v) => v.length === 10, 30_000, 'the first ten');

    await postgres!.stop();
    await w.publish(...Array.from({ length: 30 }, (_, i) => e.vacancyUpserted(`during-${i}`, 1)));
    await eventually(async () => consumer.logs(), (lines) => lines.some((l) => /paus/i.test(String(l.msg))), 30_000, 'a log line saying it paused');
    // Well past every retry delay: still nothing is dead-lettered for an outage.
    await new Promise((wake) => setTimeout(wake, 2_000));
    expect(await w.depth(w.topology.deadQueue)).to.equal(0);
    expect(consumer.child.exitCode, 'the consumer keeps running').to.equal(null);

    await postgres!.start();
    const vacancies = await eventually(() => w.vacancies(key).catch(() => []), (v) => v.length === 40, 60_000, 'all forty');
    expect(vacancies.filter((v) => String(v.id).startsWith('during-'))).to.have.length(30);
    expect(consumer.logs().some((l) => /resum/i.test(String(l.msg)))).to.equal(true);
    expect(await w.depth(w.topology.deadQueue)).to.equal(0);
    expect(consumer.output()).not.to.match(/"level":(50|60)/);
  });
});
