import { ValidationError, type FieldProblem } from '../../domain/shared/domain-error.js';
import { CliFailure } from './cli-failure.js';

/** An option of a command, as the domain names it in a JSON Pointer (`/scopes`), and as the user typed it. */
export interface OptionName {
  readonly flag: string;
  /** For a comma-separated list: its items are named by position, since the user typed no index. */
  readonly list?: boolean;
}

/**
 * The domain reports a command's values at JSON Pointers (`/scopes/0`), as it does for the API's bodies.
 * On the command line the user typed options, not a document: each problem is said of its option, and a
 * list's item by its position (`--columns item 2: ...`). Anything else passes through unchanged.
 */
export function inOptionTerms(error: unknown, names: Readonly<Record<string, OptionName>>): unknown {
  if (!(error instanceof ValidationError)) return error;
  const described = error.problems.map((problem) => describeProblem(problem, names));
  if (described.some((line) => line === null)) return error;
  return new CliFailure(described.join('; '));
}

function describeProblem(problem: FieldProblem, names: Readonly<Record<string, OptionName>>): string | null {
  const [, field, index, ...rest] = problem.pointer.split('/');
  const option = field !== undefined && Object.hasOwn(names, field) ? names[field] : undefined;
  if (option === undefined || rest.length > 0) return null;
  if (index === undefined) return `${option.flag}: ${problem.message}`;
  if (!option.list || !/^\d+$/.test(index)) return null;
  return `${option.flag} item ${Number(index) + 1}: ${problem.message}`;
}
