import type { ErrorObject } from 'ajv';
import { CALENDAR_DATE_PATTERN } from '../../domain/candidate/candidate-rules.js';
import { EMAIL_ADDRESS_PATTERN } from '../../domain/candidate/email-address.js';
import { SINCE_DATE_TIME_PATTERN } from '../../domain/paging/since.js';
import { pointerToken } from '../../domain/shared/domain-error.js';
import { NON_BLANK_TEXT_PATTERN } from '../../domain/shared/text-patterns.js';
import type { JsonProblem } from './json-problem.js';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from './storable-text.js';

/**
 * ajv's errors in words a person can act on, for every adapter that validates JSON with the schemas (the
 * HTTP API's request bodies, the feed's events): one wording of each rule. The value at fault is looked at,
 * never quoted, so the words are fit for logs and headers.
 */
const DATE_TIME_MESSAGE = 'must be an RFC 3339 date-time with a time zone';
const DATE_MESSAGE = 'must be a date, YYYY-MM-DD';

/** The domain's patterns, in words; an adapter adds its own (`patternWords`). */
const COMMON_PATTERN_WORDS: ReadonlyMap<string, string> = new Map([
  [EMAIL_ADDRESS_PATTERN, 'must be an e-mail address'],
  [NON_BLANK_TEXT_PATTERN, 'must not be blank'],
  [CALENDAR_DATE_PATTERN, DATE_MESSAGE],
  [SINCE_DATE_TIME_PATTERN, DATE_TIME_MESSAGE],
]);

export function problemsOfSchemaErrors(errors: readonly ErrorObject[], patternWords: ReadonlyMap<string, string> = new Map()): JsonProblem[] {
  // An empty string also breaks its pattern; "must not be empty" says it all.
  const empty = new Set(errors.filter((e) => e.keyword === 'minLength').map((e) => e.instancePath));
  const seen = new Set<string>();
  const problems: JsonProblem[] = [];
  for (const error of errors) {
    if (error.keyword === 'pattern' && empty.has(error.instancePath)) continue;
    const problem = problemOf(error, patternWords);
    const identity = `${problem.pointer}\n${problem.message}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    problems.push(problem);
  }
  return problems;
}

function problemOf(error: ErrorObject, patternWords: ReadonlyMap<string, string>): JsonProblem {
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
      return { pointer: at, message: patternMessage(String(params.pattern), error.data, patternWords) };
    case 'format':
      return { pointer: at, message: formatMessage(String(params.format)) };
    default:
      return { pointer: at, message: `breaks the rule "${error.keyword}" of the schema` };
  }
}

function patternMessage(pattern: string, value: unknown, patternWords: ReadonlyMap<string, string>): string {
  if (typeof value === 'string' && !isStorableText(value)) return UNSTORABLE_TEXT_MESSAGE;
  return COMMON_PATTERN_WORDS.get(pattern) ?? patternWords.get(pattern) ?? 'does not have the form the schema gives';
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
