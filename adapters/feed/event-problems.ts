import type { ErrorObject } from 'ajv';
import type { JsonProblem } from '../json/json-problem.js';
import { problemsOfSchemaErrors as wordsOfSchemaErrors } from '../json/schema-problems.js';
import { JSON_MEDIA_TYPE_PATTERN } from './schemas/platform-event.schema.js';

/** One thing wrong with an event: where (a JSON Pointer into the event) and which rule it breaks; never a value. */
export type EventProblem = JsonProblem;

/** Details go into logs and the headers of dead letters: short enough for both. */
export const DETAIL_MAX_LENGTH = 1000;

/** The feed's own pattern beside the domain's, in words. */
const FEED_PATTERN_WORDS: ReadonlyMap<string, string> = new Map([[JSON_MEDIA_TYPE_PATTERN, 'must be application/json']]);

/** ajv's errors of an event in words a publisher can act on (adapters/json/schema-problems.ts). */
export function problemsOfSchemaErrors(errors: readonly ErrorObject[]): EventProblem[] {
  return wordsOfSchemaErrors(errors, FEED_PATTERN_WORDS);
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
