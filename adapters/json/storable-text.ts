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

interface Visit {
  readonly value: unknown;
  readonly parent: Visit | null;
  readonly token: string;
}

/**
 * A problem for every string in the document that cannot be stored. Subtrees at a pointer in `skip` (where
 * the schema already found a fault) are not entered, so each place is reported once. No recursion: the
 * document may be deep. Every accepted request walks its whole body here, so a value's pointer is spelt out
 * only when it is needed (a problem, or a `skip` to look it up in).
 */
export function unstorableTextProblems(document: unknown, skip: ReadonlySet<string> = new Set()): JsonProblem[] {
  const problems: JsonProblem[] = [];
  const stack: Visit[] = [{ value: document, parent: null, token: '' }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (skip.size > 0 && skip.has(pointerOf(visit))) continue;
    if (typeof value === 'string') {
      if (!isStorableText(value)) problems.push({ pointer: pointerOf(visit), message: UNSTORABLE_TEXT_MESSAGE });
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) stack.push({ value: child, parent: visit, token: key });
    }
  }
  return problems.reverse();
}

function pointerOf(visit: Visit): string {
  let pointer = '';
  for (let at: Visit = visit; at.parent !== null; at = at.parent) pointer = `/${pointerToken(at.token)}${pointer}`;
  return pointer;
}
