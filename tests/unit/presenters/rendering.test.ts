import { expect } from 'chai';
import fc from 'fast-check';
import { presentCandidate, renderCandidateRest, spliceCandidate, splicedCandidateParts } from '../../../adapters/presenters/candidate.presenter.js';
import { PAGE_CHUNK_CHARS, pageText, renderPage } from '../../../adapters/presenters/page.presenter.js';
import { isRenderingCurrent } from '../../../adapters/presenters/rendering-currency.js';
import { presentVacancy, renderVacancy } from '../../../adapters/presenters/vacancy.presenter.js';
import type { CandidateView } from '../../../application/ports/candidate-repository.port.js';
import type { VacancyView } from '../../../application/ports/vacancy-repository.port.js';
import { VACANCY_STATUSES } from '../../../domain/vacancy/vacancy-status.js';
import { WORK_FORMATS } from '../../../domain/vacancy/work-format.js';

/**
 * Characters JSON text treats specially or that tend to break splicing: quotes, backslashes, every control
 * character class, line and paragraph separators, half a surrogate pair, Cyrillic, emoji (a pair), and the
 * characters of the splice itself.
 */
const AWKWARD = ['"', '\\', '\u0000', '\u0001', '\u001f', '\b', '\f', '\n', '\r', '\t', '\u007f', '\u2028', '\u2029', '\ud800', '\udfff',
  'я', 'Ё', 'ғ', '😀', '👩‍💻', '{', '}', ',', ':', '[', ']', '/', '<', ' '];

const text = fc.string({ unit: fc.oneof(fc.constantFrom(...AWKWARD), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 12 });
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });
const texts = fc.array(text, { maxLength: 3 });
const instant = fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true });
const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 1e21, 5e-324, Number.MAX_SAFE_INTEGER));

const person = fc.record({
  name: text, email: maybe(text), phone: maybe(text), location: maybe(text), birthDate: maybe(text), gender: maybe(text), citizenship: texts,
});

const resume = fc.record({
  role: maybe(text),
  summary: maybe(text),
  experienceYears: maybe(number),
  skills: texts,
  skillsDescription: maybe(text),
  experience: fc.array(fc.record({ company: text, role: text, period: text, description: text }), { maxLength: 2 }),
  education: fc.array(fc.record({ institution: text, degree: text, period: text }), { maxLength: 2 }),
  additionalEducation: fc.array(fc.record({ institution: text, course: text, result: text, period: text }), { maxLength: 2 }),
  languages: fc.array(fc.record({ name: text, level: text }), { maxLength: 2 }),
  certificates: fc.array(fc.record({ title: text, date: text, url: text }), { maxLength: 2 }),
  portfolio: fc.array(fc.record({ url: text, description: text }), { maxLength: 2 }),
  expectedSalary: maybe(number),
  expectedSalaryCurrency: maybe(text),
  preferredWorkFormat: texts,
  preferredEmployment: maybe(text),
  relocation: maybe(text),
  sourceUrl: maybe(text),
});

const candidateView: fc.Arbitrary<CandidateView> = fc.record({
  id: text,
  vacancyId: maybe(text),
  vacancyTitle: maybe(text),
  stage: maybe(text),
  source: text,
  externalId: maybe(text),
  coverLetter: maybe(text),
  person,
  resume,
  referral: maybe(fc.record({ name: text, email: maybe(text), phone: maybe(text), company: maybe(text), relationship: maybe(text) })),
  createdAt: instant,
  updatedAt: instant,
});

const vacancyView: fc.Arbitrary<VacancyView> = fc.record({
  id: text,
  title: text,
  status: fc.constantFrom(...VACANCY_STATUSES),
  city: maybe(text),
  officeAddress: maybe(text),
  experience: maybe(text),
  workFormat: maybe(fc.constantFrom(...WORK_FORMATS)),
  workFormats: texts,
  salaryFrom: maybe(number),
  salaryTo: maybe(number),
  salaryCurrency: maybe(text),
  salaryGross: maybe(fc.boolean()),
  employmentForm: maybe(text),
  workSchedule: texts,
  skills: texts,
  languages: texts,
  professionalRoles: texts,
  description: maybe(text),
  responsibilities: maybe(text),
  positionsCount: maybe(fc.integer()),
  sourceUrl: maybe(text),
  publishedAt: maybe(instant),
  createdAt: instant,
  updatedAt: instant,
});

