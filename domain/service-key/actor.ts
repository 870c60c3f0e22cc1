import type { ProblemCollector } from '../shared/domain-error.js';
import { checkText } from '../shared/text-rules.js';

/** Who acts on a key: the platform's user as the platform names it (opaque to us), or 'admin-cli'. */
export const ACTOR_MAX_LENGTH = 200;

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** An actor is 1..ACTOR_MAX_LENGTH characters without control characters (it ends up in headers and logs). */
export function checkActor(problems: ProblemCollector, pointer: string, actor: string): void {
  checkText(problems, pointer, actor, { min: 1, max: ACTOR_MAX_LENGTH, required: true });
  if (CONTROL_CHARACTER.test(actor.replace(/\u0000/g, ''))) problems.add(pointer, 'must not contain control characters');
}
