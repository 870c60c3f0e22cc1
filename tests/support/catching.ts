import { ValidationError } from '../../domain/shared/domain-error.js';

/** The error that `work` throws; fails the test when it throws nothing. */
export function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, but nothing was thrown');
}

/** The error that `promise` rejects with; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, but the promise resolved');
}

/** The JSON pointers a ValidationError names, in its order; fails the test for any other error. */
export function pointersOf(error: unknown): string[] {
  if (!(error instanceof ValidationError)) throw new Error(`expected a ValidationError, got ${String(error)}`);
  return error.problems.map((p) => p.pointer);
}
