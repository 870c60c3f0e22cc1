import { v7 } from 'uuid';
import { demoCandidate } from '../adapters/cli/seed/demo-candidates.js';
import { demoVacancies, type DemoVacancy } from '../adapters/cli/seed/demo-vacancies.js';
import { APPLICATION_SOURCES } from '../adapters/cli/seed/demo-vocabulary.js';
import { SeededRandom } from '../adapters/cli/seed/seeded-random.js';
import { parsePlatformEvent } from '../adapters/feed/platform-event-parser.js';
import type { PlatformChangeType } from '../application/use-cases/platform-change.js';
import { DEFAULT_BOARD_COLUMNS } from '../domain/board/board.js';
import type { Resume } from '../domain/candidate/resume.js';
import type { VacancyInput } from '../domain/vacancy/vacancy.js';

/**
 * The feed benchmark's events: a model of what the seeded companies hold (vacancies with their boards, cards
 * with their stage) and a generator of valid CloudEvents over it, in version order per entity, with the mix
 * below. Every event it makes applies on the first take whatever order a parallel consumer takes them in:
 *
 * - events of one segment touch only what existed when the segment began (a card added in a segment is moved
 *   or updated in later segments only), so no event waits for another that is still on its way;
 * - boards only ever gain or lose the bench's own extra column, which no card is put in, and cards are moved
 *   and added only to the board's columns as seeded, so no move waits for a column, no column holds a card;
 * - a vacancy is deleted only when no card or application was sent to it in the last DELETE_COOL_DOWN
 *   events, and nothing is sent to it after; a deleted card gets no event after its deletion. Events taken
 *   after the deletion they precede are stale (acknowledged, recorded, no effect), never retried.
 *
 * So every event ends as one row of feed_applied_events, which is what the bench counts.
 */

/** The share of each type, in percent: what a recruiting platform sends on a working day (see README). */
export const FEED_MIX: readonly (readonly [PlatformChangeType, number])[] = [
  ['candidate.resume-updated', 40],
  ['candidate.moved', 20],
  ['vacancy.upserted', 15],
  ['candidate.added', 10],
  ['application.submitted', 10],
  ['board.columns-set', 2.5],
  ['candidate.deleted', 2],
  ['vacancy.deleted', 0.5],
];

/** Of vacancy.upserted events, this share makes a new vacancy; the others replace an existing one. */
const NEW_VACANCY_SHARE = 0.2;
/** Events after the last card or application sent to a vacancy before it may be deleted. */
const DELETE_COOL_DOWN = 2_000;
/** The column the bench adds to and removes from boards (board.columns-set); no card ever stands in it. */
export const EXTRA_COLUMN = 'Резерв (бенчмарк)';
/** Content generators' vacancies: trades and countries for resumes, people and vacancy texts. */
const CONTENT_VACANCIES = 64;
export const FEED_SOURCE = '/platform/kz/recruiting';
/** Every externalId of the bench's application.submitted events starts with it. */
export const FEED_EXTERNAL_ID_PREFIX = 'bench-feed-';

export interface SeededVacancy {
  readonly id: string;
  readonly status: string;
  /** The board's columns as seeded. */
  readonly columns: readonly string[];
}

export interface SeededCard {
  readonly id: string;
  readonly vacancyId: string | null;
  readonly stage: string;
}

/** What the seed left in one company, read back from the database. */
export interface SeededCompany {
  readonly id: string;
  /** An API key of the company (every scope), for the latency poller. */
  readonly key: string;
  readonly vacancies: readonly SeededVacancy[];
  readonly cards: readonly SeededCard[];
}

interface VacancyModel {
  readonly id: string;
  version: number;
  readonly columns: readonly string[];
  extraColumn: boolean;
  input: VacancyInput;
  /** Position in the stream of the last card or application sent to it. */
  lastTargeted: number;
  deleted: boolean;
}

interface CardModel {
  readonly id: string;
  vacancy: VacancyModel | null;
  stage: string;
  version: number;
}

interface CompanyModel {
  readonly id: string;
  readonly key: string;
  /** Live vacancies and cards that existed when the current segment began: what events may touch. */
  readonly vacancies: VacancyModel[];
  readonly cards: CardModel[];
  /** Made during the current segment: touched from the next one on. */
  readonly freshVacancies: VacancyModel[];
  readonly freshCards: CardModel[];
  /** Cards kept for latency samples: only sample resume updates touch them, one at a time, in turn. */
  readonly sampleCards: CardModel[];
  nextSample: number;
}

