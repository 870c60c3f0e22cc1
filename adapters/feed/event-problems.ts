import type { ErrorObject } from 'ajv';
import { CALENDAR_DATE_PATTERN } from '../../domain/candidate/candidate-rules.js';
import { EMAIL_ADDRESS_PATTERN } from '../../domain/candidate/email-address.js';
import { SINCE_DATE_TIME_PATTERN } from '../../domain/paging/since.js';
import { pointerToken } from '../../domain/shared/domain-error.js';
import { NON_BLANK_TEXT_PATTERN } from '../../domain/shared/text-patterns.js';
import type { JsonProblem } from '../json/json-problem.js';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../json/storable-text.js';
import { JSON_MEDIA_TYPE_PATTERN } from './schemas/platform-event.schema.js';

/** One thing wrong with an event: where (a JSON Pointer into the event) and which rule it breaks; never a value. */
export type EventProblem = JsonProblem;

/** Details go into logs and the headers of dead letters: short enough for both. */
export const DETAIL_MAX_LENGTH = 1000;

const DATE_TIME_MESSAGE = 'must be an RFC 3339 date-time with a time zone';
const DATE_MESSAGE = 'must be a date, YYYY-MM-DD';

/** ajv's errors in words a publisher can act on; the value at fault is looked at, never quoted. */
export function problemsOfSchemaErrors(errors: readonly ErrorObject[]): EventProblem[] {
  // An empty string also breaks its pattern; "must not be empty" says it all.
  const empty = new Set(errors.filter((e) => e.keyword === 'minLength').map((e) => e.instancePath));
  const seen = new Set<string>();
  const problems: EventProblem[] = [];
  for (const error of errors) {
    if (error.keyword === 'pattern' && empty.has(error.instancePath)) continue;
    const problem = problemOf(error);
    const identity = `${problem.pointer}\n${problem.message}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    problems.push(problem);
  }
  return problems;
}

function problemOf(error: ErrorObject): EventProblem {
  const at = error.instancePath;
  const params = error.params as Record<string, unknown>;
  const limit = String(params.limit);
  switch (error.keyword) {
    case 'required':
      return { pointer: `${at}/${pointerToken(String(params.missingProperty))}`, message: 'is required' };
    case 'type':
      return { pointer: at, message: `must be ${typeWords(params.type)}` };
    case 'minLength':
      return { pointer: at, message: params.limit === 1 ? 'must not be empty' : `must be at least ${limit} characters` };
    case 'maxLength':
      return { pointer: at, message: `must be at most ${limit} characters` };
    case 'minItems':
      return { pointer: at, message: `must have at least ${limit} item${params.limit === 1 ? '' : 's'}` };
    case 'maxItems':
      return { pointer: at, message: `must have at most ${limit} items` };
    case 'uniqueItems': {
      const [first, second] = [Number(params.i), Number(params.j)].sort((a, b) => a - b);
      return { pointer: at, message: `must not repeat an item (items ${String(first)} and ${String(second)} are equal)` };
    }
    case 'minimum':
      return { pointer: at, message: `must be at least ${limit}` };
    case 'maximum':
      return { pointer: at, message: `must be at most ${limit}` };
    case 'enum':
      return { pointer: at, message: `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}` };
    case 'const':
      return { pointer: at, message: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'pattern':
      return { pointer: at, message: patternMessage(String(params.pattern), error.data) };
    case 'format':
      return { pointer: at, message: formatMessage(String(params.format)) };
    default:
      return { pointer: at, message: `breaks the rule "${error.keyword}" of the schema` };
  }
}

function patternMessage(pattern: string, value: unknown): string {
  if (typeof value === 'string' && !isStorableText(value)) return UNSTORABLE_TEXT_MESSAGE;
  switch (pattern) {
    case EMAIL_ADDRESS_PATTERN:
      return 'must be an e-mail address';
    case NON_BLANK_TEXT_PATTERN:
      return 'must not be blank';
    case CALENDAR_DATE_PATTERN:
      return DATE_MESSAGE;
    case SINCE_DATE_TIME_PATTERN:
      return DATE_TIME_MESSAGE;
    case JSON_MEDIA_TYPE_PATTERN:
      return 'must be application/json';
    default:
      return 'does not have the form the schema gives';
  }
}

function formatMessage(format: string): string {
  if (format === 'date') return DATE_MESSAGE;
  if (format === 'date-time') return DATE_TIME_MESSAGE;
  if (format === 'uri-reference') return 'must be a URI reference';
  return `must be of the format ${format}`;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  object: 'an object',
  array: 'an array',
  boolean: 'a boolean',
  null: 'null',
};

function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type : String(type).split(',');
  return types.map((t) => TYPE_WORDS[String(t)] ?? String(t)).join(' or ');
}

/** The longest note of problems left out: "; and 99999 more". */
const LEFT_OUT_NOTE_MAX_LENGTH = 18;

/**
 * The problems in one line, `<pointer>: <rule>; ...`, cut to DETAIL_MAX_LENGTH with a count of those left out.
 * The pointer "" (the whole event) reads as "(event)".
 */
export function describeProblems(problems: readonly EventProblem[], maxLength = DETAIL_MAX_LENGTH): string {
  const parts: string[] = [];
  let length = -2;
  for (const [index, { pointer, message }] of problems.entries()) {
    const part = `${pointer === '' ? '(event)' : pointer}: ${message}`;
    const room = index === problems.length - 1 ? maxLength : maxLength - LEFT_OUT_NOTE_MAX_LENGTH;
    if (length + 2 + part.length > room) {
      const note = `and ${problems.length - index} more`;
      return (parts.length === 0 ? note : `${parts.join('; ')}; ${note}`).slice(0, maxLength);
    }
    parts.push(part);
    length += 2 + part.length;
  }
  return parts.join('; ');
}
