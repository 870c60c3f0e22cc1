import { expect } from 'chai';
import { parsePlatformEvent } from '../../adapters/feed/platform-event-parser.js';
import { Vacancy } from '../../domain/vacancy/vacancy.js';
import { ValidationError } from '../../domain/shared/domain-error.js';
import { aVacancyInput } from '../support/builders.js';

/** Values every store keeps alike: what one adapter would store and another refuse, or order differently, is refused at the door. */
describe('Bounds that every store keeps alike', () => {
  const create = (input: Parameters<typeof aVacancyInput>[0]) => () => Vacancy.create({ id: 'v', companyId: 'c', input: aVacancyInput(input), now: new Date() });
  const problemsOf = (make: () => unknown) => {
    try {
      make();
    } catch (error) {
      if (error instanceof ValidationError) return error.problems.map((p) => p.pointer);
      throw error;
    }
    return [];
  };

  it('takes positionsCount up to 2147483647 (a 32-bit integer column) and refuses more', () => {
    expect(problemsOf(create({ positionsCount: 2_147_483_647 }))).to.deep.equal([]);
    expect(problemsOf(create({ positionsCount: 2_147_483_648 }))).to.deep.equal(['/positionsCount']);
  });

  it('takes publishedAt in the years 0001 to 9999 and refuses year 0000 (PostgreSQL keeps no year 0)', () => {
    expect(problemsOf(create({ publishedAt: new Date('0001-01-01T00:00:00Z') }))).to.deep.equal([]);
    expect(problemsOf(create({ publishedAt: new Date('9999-12-31T23:59:59.999Z') }))).to.deep.equal([]);
    expect(problemsOf(create({ publishedAt: new Date('0000-12-31T23:59:59Z') }))).to.deep.equal(['/publishedAt']);
  });

  it('refuses a feed event whose card or vacancy id is not ASCII letters, digits and . _ : - (ids break ties in list order)', () => {
    const moved = (subject: string) =>
      JSON.stringify({ specversion: '1.0', id: 'e1', source: '/p', type: 'candidate.moved', subject, companyid: 'c1', entityversion: 2, data: { stage: 'NEW' } });
    expect(parsePlatformEvent(moved('card-1.a:b_c')).ok).to.equal(true);
    for (const subject of ['карточка', '😀-card', 'ｚ-card', 'a b']) {
      const parsed = parsePlatformEvent(moved(subject));
      expect(parsed.ok, subject).to.equal(false);
      if (!parsed.ok) expect(parsed.detail).to.include('/subject');
    }
  });
});
