import { codePointLength } from '../../domain/shared/text-rules.js';
import { parseSince } from '../../domain/paging/since.js';
import { VACANCY_STATUS_FILTERS, type VacancyStatusFilter } from '../../domain/vacancy/vacancy-status.js';
import { validationProblem, type ProblemItem } from './problem.js';
import { limitParameter, statusParameter, vacancyIdParameter } from './schemas/query-parameters.schema.js';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from './storable-text.js';

const DIGITS = /^[0-9]+$/;
/** `+05:00` sent unencoded arrives as ` 05:00`: refused (the document cannot admit it), with a hint. */
const SPACE_FOR_PLUS_OFFSET = /[0-9] [0-9]{2}:?[0-9]{2}$/;

/**
 * Reads list parameters strictly and collects every problem before failing. Problems point at
 * `/<parameter>`, as if the query string were an object of parameters, and name the parameter.
 * Parameters the API does not know are ignored, so that clients written for a later v1 keep working.
 */
export class ListQueryReader {
  private readonly params: URLSearchParams;
  private readonly problems: ProblemItem[] = [];

  constructor(querystring: string) {
    this.params = new URLSearchParams(querystring);
  }

  limit(): number {
    const raw = this.single('limit');
    if (raw === undefined) return limitParameter.schema.default;
    const { minimum, maximum } = limitParameter.schema;
    const value = DIGITS.test(raw) ? Number(raw) : Number.NaN;
    if (!(value >= minimum && value <= maximum)) this.fail('limit', `must be a whole number from ${minimum} to ${maximum}`);
    return value;
  }

  since(): Date | null {
    const raw = this.single('since');
    if (raw === undefined) return null;
    const value = parseSince(raw);
    if (value === undefined) {
      const hint = SPACE_FOR_PLUS_OFFSET.test(raw) ? ' (send the "+" of an offset as %2B: a bare "+" is a space)' : '';
      this.fail('since', `must be an RFC 3339 date-time with a time zone, or a date YYYY-MM-DD${hint}`);
    }
    return value ?? null;
  }

  cursor(): string | null {
    const raw = this.single('cursor');
    // An empty cursor is the first page, like an absent one: a client may send `cursor=` before it has one.
    return raw === undefined || raw === '' ? null : raw;
  }

  status(): VacancyStatusFilter {
    const raw = this.single('status');
    if (raw === undefined) return statusParameter.schema.default;
    if (!(VACANCY_STATUS_FILTERS as readonly string[]).includes(raw)) this.fail('status', `must be one of ${VACANCY_STATUS_FILTERS.join(', ')}`);
    return raw as VacancyStatusFilter;
  }

  vacancyId(): string | null {
    const raw = this.single('vacancyId');
    if (raw === undefined) return null;
    const { minLength, maxLength } = vacancyIdParameter.schema;
    const length = codePointLength(raw);
    if (length < minLength || length > maxLength) this.fail('vacancyId', `must be ${minLength} to ${maxLength} characters long`);
    else if (!isStorableText(raw)) this.fail('vacancyId', UNSTORABLE_TEXT_MESSAGE);
    return raw;
  }

  /** Throws a 400 naming every problem found so far. */
  finish(): void {
    if (this.problems.length > 0) throw validationProblem('The query string failed validation.', this.problems);
  }

  private single(name: string): string | undefined {
    const values = this.params.getAll(name);
    if (values.length <= 1) return values[0];
    // Which of several values is meant cannot be known; the other checks would only repeat the problem.
    this.fail(name, 'must be given at most once');
    return undefined;
  }

  private fail(parameter: string, message: string): void {
    this.problems.push({ pointer: `/${parameter}`, parameter, message });
  }
}
