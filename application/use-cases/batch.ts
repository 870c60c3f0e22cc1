import { ValidationError, type FieldProblem } from '../../domain/shared/domain-error.js';

/**
 * Builds every item of a batch before anything is written, so that one bad record stops the whole batch.
 * Problems are reported with the record's index in front of the pointer (`/3/title`).
 */
export function buildAll<I, O>(items: readonly I[], build: (item: I, index: number) => O): O[] {
  const problems: FieldProblem[] = [];
  const built: O[] = [];
  items.forEach((item, index) => {
    try {
      built.push(build(item, index));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      for (const p of error.problems) problems.push({ pointer: `/${index}${p.pointer}`, message: p.message });
    }
  });
  if (problems.length > 0) throw new ValidationError(problems, 'The batch is invalid; nothing was stored.');
  return built;
}
