import { codePointLength } from '../../domain/shared/text-rules.js';
import { parseSince } from '../../domain/paging/since.js';
import { VACANCY_STATUS_FILTERS, type VacancyStatusFilter } from '../../domain/vacancy/vacancy-status.js';
import { validationProblem, type ProblemItem } from './problem.js';
import { fieldsParameter, limitParameter, statusParameter, vacancyIdParameter } from './schemas/query-parameters.schema.js';
import type { ListFields } from '../../domain/paging/cursor.js';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../json/storable-text.js';

const DIGITS = /^[0-9]+$/;
/** Unknown names reported at most, so that a query string of thousands of names does not make a huge answer. */
const MAX_REPORTED_UNKNOWN = 20;
/** `+05:00` sent unencoded arrives as ` 05:00`: refused (the document cannot admit it), with a hint. */
const SPACE_FOR_PLUS_OFFSET = /[0-9] [0-9]{2}:?[0-9]{2}$/;

/**
 * Reads list parameters strictly and collects every problem before failing. Problems point at
 * `/<parameter>`, as if the query string were an object of parameters, and name the parameter.
 * A parameter the operation does not know is a problem too: a misspelt filter (`stauts=open`) would
 * otherwise answer as if it had not been sent, and the client would never learn.
 */
export class ListQueryReader {
  private readonly params: URLSearchParams;
  private readonly problems: ProblemItem[] = [];

  /** `known`: the query parameters of the operation, as its OpenAPI document lists them. */
  constructor(querystring: string, known: readonly string[]) {
    this.params = new URLSearchParams(querystring);
    this.problems.push(...unknownParameterProblems(this.params, known));
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

  fields(): ListFields {
    const raw = this.single('fields');
    if (raw === undefined) return 'all';
    if (!(fieldsParameter.schema.enum as readonly string[]).includes(raw)) this.fail('fields', `must be ${fieldsParameter.schema.enum.join(', ')} (or left out for whole records)`);
    return raw === 'id' ? 'id' : 'all';
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
    this.problems.push(parameterProblem(parameter, message));
  }
}

/** A 400 naming every query parameter of the request that is not one of `known` (an operation without any: `[]`). */
export function refuseUnknownParameters(querystring: string, known: readonly string[]): void {
  const problems = unknownParameterProblems(new URLSearchParams(querystring), known);
  if (problems.length > 0) throw validationProblem('The query string failed validation.', problems);
}

/** A problem for every parameter in `params` that is not one of `known` (at most MAX_REPORTED_UNKNOWN of them). */
export function unknownParameterProblems(params: URLSearchParams, known: readonly string[]): ProblemItem[] {
  const message = known.length === 0 ? 'is not a parameter: this operation takes none' : `is not a parameter of this operation, which takes ${known.join(', ')}`;
  const unknown = new Set([...params.keys()].filter((name) => !known.includes(name)));
  return [...unknown].slice(0, MAX_REPORTED_UNKNOWN).map((name) => parameterProblem(name, message));
}

/** `/<name>` as a JSON Pointer (RFC 6901): `~` and `/` in a name are escaped, so the pointer names it exactly. */
export function parameterProblem(parameter: string, message: string): ProblemItem {
  return { pointer: `/${parameter.replaceAll('~', '~0').replaceAll('/', '~1')}`, parameter, message };
}
