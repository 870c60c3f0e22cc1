import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePlatformEvent } from '../../adapters/feed/platform-event-parser.js';
import { PLATFORM_CHANGE_TYPES } from '../../application/use-cases/platform-change.js';
import { errorOf, jsonOf, runAdmin } from '../cli/support/run-admin.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { AMQP_URL, eventually, FeedWorld } from './support/feed-world.js';
import { eventsOf } from './support/platform-events.js';

/** The README's walk through the feed: `admin feed examples` for a company, published with `admin feed publish`. */
describe('admin feed examples, published and consumed (RabbitMQ, a consumer process, PostgreSQL, the public API)', function () {
  this.timeout(120_000);
  const database = usePostgresTestDatabase();
  let world: FeedWorld;
  let dir: string;
  const admin = (args: readonly string[]) =>
    runAdmin(args, { env: { FEED_URL: AMQP_URL, FEED_QUEUE: world.queue, FEED_RETRY_DELAYS_MS: world.consumerEnv().FEED_RETRY_DELAYS_MS as string, DATABASE_URL: database().businessUrl } });

  before(async function () {
    world = await FeedWorld.create({ databaseUrl: database().businessUrl });
    await world.startConsumer();
    dir = await mkdtemp(join(tmpdir(), 'feed-examples-'));
  });
  after(async () => {
    await world?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints an event of every type for the company, each one valid, which all apply at once in that order, and change nothing published again', async () => {
    const { companyId, key } = await world.company();
    const printed = await admin(['feed', 'examples', '--company', companyId]);
    expect(printed.status, printed.stderr).to.equal(0);
    const lines = printed.stdout.trimEnd().split('\n');
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(new Set(events.map((event) => event.type))).to.deep.equal(new Set(PLATFORM_CHANGE_TYPES));
    for (const line of lines) expect(parsePlatformEvent(line).ok, line).to.equal(true);
    expect(events.every((event) => event.companyid === companyId)).to.equal(true);
    const times = events.map((event) => Date.parse(String(event.time)));
    expect(times.every((time, i) => i === 0 || time > (times[i - 1] as number)), 'stamped in order').to.equal(true);

    const file = join(dir, 'events.jsonl');
    await writeFile(file, printed.stdout);
    expect(jsonOf(await admin(['feed', 'publish', '--file', file]))).to.deep.equal({ published: events.length, confirmed: events.length });
    // The first vacancy deleted last: the stream has applied to its end.
    const vacancies = await eventually(() => world.vacancies(key), (v) => v.length === 1 && v[0]?.id === 'vac-2026-0157', 20_000, 'the vacancy left');
    expect(vacancies[0]).to.include({ title: 'Бэкенд-разработчик (Go)' });
    const candidates = await world.candidates(key);
    // The card added, moved, transferred and updated was deleted; the application stays, without its deleted vacancy.
    expect(candidates.map((card) => [card.externalId, card.vacancyId])).to.deep.equal([['kiosk-2026-000381', null]]);
    expect(world.consumers[0]!.logs().filter((line) => typeof line.reason === 'string'), 'none retried or set aside').to.deep.equal([]);

    expect(jsonOf(await admin(['feed', 'publish', '--file', file]))).to.deep.equal({ published: events.length, confirmed: events.length });
    // Behind them, a vacancy of its own: once it shows, the consumer (one, taking a company's events in order) is past them.
    await world.publish(eventsOf(companyId).vacancyUpserted('vac-marker', 1));
    const after = await eventually(() => world.vacancies(key), (v) => v.some((vacancy) => vacancy.id === 'vac-marker'), 20_000, 'the marker');
    expect(after.filter((vacancy) => vacancy.id !== 'vac-marker')).to.deep.equal(vacancies);
    expect(await world.candidates(key)).to.deep.equal(candidates);
  });

  it('refuses a company that does not exist, naming it', async () => {
    const refused = await admin(['feed', 'examples', '--company', '00000000-0000-7000-8000-00000000dead']);
    expect(errorOf(refused)).to.match(/^error: Company 00000000-0000-7000-8000-00000000dead not found/);
  });
});