const RUNS = { numRuns: 300, seed: 20_261_127 };

describe('The renderings the lists are assembled from (ADR 18)', () => {
  it('a card spliced from its rendering and its leading fields is the presenter\'s JSON, byte for byte', () => {
    fc.assert(
      fc.property(candidateView, (view) => {
        const spliced = spliceCandidate(view.id, view.vacancyId, view.vacancyTitle, renderCandidateRest(view));
        expect(spliced).to.equal(JSON.stringify(presentCandidate(view)));
      }),
      RUNS,
    );
  });

  it('a card rendered with one vacancy title shows another spliced in, as if presented with it', () => {
    fc.assert(
      fc.property(candidateView, maybe(text), (view, titleNow) => {
        const rest = renderCandidateRest({ ...view, vacancyTitle: null });
        expect(rest).to.equal(renderCandidateRest(view));
        expect(spliceCandidate(view.id, view.vacancyId, titleNow, rest)).to.equal(JSON.stringify(presentCandidate({ ...view, vacancyTitle: titleNow })));
      }),
      RUNS,
    );
  });

  it('a card\'s rendering holds what follows vacancyTitle: from stage to the closing brace, nothing before it', () => {
    fc.assert(
      fc.property(candidateView, (view) => {
        const rest = renderCandidateRest(view);
        expect(rest.startsWith(`"stage":${JSON.stringify(view.stage)},"source":`)).to.equal(true);
        expect(rest.endsWith(`"updatedAt":${JSON.stringify(view.updatedAt.toISOString())}}`)).to.equal(true);
        expect(Object.keys(JSON.parse(`{${rest}`))).to.not.include.members(['id', 'vacancyId', 'vacancyTitle']);
      }),
      RUNS,
    );
  });

  it('a vacancy\'s rendering is the presenter\'s JSON', () => {
    fc.assert(
      fc.property(vacancyView, (view) => {
        expect(renderVacancy(view)).to.equal(JSON.stringify(presentVacancy(view)));
      }),
      RUNS,
    );
  });

  /** The page's bytes, as the route sends them, and as JSON.stringify of the parsed page would print them. */
  const bytesOf = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');

  it('a page assembled from rendered items is JSON.stringify of the page, whatever the items, the cursor and the parts they are given in', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 5 }), maybe(text), (items, nextCursor) => {
        const texts = items.map((item) => JSON.stringify(item));
        expect(renderPage(texts, nextCursor).equals(bytesOf({ items, nextCursor }))).to.equal(true);
        // Each item as parts, cut between its first character and the rest: the same bytes.
        const parts = texts.map((t) => [t.slice(0, 1), t.slice(1)]);
        expect(renderPage(parts, nextCursor).equals(bytesOf({ items, nextCursor }))).to.equal(true);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(fc.array(candidateView, { maxLength: 3 }), fc.array(vacancyView, { maxLength: 3 }), maybe(text), (cards, vacancies, nextCursor) => {
        const expected = JSON.stringify({ items: cards.map(presentCandidate), nextCursor });
        const cardPage = renderPage(cards.map((c) => spliceCandidate(c.id, c.vacancyId, c.vacancyTitle, renderCandidateRest(c))), nextCursor);
        expect(cardPage.toString('utf8')).to.equal(expected);
        const cardParts = renderPage(cards.map((c) => splicedCandidateParts(c.id, c.vacancyId, c.vacancyTitle, renderCandidateRest(c))), nextCursor);
        expect(cardParts.toString('utf8')).to.equal(expected);
        expect(renderPage(vacancies.map(renderVacancy), nextCursor).equals(bytesOf({ items: vacancies.map(presentVacancy), nextCursor }))).to.equal(true);
      }),
      { ...RUNS, numRuns: 100 },
    );
  });

  it('a page of many large items has every byte of each, nothing lost or doubled between them', () => {
    // 40 items of 2,000 characters (Cyrillic, emoji): about 80,000 characters, 100 KB.
    const items = Array.from({ length: 40 }, (_, i) => ({ i, text: `Ж${'я'.repeat(1000)}😀${'q'.repeat(996)}` }));
    const texts = items.map((item) => JSON.stringify(item));
    expect(renderPage(texts, 'next').equals(bytesOf({ items, nextCursor: 'next' }))).to.equal(true);
    // A text longer than a piece goes as a piece of its own, between pieces of joined small ones.
    const mixed = [...items.slice(0, 3), { text: 'Щ'.repeat(2 * PAGE_CHUNK_CHARS) }, ...items.slice(3, 5)];
    const parts = mixed.map((item) => JSON.stringify(item)).map((t) => [t.slice(0, 2), t.slice(2)]);
    const { bytes, pieces } = pageText(parts, null);
    expect(pieces.some((piece) => piece.length >= 2 * PAGE_CHUNK_CHARS)).to.equal(true);
    expect(Buffer.from(pieces.join(''), 'utf8').equals(bytesOf({ items: mixed, nextCursor: null }))).to.equal(true);
    expect(bytes).to.equal(bytesOf({ items: mixed, nextCursor: null }).length);
  });

  it('an empty page is the empty list and its cursor', () => {
    expect(renderPage([], null).toString('utf8')).to.equal('{"items":[],"nextCursor":null}');
    expect(renderPage([], 'c"\\').equals(bytesOf({ items: [], nextCursor: 'c"\\' }))).to.equal(true);
  });
});

