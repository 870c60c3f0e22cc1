import { expect } from 'chai';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { eventually, FeedWorld } from './support/feed-world.js';
import { eventsOf, type PlatformEvent } from './support/platform-events.js';

describe('The platform feed and a sync client (since + X-Sync-Watermark) at the same time (RabbitMQ, PostgreSQL)', function () {
  this.timeout(180_000);
  const database = usePostgresTestDatabase();
  let world: FeedWorld;

  before(async function () {
    world = await FeedWorld.create({ databaseUrl: database().businessUrl });
    // Two consumers taking many events at once: fed writes of the company commit in every order.
    await world.startConsumer({ FEED_PREFETCH: '32' });
    await world.startConsumer({ FEED_PREFETCH: '32' });
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      for (const consumer of world.consumers) process.stderr.write(consumer.output().split('\n').slice(-40).join('\n') + '\n');
    }
  });
  after(async () => {
    await world?.close();
  });

  it('misses no change: what the client merged from incremental passes equals a full read at the end', async () => {
    const { companyId, key } = await world.company();
    const e = eventsOf(companyId);
    const VACANCIES = 40;
    const VERSIONS = 12;
    const stream: PlatformEvent[] = [];
    for (let version = 1; version <= VERSIONS; version++) {
      for (let v = 0; v < VACANCIES; v++) stream.push(e.vacancyUpserted(`vac-${v}`, version, { title: `vac-${v} v${version}` }));
    }

    const seen = new Map<string, string>();
    let since: string | null = null;
    let passes = 0;
    const syncPass = async () => {
      const page = await world.list(key, 'vacancies', since === null ? '' : `since=${encodeURIComponent(since)}`);
      for (const vacancy of page.items) seen.set(vacancy.id as string, vacancy.title as string);
      since = page.watermark ?? since;
      passes++;
    };

    let publishing = true;
    const publisher = (async () => {
      for (let i = 0; i < stream.length; i += 20) {
        await world.publish(...stream.slice(i, i + 20));
        await new Promise((wake) => setTimeout(wake, 15));
      }
      publishing = false;
    })();
    while (publishing) await syncPass();
    await publisher;

    const final = await eventually(
      () => world.vacancies(key),
      (all) => all.length === VACANCIES && all.every((v) => String(v.title).endsWith(` v${VERSIONS}`)),
      60_000,
      'every vacancy at its last version',
    );
    await syncPass();
    expect(passes, 'the client synced while the feed wrote').to.be.greaterThan(3);
    expect(Object.fromEntries(seen)).to.deep.equal(Object.fromEntries(final.map((v) => [v.id, v.title])));
  });
});