/** One event as published: its JSON text and what the bench needs to know of it. */
export interface FeedEvent {
  readonly id: string;
  readonly type: PlatformChangeType;
  readonly companyId: string;
  readonly body: string;
  /** For latency samples: the unique text the poller looks for in the card's resume role. */
  readonly marker?: string;
}

export interface StreamOptions {
  readonly seed: number;
  /** Tells this run's externalIds and markers apart from another's on a reused database. */
  readonly runTag: string;
  /** Check every event with the consumer's own parser as it is made (throws on the first invalid one). */
  readonly validate: boolean;
}

/**
 * Companies are not alike: the i-th (from 0) receives a share of the events proportional to 1/sqrt(i + 1),
 * the largest of 40 about 9%, the smallest about 1.4%. Their lock is what serialises their events.
 */
export function companyWeights(count: number): number[] {
  return Array.from({ length: count }, (_, i) => 1 / Math.sqrt(i + 1));
}

export class FeedStream {
  private readonly random: SeededRandom;
  private readonly companies: CompanyModel[];
  private readonly cumulative: number[];
  private readonly mixCumulative: number[];
  private readonly contentVacancies: DemoVacancy[];
  private position = 0;
  private sequence = 0;
  private readonly made = new Map<PlatformChangeType, number>();

  constructor(
    seeded: readonly SeededCompany[],
    private readonly options: StreamOptions,
    /** Companies whose sample cards are set aside for latency samples, and how many cards each. */
    sampling: { readonly companies: readonly number[]; readonly cardsEach: number } = { companies: [], cardsEach: 0 },
  ) {
    this.random = new SeededRandom(options.seed);
    this.contentVacancies = demoVacancies(new SeededRandom(options.seed ^ 0x5eed), CONTENT_VACANCIES);
    this.companies = seeded.map((company, index) => {
      const vacancies = new Map<string, VacancyModel>();
      for (const v of company.vacancies) {
        vacancies.set(v.id, { id: v.id, version: 0, columns: v.columns, extraColumn: false, input: this.vacancyContent(v.status), lastTargeted: -Infinity, deleted: false });
      }
      const cards: CardModel[] = company.cards.map((c) => ({ id: c.id, vacancy: c.vacancyId === null ? null : (vacancies.get(c.vacancyId) ?? null), stage: c.stage, version: 0 }));
      const sampleCount = sampling.companies.includes(index) ? Math.min(sampling.cardsEach, Math.floor(cards.length / 2)) : 0;
      const sampleCards = cards.splice(cards.length - sampleCount, sampleCount);
      return { id: company.id, key: company.key, vacancies: [...vacancies.values()], cards, freshVacancies: [], freshCards: [], sampleCards, nextSample: 0 };
    });
    let sum = 0;
    this.cumulative = companyWeights(this.companies.length).map((w) => (sum += w));
    let mixSum = 0;
    this.mixCumulative = FEED_MIX.map(([, share]) => (mixSum += share));
  }

  /** How many events of each type were made so far. */
  counts(): Record<string, number> {
    return Object.fromEntries(this.made);
  }

  /** The next `count` events of the mix; afterwards, what they made may be touched. */
  segment(count: number, onEvent?: (event: FeedEvent) => void): FeedEvent[] {
    const events: FeedEvent[] = [];
    for (let i = 0; i < count; i++) {
      const event = this.next();
      events.push(event);
      onEvent?.(event);
    }
    this.settle();
    return events;
  }

  /**
   * The next event of the mix; a resume update that falls to a company with sample cards becomes a latency
   * sample: the next of its sample cards, a unique marker in the role.
   */
  next(): FeedEvent {
    const company = this.companies[this.pickIndex(this.cumulative)] as CompanyModel;
    const wanted = (FEED_MIX[this.pickIndex(this.mixCumulative)] as (typeof FEED_MIX)[number])[0];
    const event = this.make(company, wanted) ?? this.make(company, 'vacancy.upserted');
    if (event === null) throw new Error(`company ${company.id} has nothing left to change`);
    this.position++;
    this.made.set(event.type, (this.made.get(event.type) ?? 0) + 1);
    this.check(event);
    return event;
  }

