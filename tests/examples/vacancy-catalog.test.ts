import { expect } from 'chai';
import type { Vacancy } from '../../clients/typescript/src/index.js';
import { VacancyCatalog } from '../../examples/career-portal/src/vacancy-catalog.js';

function aVacancy(id: string, publishedAt: string | null, status: Vacancy['status'] = 'open'): Vacancy {
  return { id, title: `Вакансия ${id}`, status, publishedAt, createdAt: '2026-01-01T00:00:00.000Z' } as Vacancy;
}

/** A client whose list the test changes; it counts the passes the catalog makes. */
function aFakeClient(initial: Vacancy[]) {
  const fake = {
    items: initial,
    passes: 0,
    async *vacancies() {
      fake.passes += 1;
      await Promise.resolve();
      yield* fake.items;
    },
  };
  return fake;
}

describe('VacancyCatalog of the career portal', () => {
  let now = 0;
  const clock = () => now;

  beforeEach(() => (now = 1_000_000));

  it('lists open vacancies newest first, once per time-to-live, sharing one pass among concurrent readers', async () => {
    const client = aFakeClient([aVacancy('a', '2026-10-01T00:00:00.000Z'), aVacancy('b', '2026-10-05T00:00:00.000Z'), aVacancy('a', '2026-10-01T00:00:00.000Z')]);
    const catalog = new VacancyCatalog(client as never, { ttlMs: 30_000, now: clock });
    const [first, second] = await Promise.all([catalog.openVacancies(), catalog.openVacancies()]);
    expect(first!.map((v) => v.id)).to.deep.equal(['b', 'a']);
    expect(second).to.equal(first);
    now += 29_999;
    await catalog.openVacancies();
    expect(client.passes).to.equal(1);
    now += 1;
    await catalog.openVacancies();
    expect(client.passes).to.equal(2);
  });

  it('reads the list again for an unknown id, at most every few seconds, and finds a vacancy opened meanwhile', async () => {
    const client = aFakeClient([aVacancy('a', null)]);
    const catalog = new VacancyCatalog(client as never, { ttlMs: 60_000, missRefreshMs: 5_000, now: clock });
    expect(await catalog.find('new')).to.equal(null);
    client.items = [aVacancy('a', null), aVacancy('new', null)];
    expect(await catalog.find('new')).to.equal(null);
    expect(client.passes).to.equal(1);
    now += 5_000;
    expect((await catalog.find('new'))?.id).to.equal('new');
    expect(client.passes).to.equal(2);
  });
});
