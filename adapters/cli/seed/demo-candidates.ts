import type { CandidateToLoad, CardOrigin } from '../../../application/use-cases/import-candidate-batch.use-case.js';
import type { Person, Referral } from '../../../domain/candidate/person.js';
import type { ExperienceItem, Resume } from '../../../domain/candidate/resume.js';
import type { DemoVacancy } from './demo-vacancies.js';
import {
  APPLICATION_SOURCES, COURSES, LANGUAGE_LEVELS, RELATIONSHIPS, TRADES, type Country, type Name, type NamePool, type Trade,
} from './demo-vocabulary.js';
import type { SeededRandom } from './seeded-random.js';

export type DemoOrigin = 'job-board' | 'application' | 'manual';

export interface DemoCandidate {
  readonly load: CandidateToLoad;
  readonly origin: DemoOrigin;
}

interface DemoPerson {
  readonly first: Name;
  readonly last: Name;
  readonly female: boolean;
}

/** Earlier columns hold more cards, as in a real funnel; the last (rejection) column holds a fair share. */
function stageOf(random: SeededRandom, columns: readonly string[]): string {
  const weights = columns.map((_, i) => (i === columns.length - 1 ? 2 : Math.max(0.3, 6 - i * 1.5)));
  return columns[random.weighted(weights)] as string;
}

/** The `sequence`-th candidate of the data set, applying to `vacancy` (whose id is known by then). */
export function demoCandidate(random: SeededRandom, vacancy: DemoVacancy & { readonly id: string }, sequence: number, jobBoardLabel: string): DemoCandidate {
  const { country } = vacancy;
  const who = personOf(random, country);
  const roll = random.next();
  const origin: DemoOrigin = roll < 0.45 ? 'job-board' : roll < 0.8 ? 'application' : 'manual';
  const boardId = random.hex(38);
  const person = personRecord(random, who, country, sequence, origin);
  const referral = origin !== 'job-board' && random.chance(0.12) ? referralOf(random, country) : null;
  const cardOrigin: CardOrigin =
    origin === 'job-board'
      ? { kind: 'job-board', source: jobBoardLabel, sourceRef: `${jobBoardLabel}:${boardId}` }
      : origin === 'application'
        ? { kind: 'application', externalId: `demo-${sequence}`, source: random.pick(APPLICATION_SOURCES), coverLetter: coverLetterOf(random, vacancy.trade.title) }
        : { kind: 'manual' };
  return {
    origin,
    load: {
      vacancyId: vacancy.id,
      stage: stageOf(random, vacancy.columns),
      origin: cardOrigin,
      person,
      resume: resumeOf(random, vacancy, origin === 'job-board' ? `https://${country.boardHost}/resume/${boardId}` : null),
      referral,
    },
  };
}

function personOf(random: SeededRandom, country: Country): DemoPerson {
  const pool: NamePool = random.pick(country.pools);
  const female = random.chance(0.5);
  const first = random.pick(female ? pool.female : pool.male);
  const plain = random.chance(0.15) && pool.plain.length > 0;
  const [lastCyr, lastLat] = plain ? random.pick(pool.plain) : random.pick(pool.last);
  const last: Name = female && !plain ? [`${lastCyr}а`, `${lastLat}a`] : [lastCyr, lastLat];
  return { first, last, female };
}

function personRecord(random: SeededRandom, who: DemoPerson, country: Country, sequence: number, origin: DemoOrigin): Person {
  // The job board writes "Last First", as its importer keeps it; recruiters and portals write "First Last".
  const name = origin === 'job-board' ? `${who.last[0]} ${who.first[0]}` : `${who.first[0]} ${who.last[0]}`;
  const fromApi = origin === 'application';
  return {
    name,
    email: random.chance(0.9) ? `${who.first[1]}.${who.last[1]}${sequence}@${country.mailDomain}` : null,
    phone: random.chance(0.85) ? phoneOf(random, country) : null,
    location: random.pick(country.regions),
    birthDate: random.chance(0.7) ? `${random.between(1968, 2005)}-${pad(random.between(1, 12))}-${pad(random.between(1, 28))}` : null,
    // The application endpoint carries neither gender nor citizenship.
    gender: fromApi ? null : who.female ? 'Женский' : 'Мужской',
    citizenship: fromApi ? [] : [country.name],
  };
}

function phoneOf(random: SeededRandom, country: Country): string {
  const digits = (n: number) => String(random.int(10 ** n)).padStart(n, '0');
  return country.code === 'kz'
    ? `+7 (7${random.pick(['01', '02', '05', '07', '47', '77'])}) ${digits(3)}-${digits(2)}-${digits(2)}`
    : `+998 ${random.pick(['90', '91', '93', '94', '97', '99'])} ${digits(3)}-${digits(2)}-${digits(2)}`;
}

