import type { ProblemCollector } from '../shared/domain-error.js';
import { checkText } from '../shared/text-rules.js';

/** Who acts on a key: the platform's user as the platform names it (opaque to us), or 'admin-cli'. */
export const ACTOR_MAX_LENGTH = 200;

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
/**
 * Characters that change how the rest is shown without being seen: format characters (bidi controls that can
 * make a log or the page read "alice" backwards, zero-width characters that make two names look alike, the
 * soft hyphen, the BOM) and the line and paragraph separators, which break a line as \n does.
 */
const INVISIBLE_CHARACTER = /[\p{Cf}\p{Zl}\p{Zp}]/u;

export const ACTOR_CHARACTERS_MESSAGE =
  'must not contain control characters, invisible format characters (bidi controls, zero-width characters, soft hyphens) ' +
  'or line and paragraph separators';

/**
 * The form an actor is stored and compared in: NFC, so that one name typed on two keyboards (a precomposed "é"
 * or "e" with a combining accent) is one actor in the trail.
 */
export function normalizeActor(actor: string): string {
  return actor.normalize('NFC');
}

/**
 * An actor is 1..ACTOR_MAX_LENGTH characters in its stored form (normalizeActor), without control characters,
 * invisible format characters or line and paragraph separators (it ends up in headers, logs and the page).
 */
export function checkActor(problems: ProblemCollector, pointer: string, actor: string): void {
  const stored = normalizeActor(actor);
  checkText(problems, pointer, stored, { min: 1, max: ACTOR_MAX_LENGTH, required: true });
  // NUL has a message of its own from checkText.
  const rest = stored.replace(/\u0000/g, '');
  if (CONTROL_CHARACTER.test(rest) || INVISIBLE_CHARACTER.test(rest)) problems.add(pointer, ACTOR_CHARACTERS_MESSAGE);
}
