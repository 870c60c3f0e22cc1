import { expect } from 'chai';
import pg from 'pg';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { eventually, FeedWorld } from './support/feed-world.js';
import { eventsOf } from './support/platform-events.js';

/** How many times the ledger recorded an event id: exactly-once in effect means once, whatever the deliveries. */
async function timesRecorded(databaseUrl: string, eventId: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('select count(*) as n from feed_applied_events where event_id = $1', [eventId]);
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

describe('The platform feed, end to end (RabbitMQ, a consumer process, PostgreSQL, the public API)', function () {
  this.timeout(120_000);
  const database = usePostgresTestDatabase();
  let world: FeedWorld;

  before(async function () {
    world = await FeedWorld.create({ databaseUrl: database().businessUrl });
    await world.startConsumer({ FEED_PREFETCH: '8' });
  });
  after(async () => {
    await world?.close();
  });

  it('applies each type of event, and integrators see the change through GET /vacancies and GET /candidates', async () => {
    const { companyId, key } = await world.company();
    const e = eventsOf(companyId);
    await world.publish(
      e.vacancyUpserted('vac-1', 1, { title: 'Go engineer', city: 'Алматы' }),
      e.vacancyUpserted('vac-2', 1, { title: 'Designer' }),
      e.columnsSet('vac-1', 2, ['NEW', 'SCREEN', 'OFFER']),
    );
    const vacancies = await eventually(() => world.vacancies(key), (v) => v.length === 2, 20_000, 'two vacancies');
    expect(vacancies.find((v) => v.id === 'vac-1')).to.include({ title: 'Go engineer', city: 'Алматы', status: 'open' });

    await world.publish(e.candidateAdded('card-1', 1, { vacancyId: 'vac-1', name: 'Айгерим Нурланова', resume: { role: 'Backend', skills: ['Go'] } }));
    let [card] = await eventually(() => world.candidates(key), (c) => c.length === 1, 20_000, 'the added card');
    expect(card).to.deep.include({ id: 'card-1', vacancyId: 'vac-1', vacancyTitle: 'Go engineer', stage: 'NEW', source: 'manual' });
    expect(card?.candidate.name).to.equal('Айгерим Нурланова');

    // SCREEN exists only because board.columns-set applied.
    await world.publish(e.candidateMoved('card-1', 2, 'SCREEN'));
    [card] = await eventually(() => world.candidates(key), (c) => c[0]?.stage === 'SCREEN', 20_000, 'the move');

    await world.publish(e.resumeUpdated('card-1', 3, { role: 'Staff engineer', skills: ['Go', 'PostgreSQL'] }));
    [card] = await eventually(() => world.candidates(key), (c) => c[0]?.resume.role === 'Staff engineer', 20_000, 'the resume update');
    expect(card?.resume.skills).to.deep.equal(['Go', 'PostgreSQL']);

    // A transfer leaves a technical card on the other vacancy, which the list never shows (spec 2.6.2).
    await world.publish(e.candidateTransferred('card-1', 4, 'vac-2'));
    const technical = await eventually(
      () => technicalCardsOf(database().businessUrl, companyId, 'vac-2'),
      (cards) => cards.length === 1,
      20_000,
      'the technical card on vac-2',
    );
    expect(technical).to.have.length(1);
    expect((await world.candidates(key)).map((c) => c.id)).to.deep.equal(['card-1']);

    await world.publish(e.applicationSubmitted('portal-77', 'vac-2', 'Тимур Ахметов'));
    const withApplication = await eventually(() => world.candidates(key), (c) => c.length === 2, 20_000, 'the application');
    expect(withApplication.find((c) => c.externalId === 'portal-77')).to.deep.include({ vacancyId: 'vac-2', stage: 'NEW' });

    // Deleting a vacancy keeps its cards, without vacancy (DESIGN 3, Deletion): the platform publishes each card's detach with it.
    await world.publish(e.vacancyDeleted('vac-1', 3), e.candidateDetached('card-1', 5, 'vac-1'));
    await eventually(() => world.candidates(key), (c) => c.find((x) => x.id === 'card-1')?.vacancyId === null, 20_000, 'card-1 without vacancy');
    expect((await world.vacancies(key)).map((v) => v.id)).to.deep.equal(['vac-2']);

    await world.publish(e.candidateDeleted('card-1', 6));
    await eventually(() => world.candidates(key), (c) => c.length === 1 && c[0]?.externalId === 'portal-77', 20_000, 'card-1 deleted');
  });

  it('gives an event delivered twice, or republished after it applied, one effect', async () => {
    const { companyId, key } = await world.company();
    const e = eventsOf(companyId);
    const upsert = e.vacancyUpserted('vac-once', 1, { title: 'Once' });
    await world.publish(upsert, upsert);
    await eventually(() => world.vacancies(key), (v) => v.length === 1, 20_000, 'the vacancy');
    const [first] = await world.vacancies(key);
    await world.publish(upsert);
    // A marker event after the republication: once it applied, the republished one was handled before it.
    await world.publish(e.vacancyUpserted('vac-marker', 1));
    await eventually(() => world.vacancies(key), (v) => v.length === 2, 20_000, 'the marker');
    const [again] = (await world.vacancies(key)).filter((v) => v.id === 'vac-once');
    expect(again?.updatedAt, 'not written again').to.equal(first?.updatedAt);
    expect(await timesRecorded(database().businessUrl, upsert.id)).to.equal(1);
  });

  it('lets the newer version stand when versions arrive out of order, and keeps a deleted record deleted', async () => {
    const { companyId, key } = await world.company();
    const e = eventsOf(companyId);
    await world.publish(e.vacancyUpserted('vac-v', 2, { title: 'Second' }), e.vacancyUpserted('vac-v', 1, { title: 'First' }));
    await world.publish(e.vacancyDeleted('vac-gone', 2), e.vacancyUpserted('vac-gone', 1, { title: 'Late' }));
    await world.publish(e.vacancyUpserted('vac-marker', 1));
    await eventually(() => world.vacancies(key), (v) => v.some((x) => x.id === 'vac-marker'), 20_000, 'the marker');
    // Consumption is parallel (prefetch 8): wait until nothing of this company is left in the queue or retries.
    await eventually(() => world.depth(), (n) => n === 0, 20_000, 'an empty queue');
    const vacancies = await world.vacancies(key);
    expect(vacancies.map((v) => v.id).sort()).to.deep.equal(['vac-marker', 'vac-v']);
    expect(vacancies.find((v) => v.id === 'vac-v')?.title).to.equal('Second');
  });

  it('applies the events of a card added to a vacancy whose deletion came first, which wait for the card, and the card\'s detach; sets none aside', async () => {
    const { companyId, key } = await world.company();
    const e = eventsOf(companyId);
    await world.publish(e.vacancyUpserted('vac-d', 1));
    await eventually(() => world.vacancies(key), (v) => v.some((x) => x.id === 'vac-d'), 20_000, 'the vacancy');
    // The platform made the card, updated its resume, then deleted the vacancy, with the card's detach. Here the
    // deletion comes first, and the resume update and the detach before the card: they wait for the card, which
    // is placed as the platform placed it, and then apply.
    await world.publish(e.vacancyDeleted('vac-d', 2), e.resumeUpdated('card-d', 2, { role: 'Updated' }), e.candidateDetached('card-d', 3, 'vac-d'));
    await world.publish(e.candidateAdded('card-d', 1, { vacancyId: 'vac-d', name: 'Name', stage: 'NEW', resume: { role: 'Initial' } }));
    const cards = await eventually(
      () => world.candidates(key),
      (c) => c.some((x) => x.id === 'card-d' && x.resume.role === 'Updated' && x.vacancyId === null),
      30_000,
      'the card with its updated resume, detached',
    );
    expect(cards.find((x) => x.id === 'card-d')).to.include({ vacancyId: null, stage: null });
    expect(await world.depth(world.topology.deadQueue), 'nothing set aside').to.equal(0);
  });

  it('leaves a card made before its vacancy\'s deletion without the vacancy by its detach, though the vacancy made again came first, and one made after on it', async () => {
    const { companyId, key } = await world.company();
    const e = eventsOf(companyId);
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 2, 9, minutes)).toISOString();
    await world.publish({ ...e.vacancyUpserted('vac-r', 1, { title: 'First' }), time: at(0) });
    await eventually(() => world.vacancies(key), (v) => v.some((x) => x.id === 'vac-r'), 20_000, 'the vacancy');
    await world.publish({ ...e.vacancyDeleted('vac-r', 2), time: at(10) });
    await eventually(() => world.vacancies(key), (v) => !v.some((x) => x.id === 'vac-r'), 20_000, 'the deletion');
    await world.publish({ ...e.vacancyUpserted('vac-r', 3, { title: 'Again' }), time: at(20) });
    await eventually(() => world.vacancies(key), (v) => v.some((x) => x.id === 'vac-r' && x.title === 'Again'), 20_000, 'the vacancy made again');
    // The platform made this one before the deletion (and took it off with the deletion: its detach), this one after
    // the upsert. The times say the same, and count for nothing: versions alone decide.
    await world.publish(
      { ...e.candidateAdded('card-before', 1, { vacancyId: 'vac-r', name: 'Before' }), time: at(5) },
      { ...e.candidateDetached('card-before', 2, 'vac-r'), time: at(10) },
      { ...e.candidateAdded('card-after', 1, { vacancyId: 'vac-r', name: 'After' }), time: at(25) },
    );
    const cards = await eventually(
      () => world.candidates(key),
      (c) => c.length === 2 && c.some((card) => card.id === 'card-before' && card.vacancyId === null),
      20_000,
      'the two cards',
    );
    const placed = Object.fromEntries(cards.map((card) => [card.candidate.name, card.vacancyId]));
    expect(placed).to.deep.equal({ Before: null, After: 'vac-r' });
    expect(await world.depth(world.topology.deadQueue), 'nothing set aside').to.equal(0);
  });

  it('makes one card of an application.submitted and a POST /applications with one externalId, in either order', async () => {
    const { companyId, key } = await world.company();
    const e = eventsOf(companyId);
    await world.publish(e.vacancyUpserted('vac-a', 1));
    await eventually(() => world.vacancies(key), (v) => v.length === 1, 20_000, 'the vacancy');
    const post = (externalId: string) =>
      fetch(`${world.api.apiUrl}/applications`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ externalId, vacancyId: 'vac-a', candidate: { name: 'Алия' } }),
      });
    expect((await post('first-post')).status).to.equal(201);
    await world.publish(e.applicationSubmitted('first-post', 'vac-a', 'Алия'), e.applicationSubmitted('first-event', 'vac-a', 'Алия'));
    await eventually(() => world.candidates(key), (c) => c.length === 2, 20_000, 'the event-made card');
    const repeat = await post('first-event');
    expect(repeat.status).to.equal(200);
    expect(repeat.headers.get('idempotent-replayed')).to.equal('true');
    await world.publish(e.vacancyUpserted('vac-marker', 1));
    await eventually(() => world.vacancies(key), (v) => v.length === 2, 20_000, 'the marker');
    const cards = await world.candidates(key);
    expect(cards.map((c) => c.externalId).sort()).to.deep.equal(['first-event', 'first-post']);
  });
});

/** Technical cards are never listed by the API: the test reads them where they are stored. */
async function technicalCardsOf(databaseUrl: string, companyId: string, vacancyId: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('select id from candidates where company_id = $1 and vacancy_id = $2 and technical', [companyId, vacancyId]);
    return rows;
  } finally {
    await client.end();
  }
}