function resumeOf(random: SeededRandom, vacancy: DemoVacancy, sourceUrl: string | null): Resume {
  const { country } = vacancy;
  // Most people apply within their trade; some switch careers.
  const trade = random.chance(0.8) ? vacancy.trade : random.pick(TRADES);
  const years = random.between(0, 18);
  const experience = jobsOf(random, years, country, trade);
  const graduated = 2026 - years - random.between(0, 2);
  const salary = random.chance(0.7) ? Math.round((random.between(trade.salary[0], trade.salary[1]) * country.salaryFactor) / 10_000) * 10_000 : null;
  const course = random.chance(0.25) ? random.pick(COURSES) : null;
  return {
    role: trade.role,
    summary: random.pick([years === 0 ? 'Ищу первую работу.' : `Опыт работы — ${years} ${yearsWord(years)}.`, 'Ответственный, быстро обучаюсь.', 'Ищу работу рядом с домом.', null]),
    experienceYears: years,
    skills: random.some(trade.skills, random.between(1, trade.skills.length)),
    skillsDescription: null,
    experience,
    education: random.chance(0.8) ? [{ institution: random.pick(country.universities), degree: random.pick(['Бакалавр', 'Магистр', 'Специалист']), period: `${graduated - 4} — ${graduated}` }] : [],
    additionalEducation: course === null ? [] : [{ institution: course[1], course: course[0], result: 'Сертификат', period: String(random.between(2018, 2026)) }],
    languages: [
      { name: country.nativeLanguage, level: 'Родной' },
      { name: 'Русский', level: random.pick(['Родной', 'C1 — Продвинутый']) },
      ...(random.chance(0.4) ? [{ name: 'Английский', level: random.pick(LANGUAGE_LEVELS) }] : []),
    ],
    certificates: [],
    portfolio: [],
    expectedSalary: salary,
    expectedSalaryCurrency: salary === null ? null : country.currency,
    preferredWorkFormat: random.some(['Полный день', 'Удаленная работа', 'Гибкий график', 'Сменный график'], random.between(1, 2)),
    preferredEmployment: random.pick(['Полная занятость', 'Частичная занятость', null]),
    relocation: random.pick(['не могу переехать', 'могу переехать', 'хочу переехать', null]),
    sourceUrl,
  };
}

/** Up to three jobs that together span the years of experience, the latest one still held. */
function jobsOf(random: SeededRandom, years: number, country: Country, trade: Trade): ExperienceItem[] {
  if (years === 0) return [];
  const jobs = Math.min(years, random.between(1, 3));
  const items: ExperienceItem[] = [];
  let endMonth = NOW_MONTH;
  for (let i = 0; i < jobs; i++) {
    const months = i === jobs - 1 ? years * 12 - (NOW_MONTH - endMonth) : random.between(6, Math.max(6, Math.floor((years * 12) / jobs)));
    const startMonth = endMonth - Math.max(1, months);
    items.push({
      company: random.pick(country.employers),
      role: trade.role,
      period: `${monthText(startMonth)} — ${i === 0 ? 'now' : monthText(endMonth)}`,
      description: random.pick(trade.duties),
    });
    endMonth = startMonth;
  }
  return items;
}

/** Months counted from year 0, so that periods are plain arithmetic. */
const NOW_MONTH = 2026 * 12 + 9;

function monthText(month: number): string {
  return `${Math.floor(month / 12)}-${pad((month % 12) + 1)}`;
}

/** год, года, лет: the Russian plural after a number. */
function yearsWord(n: number): string {
  const tens = n % 100;
  const ones = n % 10;
  if (tens >= 11 && tens <= 14) return 'лет';
  if (ones === 1) return 'год';
  return ones >= 2 && ones <= 4 ? 'года' : 'лет';
}

function referralOf(random: SeededRandom, country: Country): Referral {
  const who = personOf(random, country);
  return {
    name: `${who.first[0]} ${who.last[0]}`,
    email: random.chance(0.7) ? `${who.first[1]}.${who.last[1]}@${country.mailDomain}` : null,
    phone: random.chance(0.5) ? phoneOf(random, country) : null,
    company: random.chance(0.8) ? random.pick(country.employers) : null,
    relationship: random.pick(RELATIONSHIPS),
  };
}

function coverLetterOf(random: SeededRandom, title: string): string | null {
  if (random.chance(0.4)) return null;
  return `Здравствуйте! Меня заинтересовала вакансия «${title}». ${random.pick(['Готов приступить сразу.', 'Буду рад обсудить детали.', 'Резюме прилагаю.'])}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
