import { parameterProblem, unknownParameterProblems } from '../http/list-query.js';
import { validationProblem } from '../http/problem.js';
import { eventsLimitParameter, KEY_EVENTS_PARAMETERS } from './schemas/key-events-parameters.schema.js';

const DIGITS = /^[0-9]+$/;
const KNOWN: readonly string[] = KEY_EVENTS_PARAMETERS.map((p) => p.name);

/**
 * The query of GET /key-events, read strictly as the public lists' are (adapters/http/list-query.ts): every
 * problem at `/<parameter>`, a parameter the operation does not take or one given twice included, all in one
 * 400. An empty cursor is the first page, like an absent one.
 */
export function readKeyEventsQuery(querystring: string): { limit: number; cursor: string | null } {
  const params = new URLSearchParams(querystring);
  const problems = unknownParameterProblems(params, KNOWN);
  const single = (name: string): string | undefined => {
    const values = params.getAll(name);
    if (values.length > 1) problems.push(parameterProblem(name, 'must be given at most once'));
    return values.length === 1 ? values[0] : undefined;
  };
  const rawLimit = single('limit');
  const { minimum, maximum, default: fallback } = eventsLimitParameter.schema;
  const limit = rawLimit === undefined ? fallback : DIGITS.test(rawLimit) ? Number(rawLimit) : Number.NaN;
  if (!(limit >= minimum && limit <= maximum)) problems.push(parameterProblem('limit', `must be a whole number from ${minimum} to ${maximum}`));
  const cursor = single('cursor');
  if (problems.length > 0) throw validationProblem('The query string failed validation.', problems);
  return { limit, cursor: cursor === undefined || cursor === '' ? null : cursor };
}