  private check(event: FeedEvent): void {
    if (!this.options.validate) return;
    const parsed = parsePlatformEvent(event.body);
    if (!parsed.ok) throw new Error(`the bench made an invalid ${event.type} event: ${parsed.reason}: ${parsed.detail}`);
  }

  /** One event of `type` for the company at `index` (the SQL probe's: one of each type). */
  nextOf(type: PlatformChangeType, index = 0): FeedEvent {
    const event = this.make(this.companies[index] as CompanyModel, type);
    if (event === null) throw new Error(`no ${type} event can be made for company ${index}`);
    this.position++;
    this.check(event);
    return event;
  }

  /** What the last segment made becomes something later events may touch. */
  settle(): void {
    for (const company of this.companies) {
      company.vacancies.push(...company.freshVacancies.splice(0));
      company.cards.push(...company.freshCards.splice(0));
    }
  }

  private make(company: CompanyModel, type: PlatformChangeType): FeedEvent | null {
    switch (type) {
      case 'candidate.resume-updated': {
        if (company.sampleCards.length > 0) return this.sample(company);
        const card = this.pick(company.cards);
        if (card === undefined) return null;
        return this.event(company, type, card.id, ++card.version, this.content(card.vacancy).resume);
      }
      case 'candidate.moved': {
        // A card without vacancy stands in no column; one on a one-column board cannot move.
        const card = this.pickWhere(company.cards, (c) => c.vacancy !== null && c.vacancy.columns.length > 1);
        if (card === undefined) return null;
        const columns = (card.vacancy as VacancyModel).columns.filter((c) => c !== card.stage);
        card.stage = this.random.pick(columns);
        return this.event(company, type, card.id, ++card.version, { stage: card.stage });
      }
      case 'vacancy.upserted': {
        if (this.random.chance(NEW_VACANCY_SHARE) || company.vacancies.length === 0) {
          const vacancy: VacancyModel = {
            id: v7(), version: 1, columns: DEFAULT_BOARD_COLUMNS, extraColumn: false,
            input: this.vacancyContent(this.random.chance(0.7) ? 'open' : 'draft'), lastTargeted: -Infinity, deleted: false,
          };
          company.freshVacancies.push(vacancy);
          return this.event(company, type, vacancy.id, vacancy.version, vacancyData(vacancy.input));
        }
        const vacancy = this.pick(company.vacancies) as VacancyModel;
        // A new version of the same vacancy: same status, another salary, count and text.
        vacancy.input = { ...this.vacancyContent(vacancy.input.status), status: vacancy.input.status };
        return this.event(company, type, vacancy.id, ++vacancy.version, vacancyData(vacancy.input));
      }
      case 'candidate.added': {
        const vacancy = this.pick(company.vacancies);
        if (vacancy === undefined) return null;
        vacancy.lastTargeted = this.position;
        const content = this.content(vacancy);
        // The platform names the column it placed the card in: mostly the first ones of the funnel.
        const stage = this.random.pick(vacancy.columns.slice(0, 3));
        const card: CardModel = { id: v7(), vacancy, stage, version: 1 };
        company.freshCards.push(card);
        return this.event(company, type, card.id, 1, { vacancyId: vacancy.id, candidate: content.person, resume: content.resume, referral: content.referral, stage });
      }
      case 'application.submitted': {
        const vacancy = this.pick(company.vacancies);
        if (vacancy === undefined) return null;
        vacancy.lastTargeted = this.position;
        const content = this.content(vacancy);
        const externalId = `${FEED_EXTERNAL_ID_PREFIX}${this.options.runTag}-${this.sequence++}`;
        const p = content.person;
        const data = {
          externalId, vacancyId: vacancy.id, source: this.random.pick(APPLICATION_SOURCES),
          candidate: { name: p.name, email: p.email, phone: p.phone, location: p.location, birthDate: p.birthDate },
          coverLetter: this.random.chance(0.6) ? 'Здравствуйте! Меня заинтересовала ваша вакансия. Резюме прилагаю.' : null,
          resume: content.resume, referral: content.referral,
        };
        // The body of POST /applications, whose schema takes no nulls: what is not known is left out.
        return this.event(company, type, externalId, null, withoutNulls(data));
      }
      case 'board.columns-set': {
        const vacancy = this.pick(company.vacancies);
        if (vacancy === undefined) return null;
        vacancy.extraColumn = !vacancy.extraColumn;
        const columns = vacancy.extraColumn ? [...vacancy.columns, EXTRA_COLUMN] : [...vacancy.columns];
        return this.event(company, type, vacancy.id, ++vacancy.version, { columns });
      }
      case 'candidate.deleted': {
        const card = this.take(company.cards);
        if (card === undefined) return null;
        return this.event(company, type, card.id, ++card.version, undefined);
      }
      case 'vacancy.deleted': {
        const index = this.indexWhere(company.vacancies, (v) => this.position - v.lastTargeted > DELETE_COOL_DOWN);
        if (index === -1) return this.make(company, 'candidate.deleted');
        const vacancy = this.removeAt(company.vacancies, index);
        vacancy.deleted = true;
        // Its cards stay, without vacancy (the service detaches them): no more moves for them.
        for (const card of [...company.cards, ...company.freshCards, ...company.sampleCards]) if (card.vacancy === vacancy) card.vacancy = null;
        return this.event(company, type, vacancy.id, ++vacancy.version, undefined);
      }
      case 'candidate.transferred':
      case 'candidate.detached':
        return null;
    }
  }