/**
 * The rule by which a list tells a rendering that an instance of the previous version left behind (none, or
 * the text of the record before its last change) from a current one during a rolling upgrade (ADR 18).
 */
describe('isRenderingCurrent: a stored rendering against the updatedAt of its row', () => {
  const later = (date: Date) => new Date(date.getTime() === 8.64e15 ? date.getTime() - 1 : date.getTime() + 1);
  const RENDERINGS = [
    ['vacancy', vacancyView.map((view) => ({ rendering: renderVacancy(view), updatedAt: view.updatedAt }))],
    ['card', candidateView.map((view) => ({ rendering: renderCandidateRest(view), updatedAt: view.updatedAt }))],
  ] as const;

  for (const [kind, rendered] of RENDERINGS) {
    it(`holds a ${kind}'s rendering current at its own updatedAt, and at no other, whatever the record's text holds`, () => {
      fc.assert(
        fc.property(rendered, instant, ({ rendering, updatedAt }, other) => {
          expect(isRenderingCurrent(rendering, updatedAt)).to.equal(true);
          expect(isRenderingCurrent(rendering, later(updatedAt))).to.equal(false);
          expect(isRenderingCurrent(rendering, other)).to.equal(other.getTime() === updatedAt.getTime());
        }),
        RUNS,
      );
    });
  }

  it('holds a missing rendering stale at any updatedAt', () => {
    fc.assert(
      fc.property(instant, (updatedAt) => {
        expect(isRenderingCurrent(null, updatedAt)).to.equal(false);
      }),
      RUNS,
    );
  });

  it('is not fooled by a field that ends with an updatedAt of its own: the presenters print the record\'s last', () => {
    const at = new Date('2026-11-27T10:00:00.000Z');
    const decoy = '"updatedAt":"2026-11-27T10:00:00.000Z"}';
    fc.assert(
      fc.property(vacancyView, candidateView, (vacancy, card) => {
        const older = new Date(at.getTime() - 1);
        expect(isRenderingCurrent(renderVacancy({ ...vacancy, description: decoy, updatedAt: older }), at)).to.equal(false);
        expect(isRenderingCurrent(renderCandidateRest({ ...card, coverLetter: decoy, updatedAt: older }), at)).to.equal(false);
      }),
      { ...RUNS, numRuns: 50 },
    );
  });

  it('relies on updatedAt being the last key of both presenters', () => {
    fc.assert(
      fc.property(vacancyView, candidateView, (vacancy, card) => {
        expect(Object.keys(presentVacancy(vacancy)).at(-1)).to.equal('updatedAt');
        expect(Object.keys(presentCandidate(card)).at(-1)).to.equal('updatedAt');
      }),
      { ...RUNS, numRuns: 20 },
    );
  });
});
