import { expect } from 'chai';
import { presentCandidate, spliceCandidate } from '../../adapters/presenters/candidate.presenter.js';
import { toCandidateView } from '../../application/views/candidate-view.js';
import { CandidateCard } from '../../domain/candidate/candidate-card.js';
import { sameData } from '../../domain/shared/text-rules.js';
import { aManualCard, aPerson, aResume, aVacancy, at, nextId } from '../support/builders.js';
import { candidateJsonOf, vacancyJsonOf } from '../support/listed-records.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';

/** Strings that a lossy encoding (text[] literals, client-side escaping) would change. */
const AWKWARD = ['null', 'NULL', ' padded ', 'a"b', 'c\\d', '{e,f}', "it's", 'Алматы — Ташкент', '😀 emoji', ''];

describe('Data stored in PostgreSQL', () => {
  const database = usePostgresTestDatabase();
  let savedTz: string | undefined;
  beforeEach(() => {
    savedTz = process.env.TZ;
    // A process time zone far from UTC: timestamps must not move by its offset on the way in or out.
    process.env.TZ = 'Asia/Almaty';
  });
  afterEach(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  it('comes back exactly as written: awkward strings, lists and millisecond timestamps', async () => {
    const { vacancies, candidates } = database().adapters();
    const companyId = nextId('co');
    const vacancy = aVacancy({
      companyId,
      now: new Date('2026-03-29T23:59:59.999Z'),
      input: { skills: AWKWARD, workSchedule: AWKWARD, city: "O'Hare \\ null", publishedAt: new Date('1999-12-31T20:00:00.001Z') },
    });
    await vacancies.insert(vacancy);
    const card = aManualCard({ companyId, vacancyId: vacancy.id, now: at(1), person: aPerson({ name: 'Ёлкина "Ё"', citizenship: AWKWARD }) });
    card.replaceResume(aResume({ skills: AWKWARD, summary: 'line\nbreak\ttab' }), at(2));
    await candidates.insert(card);

    expect(sameData((await vacancies.findById(companyId, vacancy.id))?.toSnapshot(), vacancy.toSnapshot())).to.equal(true);
    expect(sameData((await candidates.findById(companyId, card.id))?.toSnapshot(), card.toSnapshot())).to.equal(true);
    const [listed] = await vacancies.list({ companyId, since: null, status: 'all', after: null, limit: 1 });
    expect(listed?.updatedAt.toISOString()).to.equal('2026-03-29T23:59:59.999Z');
    // What GET /vacancies sends of it, rendered when it was written.
    const listedJson = vacancyJsonOf(listed!);
    expect(listedJson.skills).to.deep.equal(AWKWARD);
    expect(listedJson.workSchedule).to.deep.equal(AWKWARD);
    expect(listedJson.city).to.equal("O'Hare \\ null");
    expect(listedJson.publishedAt).to.equal('1999-12-31T20:00:00.001Z');
    expect(listedJson.updatedAt).to.equal('2026-03-29T23:59:59.999Z');
    const [listedCard] = await candidates.list({ companyId, since: null, vacancyId: null, after: null, limit: 1 });
    const cardJson = candidateJsonOf(listedCard!);
    expect(cardJson.candidate).to.deep.include({ name: 'Ёлкина "Ё"', citizenship: AWKWARD });
    expect(cardJson.resume).to.deep.include({ skills: AWKWARD, summary: 'line\nbreak\ttab' });
    expect(cardJson.updatedAt).to.equal(at(2).toISOString());
  });

  it('stores every card of a bulk insert larger than one statement, or none when one of them clashes', async () => {
    const { vacancies, candidates } = database().adapters();
    const companyId = nextId('co');
    const vacancy = aVacancy({ companyId });
    await vacancies.insert(vacancy);
    const cards = Array.from({ length: 1_100 }, (_, i) => aManualCard({ companyId, vacancyId: vacancy.id, now: at(i) }));
    const clash = CandidateCard.restore({ ...(cards[3] as CandidateCard).toSnapshot() });
    const count = async () => (await candidates.list({ companyId, since: null, vacancyId: null, after: null, limit: 5_000 })).length;

    const failure = await candidates.insertMany([...cards, clash]).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(Error);
    expect(await count()).to.equal(0);

    await candidates.insertMany(cards);
    expect(await count()).to.equal(1_100);
    expect(sameData((await candidates.findById(companyId, (cards[777] as CandidateCard).id))?.toSnapshot(), cards[777]?.toSnapshot())).to.equal(true);
  });

  it('detaches every card of a deleted vacancy with more cards than one statement takes, each rendered again', async () => {
    const { vacancies, candidates } = database().adapters();
    const companyId = nextId('co');
    const vacancy = aVacancy({ companyId });
    const kept = aVacancy({ companyId });
    for (const v of [vacancy, kept]) await vacancies.insert(v);
    const cards = Array.from({ length: 2_050 }, (_, i) => aManualCard({ companyId, vacancyId: vacancy.id, now: at(i), stage: i % 2 === 0 ? 'NEW' : 'INTERVIEW' }));
    const elsewhere = aManualCard({ companyId, vacancyId: kept.id, now: at(1) });
    await candidates.insertMany([...cards, elsewhere]);
    await candidates.insert((cards[0] as CandidateCard).technicalCopy({ id: nextId('tech'), vacancyId: vacancy.id, stage: 'NEW', now: at(2) }));

    expect(await candidates.detachVacancy(companyId, vacancy.id, at(10_000))).to.equal(2_051);
    for (const card of cards) card.detachFromVacancy(at(10_000));
    const listed = await candidates.list({ companyId, since: null, vacancyId: null, after: null, limit: 5_000 });
    const expected = new Map([...cards.map((card) => toCandidateView(card, null)), toCandidateView(elsewhere, kept.title)].map((view) => [view.id, view]));
    expect(listed).to.have.length(expected.size);
    for (const item of listed) {
      expect(spliceCandidate(item.id, item.vacancyId, item.vacancyTitle, item.rendering), item.id).to.equal(JSON.stringify(presentCandidate(expected.get(item.id)!)));
    }
    expect(await candidates.stagesInUse(companyId, vacancy.id)).to.deep.equal([]);
  });
});
