import { expect } from 'chai';
import { jsonOf, runAdmin } from '../cli/support/run-admin.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { AMQP_URL, eventually, FeedWorld } from './support/feed-world.js';
import { eventsOf } from './support/platform-events.js';

interface DeadLetter {
  readonly id: string | null;
  readonly type: string | null;
  readonly companyId: string | null;
  readonly reason: string;
  readonly detail: string | null;
  readonly attempts: number;
}

describe('The platform feed: dead letters and their replay (RabbitMQ, a consumer process, PostgreSQL)', function () {
  this.timeout(120_000);
  const database = usePostgresTestDatabase();
  let world: FeedWorld;
  const admin = (args: readonly string[]) =>
    runAdmin(args, { env: { FEED_URL: AMQP_URL, FEED_QUEUE: world.queue, FEED_RETRY_DELAYS_MS: world.consumerEnv().FEED_RETRY_DELAYS_MS as string, DATABASE_URL: database().businessUrl } });
  const deadLetters = async () => jsonOf<DeadLetter[]>(await admin(['feed', 'dead', 'list']));

  before(async function () {
    world = await FeedWorld.create({ databaseUrl: database().businessUrl, consumerEnv: { FEED_MAX_ATTEMPTS: '3' } });
    await world.startConsumer();
  });
  after(async () => {
    await world?.close();
  });

  it('sets a poison message aside with its reason, goes on with the events after it, and applies a replayed one once its cause is fixed', async () => {
    const { companyId, key } = await world.company();
    const e = eventsOf(companyId);
    const unknownCompany = eventsOf('00000000-0000-7000-8000-000000000000').candidateAdded('card-x', 1, { vacancyId: 'vac-x', name: 'Гульнара Секретова', stage: 'NEW' });
    const badData = { ...e.vacancyUpserted('vac-bad', 1), data: { title: '', status: 'sometimes' } };
    // The card does not exist when the move comes, and will not within its attempts: set aside, not lost.
    const earlyMove = e.candidateMoved('card-late', 2, 'INTERVIEW');
    await world.publishRaw('{"specversion": "1.0", "id": ');
    await world.publish(unknownCompany, badData, earlyMove, e.vacancyUpserted('vac-ok', 1, { title: 'After the poison' }));

    await eventually(() => world.vacancies(key), (v) => v.some((x) => x.id === 'vac-ok'), 20_000, 'the event after the poison');
    const letters = await eventually(deadLetters, (l) => l.length === 4, 20_000, 'four dead letters');
    const reasonOf = (id: string) => letters.find((l) => l.id === id)?.reason;
    expect(letters.filter((l) => l.reason === 'invalid_json')).to.have.length(1);
    expect(reasonOf(unknownCompany.id)).to.equal('unknown_company');
    expect(reasonOf(badData.id)).to.equal('invalid_data');
    expect(reasonOf(earlyMove.id)).to.equal('not_applicable');
    // FEED_MAX_ATTEMPTS=3 takes, counted as its detail counts them.
    expect(letters.find((l) => l.id === earlyMove.id)).to.include({ type: 'candidate.moved', companyId, attempts: 3 });
    expect(letters.find((l) => l.id === earlyMove.id)?.detail).to.match(/^Still not applicable after 3 attempts/);
    expect(letters.find((l) => l.id === unknownCompany.id)).to.include({ attempts: 1 });
    // Listing leaves them where they are.
    expect(await deadLetters()).to.have.length(4);
    expect(JSON.stringify(letters), 'no personal data, no bodies').not.to.match(/Секретова|sometimes/);

    // The cause is fixed: the card arrives. Then the operator replays the one letter.
    await world.publish(e.candidateAdded('card-late', 1, { vacancyId: 'vac-ok', name: 'Дана' }));
    await eventually(() => world.candidates(key), (c) => c.length === 1, 20_000, 'the card');
    expect(jsonOf<{ replayed: number }>(await admin(['feed', 'dead', 'replay', '--id', earlyMove.id]))).to.deep.equal({ replayed: 1 });
    await eventually(() => world.candidates(key), (c) => c[0]?.stage === 'INTERVIEW', 20_000, 'the replayed move');
    const left = await deadLetters();
    expect(left.map((l) => l.reason).sort()).to.deep.equal(['invalid_data', 'invalid_json', 'unknown_company']);
  });

  it('logs a dead letter without personal data', async () => {
    const { companyId } = await world.company();
    const e = eventsOf(companyId);
    const moved = e.candidateMoved('card-never', 2, 'NEW');
    await world.publish({ ...e.candidateAdded('card-secret', 1, { vacancyId: 'no-such-vacancy', name: 'Секретное Имя' }), data: { vacancyId: 'v', candidate: { name: 'Секретное Имя', email: 'not-an-address' } } }, moved);
    await eventually(async () => world.consumers[0]!.logs().filter((l) => l.reason !== undefined && (l.id === moved.id || JSON.stringify(l).includes('invalid_data'))), (lines) => lines.length >= 2, 20_000, 'two dead-letter log lines');
    expect(world.consumers[0]!.output()).not.to.include('Секретное Имя');
    expect(world.consumers[0]!.output()).not.to.include('not-an-address');
  });
});
