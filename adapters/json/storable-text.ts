import { pointerToken } from '../../domain/shared/domain-error.js';
import { STORABLE_TEXT_PATTERN } from '../../domain/shared/text-patterns.js';
import type { JsonProblem } from './json-problem.js';

/**
 * U+0000 and unpaired surrogates are valid in a JSON string, but PostgreSQL's text and jsonb refuse NUL
 * and UTF-8 has no form for half a surrogate pair: stored, they would fail or come back changed. They are
 * refused at the edge, so both stores behave alike and what is accepted comes back byte for byte. The rule
 * is the pattern the OpenAPI and AsyncAPI documents publish for every string of a request or an event.
 */
const STORABLE = new RegExp(STORABLE_TEXT_PATTERN, 'u');

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain NUL (U+0000) or unpaired surrogate characters';

export function isStorableText(text: string): boolean {
  return STORABLE.test(text);
}

/**
 * A problem for every string in the document that cannot be stored. Subtrees at a pointer in `skip` (where
 * the schema already found a fault) are not entered, so each place is reported once. No recursion: the
 * document may be deep.
 */
export function unstorableTextProblems(document: unknown, skip: ReadonlySet<string> = new Set()): JsonProblem[] {
  const problems: JsonProblem[] = [];
  const stack: { value: unknown; pointer: string }[] = [{ value: document, pointer: '' }];
  while (stack.length > 0) {
    const { value, pointer } = stack.pop()!;
    if (skip.has(pointer)) continue;
    if (typeof value === 'string') {
      if (!isStorableText(value)) problems.push({ pointer, message: UNSTORABLE_TEXT_MESSAGE });
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) stack.push({ value: child, pointer: `${pointer}/${pointerToken(key)}` });
    }
  }
  return problems.reverse();
}
