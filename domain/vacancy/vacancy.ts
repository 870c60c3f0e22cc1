import { ProblemCollector } from '../shared/domain-error.js';
import { checkList, checkText, sameData } from '../shared/text-rules.js';
import { copyDate } from '../shared/time.js';
import { htmlToText } from './html-text.js';
import {
  CURRENCY_MAX_LENGTH,
  POSITIONS_COUNT_MAX,
  PUBLISHED_AT_MAX_YEAR,
  PUBLISHED_AT_MIN_YEAR,
  RECRUITER_MAX_LENGTH,
  VACANCY_DESCRIPTION_MAX_LENGTH,
  VACANCY_LIST_ITEM_MAX_LENGTH,
  VACANCY_LIST_MAX_ITEMS,
  VACANCY_SHORT_TEXT_MAX_LENGTH,
  VACANCY_TITLE_MAX_LENGTH,
  VACANCY_URL_MAX_LENGTH,
} from './vacancy-limits.js';
import { isVacancyStatus, type VacancyStatus } from './vacancy-status.js';
import { isWorkFormat, workFormatFromNames, type WorkFormat } from './work-format.js';

/** What a vacancy says: every field of the API's Vacancy but id and timestamps, plus what the platform keeps. */
export interface VacancyContent {
  readonly title: string;
  readonly status: VacancyStatus;
  readonly city: string | null;
  readonly officeAddress: string | null;
  readonly experience: string | null;
  readonly workFormat: WorkFormat | null;
  readonly workFormats: readonly string[];
  readonly salaryFrom: number | null;
  readonly salaryTo: number | null;
  readonly salaryCurrency: string | null;
  readonly salaryGross: boolean | null;
  readonly employmentForm: string | null;
  readonly workSchedule: readonly string[];
  readonly skills: readonly string[];
  readonly languages: readonly string[];
  readonly professionalRoles: readonly string[];
  readonly description: string | null;
  readonly responsibilities: string | null;
  readonly positionsCount: number | null;
  readonly sourceUrl: string | null;
  readonly publishedAt: Date | null;
  /** The lead recruiter, who owns the vacancy's board. */
  readonly recruiter: string | null;
  /** Where an imported vacancy came from, as `<source>:<board id>`; null for vacancies made on the platform. */
  readonly sourceRef: string | null;
}

/**
 * Input for creating or replacing a vacancy: its title and status; any other field not given (absent, undefined
 * or null) is null, or empty for a list, except `workFormat`, derived from workFormats, and `responsibilities`,
 * from the description's text (given as null, they are null). A source that lacks a new field needs no change.
 */
export type VacancyInput = Pick<VacancyContent, 'title' | 'status'> & {
  readonly [K in Exclude<keyof VacancyContent, 'title' | 'status'>]?: VacancyContent[K] | null | undefined;
};

