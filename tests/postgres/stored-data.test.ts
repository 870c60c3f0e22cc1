import { expect } from 'chai';
import { CandidateCard } from '../../domain/candidate/candidate-card.js';
import { sameData } from '../../domain/shared/text-rules.js';
import { aManualCard, aPerson, aResume, aVacancy, at, nextId } from '../support/builders.js';
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
    expect(listed?.skills).to.deep.equal(AWKWARD);
    expect(listed?.updatedAt.toISOString()).to.equal('2026-03-29T23:59:59.999Z');
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
});
