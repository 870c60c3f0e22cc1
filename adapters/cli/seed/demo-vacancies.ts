import type { VacancyUpsert } from '../../../application/use-cases/upsert-vacancies.use-case.js';
import { DEFAULT_BOARD_COLUMNS } from '../../../domain/board/board.js';
import { VACANCY_STATUSES, type VacancyStatus } from '../../../domain/vacancy/vacancy-status.js';
import {
  CUSTOM_COLUMNS, EMPLOYMENT_FORMS, EXPERIENCE_LEVELS, KAZAKHSTAN, RECRUITERS, SCHEDULES, TRADES, UZBEKISTAN, WORK_FORMAT_SETS,
  type Country, type Trade,
} from './demo-vocabulary.js';
import type { SeededRandom } from './seeded-random.js';

export interface DemoVacancy {
  readonly input: VacancyUpsert;
  readonly country: Country;
  readonly trade: Trade;
  /** The board's columns: custom for some vacancies, the default ones otherwise. */
  readonly columns: readonly string[];
  readonly customBoard: boolean;
  /** How many candidates it draws, relative to the others: open vacancies draw the most. */
  readonly appeal: number;
}

const STATUS_WEIGHTS: Readonly<Record<VacancyStatus, number>> = { open: 12, paused: 2, closed: 2, archived: 2, draft: 1 };
const STATUS_APPEAL: Readonly<Record<VacancyStatus, number>> = { open: 5, paused: 3, closed: 3, archived: 2, draft: 0.2 };
const PUBLISHED_FROM = Date.UTC(2026, 5, 1, 4, 0, 0);

/** The vacancies of the demo company; the first five have one status each, so every status appears. */
export function demoVacancies(random: SeededRandom, count: number): DemoVacancy[] {
  const weights = VACANCY_STATUSES.map((s) => STATUS_WEIGHTS[s]);
  return Array.from({ length: count }, (_, i) => {
    const status = i < VACANCY_STATUSES.length ? (VACANCY_STATUSES[i] as VacancyStatus) : (VACANCY_STATUSES[random.weighted(weights)] as VacancyStatus);
    const country = i % 2 === 0 ? KAZAKHSTAN : UZBEKISTAN;
    const trade = random.pick(TRADES);
    const customBoard = i % 3 === 1;
    return {
      input: vacancyInput(random, i, status, country, trade),
      country,
      trade,
      columns: customBoard ? (CUSTOM_COLUMNS[i % CUSTOM_COLUMNS.length] as readonly string[]) : DEFAULT_BOARD_COLUMNS,
      customBoard,
      appeal: STATUS_APPEAL[status] * (0.5 + random.next()),
    };
  });
}

function vacancyInput(random: SeededRandom, i: number, status: VacancyStatus, country: Country, trade: Trade): VacancyUpsert {
  const city = random.pick(country.regions);
  const [low, high] = trade.salary;
  const from = roundTo(random.between(low, (low + high) / 2) * country.salaryFactor, country.salaryStep);
  const to = roundTo(random.between((low + high) / 2, high) * country.salaryFactor, country.salaryStep);
  const salaryShape = random.int(6);
  const published = status === 'draft' ? null : new Date(PUBLISHED_FROM + random.int(150 * 24) * 3_600_000);
  const fromBoard = status !== 'draft' && random.chance(0.5);
  return {
    title: trade.title,
    status,
    city,
    officeAddress: random.chance(0.6) ? `${city}, ${random.pick(STREETS)}, ${random.between(1, 180)}` : null,
    experience: random.pick(EXPERIENCE_LEVELS),
    workFormats: [...random.pick(WORK_FORMAT_SETS)],
    // Some vacancies name no salary, some only an upper bound (then salaryFrom = salaryTo), most a range.
    salaryFrom: salaryShape === 0 ? null : salaryShape === 1 ? null : from,
    salaryTo: salaryShape === 0 ? null : to,
    salaryCurrency: salaryShape === 0 ? null : country.currency,
    salaryGross: salaryShape === 0 ? null : random.chance(0.3),
    employmentForm: random.pick(EMPLOYMENT_FORMS),
    workSchedule: random.some(SCHEDULES, random.between(1, 2)),
    skills: random.some(trade.skills, random.between(2, trade.skills.length)),
    languages: random.chance(0.4) ? ['Английский (B1 — Средний)'] : [],
    professionalRoles: [trade.professionalRole],
    description: descriptionOf(trade, country, random),
    positionsCount: random.chance(0.8) ? 1 : random.between(2, 5),
    sourceUrl: fromBoard ? `https://${country.boardHost}/vacancy/${118_000_000 + i}` : null,
    publishedAt: published,
    recruiter: random.pick(RECRUITERS),
    sourceRef: null,
  };
}

const STREETS = ['проспект Абая', 'улица Толе би', 'проспект Мангилик Ел', 'улица Амира Темура', 'улица Навои', 'улица Бабура'];

/** HTML as a job board carries it, entities included; responsibilities become its text. */
function descriptionOf(trade: Trade, country: Country, random: SeededRandom): string {
  const duties = trade.duties.map((d) => `<li>${escapeHtml(d)}</li>`).join('');
  const skills = trade.skills.slice(0, 3).map((s) => `<li>${escapeHtml(s)}</li>`).join('');
  const perk = random.pick(['официальное оформление &amp; ДМС', 'обучение за счёт компании', 'офис в центре — 5 минут от метро', 'обеды &laquo;за счёт компании&raquo;']);
  return `<p><strong>Обязанности:</strong></p><ul>${duties}</ul><p><strong>Требования:</strong></p><ul>${skills}</ul>` +
    `<p>Мы предлагаем: ${perk}. Работа в ${country.code === 'kz' ? 'Казахстане' : 'Узбекистане'}.</p>`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function roundTo(value: number, step: number): number {
  return Math.round(value / step) * step;
}