export interface VacancySnapshot extends VacancyContent {
  readonly id: string;
  readonly companyId: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export class Vacancy {
  private constructor(private state: VacancySnapshot) {}

  /** Checks and normalises the input; throws ValidationError naming every field at fault. */
  static create(params: { id: string; companyId: string; input: VacancyInput; now: Date }): Vacancy {
    const content = normaliseVacancyInput(params.input);
    return new Vacancy({
      ...content,
      id: params.id,
      companyId: params.companyId,
      createdAt: copyDate(params.now),
      updatedAt: copyDate(params.now),
    });
  }

  static restore(snapshot: VacancySnapshot): Vacancy {
    return new Vacancy(copyVacancySnapshot(snapshot));
  }

  get id(): string {
    return this.state.id;
  }

  get companyId(): string {
    return this.state.companyId;
  }

  get title(): string {
    return this.state.title;
  }

  get updatedAt(): Date {
    return copyDate(this.state.updatedAt);
  }

  /** Replaces the whole content, like a PUT. The modification time moves only when something changed. */
  replace(input: VacancyInput, now: Date): boolean {
    const content = normaliseVacancyInput(input);
    const { id, companyId, createdAt, updatedAt, ...current } = this.state;
    if (sameData(current, content)) return false;
    this.state = { ...content, id, companyId, createdAt, updatedAt: copyDate(now) };
    return true;
  }

  toSnapshot(): VacancySnapshot {
    return copyVacancySnapshot(this.state);
  }
}

export function copyVacancySnapshot(s: VacancySnapshot): VacancySnapshot {
  return {
    ...s,
    workFormats: [...s.workFormats],
    workSchedule: [...s.workSchedule],
    skills: [...s.skills],
    languages: [...s.languages],
    professionalRoles: [...s.professionalRoles],
    publishedAt: s.publishedAt === null ? null : copyDate(s.publishedAt),
    createdAt: copyDate(s.createdAt),
    updatedAt: copyDate(s.updatedAt),
  };
}

/** The input with every field but the derived ones given: a list not given is empty, anything else null. */
function given(input: VacancyInput): Omit<VacancyContent, 'workFormat' | 'responsibilities'> & Pick<VacancyInput, 'workFormat' | 'responsibilities'> {
  const list = (values: readonly string[] | null | undefined) => values ?? [];
  return {
    ...input,
    city: input.city ?? null,
    officeAddress: input.officeAddress ?? null,
    experience: input.experience ?? null,
    workFormats: list(input.workFormats),
    salaryFrom: input.salaryFrom ?? null,
    salaryTo: input.salaryTo ?? null,
    salaryCurrency: input.salaryCurrency ?? null,
    salaryGross: input.salaryGross ?? null,
    employmentForm: input.employmentForm ?? null,
    workSchedule: list(input.workSchedule),
    skills: list(input.skills),
    languages: list(input.languages),
    professionalRoles: list(input.professionalRoles),
    description: input.description ?? null,
    positionsCount: input.positionsCount ?? null,
    sourceUrl: input.sourceUrl ?? null,
    publishedAt: input.publishedAt ?? null,
    recruiter: input.recruiter ?? null,
    sourceRef: input.sourceRef ?? null,
  };
}

function normaliseVacancyInput(raw: VacancyInput): VacancyContent {
  const input = given(raw);
  const problems = new ProblemCollector();
  checkText(problems, '/title', input.title, { min: 1, max: VACANCY_TITLE_MAX_LENGTH, required: true });
  if (typeof input.title === 'string' && input.title.trim() === '') problems.add('/title', 'must not be blank');
  if (!isVacancyStatus(input.status)) problems.add('/status', 'must be one of open, paused, closed, archived, draft');
  for (const field of ['city', 'officeAddress', 'experience', 'employmentForm', 'recruiter', 'sourceRef'] as const) {
    const max = field === 'recruiter' ? RECRUITER_MAX_LENGTH : VACANCY_SHORT_TEXT_MAX_LENGTH;
    checkText(problems, `/${field}`, input[field], { max });
  }
  for (const field of ['workFormats', 'workSchedule', 'skills', 'languages', 'professionalRoles'] as const) {
    checkList(problems, `/${field}`, input[field], { maxItems: VACANCY_LIST_MAX_ITEMS, maxLength: VACANCY_LIST_ITEM_MAX_LENGTH });
  }
  checkText(problems, '/description', input.description, { max: VACANCY_DESCRIPTION_MAX_LENGTH });
  checkText(problems, '/responsibilities', input.responsibilities ?? null, { max: VACANCY_DESCRIPTION_MAX_LENGTH });
  checkText(problems, '/sourceUrl', input.sourceUrl, { max: VACANCY_URL_MAX_LENGTH });
  checkText(problems, '/salaryCurrency', input.salaryCurrency, { max: CURRENCY_MAX_LENGTH });
  if (input.workFormat !== undefined && input.workFormat !== null && !isWorkFormat(input.workFormat)) {
    problems.add('/workFormat', 'must be one of remote, office, hybrid, other');
  }
  for (const field of ['salaryFrom', 'salaryTo'] as const) {
    const value = input[field];
    if (value !== null && !(Number.isFinite(value) && value >= 0)) problems.add(`/${field}`, 'must be a number, at least 0');
  }
  if (input.salaryFrom !== null && input.salaryTo !== null && input.salaryFrom > input.salaryTo) {
    problems.add('/salaryFrom', 'must not be greater than salaryTo');
  }
  if (input.positionsCount !== null && !(Number.isInteger(input.positionsCount) && input.positionsCount >= 1 && input.positionsCount <= POSITIONS_COUNT_MAX)) {
    problems.add('/positionsCount', `must be an integer from 1 to ${POSITIONS_COUNT_MAX}`);
  }
  if (input.publishedAt !== null) {
    const year = input.publishedAt.getUTCFullYear();
    if (Number.isNaN(input.publishedAt.getTime())) problems.add('/publishedAt', 'must be a valid date-time');
    else if (year < PUBLISHED_AT_MIN_YEAR || year > PUBLISHED_AT_MAX_YEAR) problems.add('/publishedAt', `must be in the years ${String(PUBLISHED_AT_MIN_YEAR).padStart(4, '0')} to ${PUBLISHED_AT_MAX_YEAR} (UTC)`);
  }
  problems.throwIfAny('The vacancy is invalid.');

  return {
    title: input.title,
    status: input.status,
    city: input.city,
    officeAddress: input.officeAddress,
    experience: input.experience,
    workFormat: input.workFormat === undefined ? workFormatFromNames(input.workFormats) : input.workFormat,
    workFormats: [...input.workFormats],
    // Only an upper bound given at source: salaryFrom equals salaryTo (spec 2.1).
    salaryFrom: input.salaryFrom === null && input.salaryTo !== null ? input.salaryTo : input.salaryFrom,
    salaryTo: input.salaryTo,
    salaryCurrency: input.salaryCurrency,
    salaryGross: input.salaryGross,
    employmentForm: input.employmentForm,
    workSchedule: [...input.workSchedule],
    skills: [...input.skills],
    languages: [...input.languages],
    professionalRoles: [...input.professionalRoles],
    description: input.description,
    responsibilities:
      input.responsibilities === undefined
        ? input.description === null
          ? null
          : htmlToText(input.description)
        : input.responsibilities,
    positionsCount: input.positionsCount,
    sourceUrl: input.sourceUrl,
    publishedAt: input.publishedAt === null ? null : copyDate(input.publishedAt),
    recruiter: input.recruiter,
    sourceRef: input.sourceRef,
  };
}
