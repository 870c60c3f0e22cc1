import type { CandidateRepository } from '../../application/ports/candidate-repository.port.js';
import { DEFAULT_REPEAT_FORECAST, RepeatForecast } from '../../application/use-cases/repeat-forecast.js';

/**
 * The two ways SubmitApplication answers a repeat (ADR 21), each forced by a forecast: looked up before the batch
 * (a forecast that always expects a repeat), or told by the batch's insert (one that never does).
 */
export const REPEAT_WAYS = [
  { name: 'looked up first', lookedUp: true, forecast: () => new RepeatForecast({ ...DEFAULT_REPEAT_FORECAST, threshold: 0 }) },
  { name: 'told by the insert', lookedUp: false, forecast: () => new RepeatForecast({ ...DEFAULT_REPEAT_FORECAST, threshold: Number.POSITIVE_INFINITY }) },
] as const;

/** The repository with its lookups of stored applications counted (`counted` is told of each), the rest as it is. */
export function countingLookups<R extends CandidateRepository>(candidates: R, counted: () => void): R {
  return Object.assign(Object.create(candidates) as R, {
    findStoredApplications: (...args: Parameters<CandidateRepository['findStoredApplications']>) => {
      counted();
      return candidates.findStoredApplications(...args);
    },
  });
}