  private sample(company: CompanyModel): FeedEvent {
    const card = company.sampleCards[company.nextSample++ % company.sampleCards.length] as CardModel;
    const marker = `${this.options.runTag}-${this.sequence++}`;
    const resume = this.content(card.vacancy).resume;
    const event = this.event(company, 'candidate.resume-updated', card.id, ++card.version, { ...resume, role: `${resume.role ?? 'Специалист'} ⟨${marker}⟩` });
    return { ...event, marker };
  }

  private event(company: CompanyModel, type: PlatformChangeType, subject: string, version: number | null, data: unknown): FeedEvent {
    const id = v7();
    const envelope = {
      specversion: '1.0', id, source: FEED_SOURCE, type, time: new Date().toISOString(), subject, datacontenttype: 'application/json',
      companyid: company.id, ...(version === null ? {} : { entityversion: version }), ...(data === undefined ? {} : { data }),
    };
    return { id, type, companyId: company.id, body: JSON.stringify(envelope) };
  }

  /** A person, resume and referral as the demo seed makes them, for a card of `vacancy` (or of any trade). */
  private content(vacancy: VacancyModel | null) {
    const demo = this.random.pick(this.contentVacancies);
    const { load } = demoCandidate(this.random, { ...demo, id: vacancy?.id ?? 'none' }, this.sequence++, 'hh');
    return { person: load.person, resume: load.resume as Resume, referral: load.referral };
  }

  private vacancyContent(status: string): VacancyInput {
    const { input } = this.random.pick(this.contentVacancies);
    return { ...input, status: status as VacancyInput['status'], positionsCount: this.random.between(1, 5) };
  }

  private pickIndex(cumulative: readonly number[]): number {
    const roll = this.random.next() * (cumulative[cumulative.length - 1] as number);
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] as number) > roll) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  private pick<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : items[this.random.int(items.length)];
  }

  /** A random item that passes, trying a few at random before a scan. */
  private pickWhere<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
    const index = this.indexWhere(items, test);
    return index === -1 ? undefined : items[index];
  }

  private indexWhere<T>(items: readonly T[], test: (item: T) => boolean): number {
    for (let tries = 0; tries < 8 && items.length > 0; tries++) {
      const index = this.random.int(items.length);
      if (test(items[index] as T)) return index;
    }
    return items.findIndex(test);
  }

  /** Takes a random item out (the last one fills its place). */
  private take<T>(items: T[]): T | undefined {
    return items.length === 0 ? undefined : this.removeAt(items, this.random.int(items.length));
  }

  private removeAt<T>(items: T[], index: number): T {
    const item = items[index] as T;
    const last = items.pop() as T;
    if (index < items.length) items[index] = last;
    return item;
  }
}

/** The data of vacancy.upserted: the vacancy's fields but sourceRef (the platform's own vacancies have none). */
function vacancyData(input: VacancyInput): Omit<VacancyInput, 'sourceRef'> {
  const { sourceRef: _sourceRef, ...data } = input;
  return data;
}

/** A copy without the fields whose value is null, at every depth (array items are kept). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
}
