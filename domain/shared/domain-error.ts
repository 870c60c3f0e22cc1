/** A problem with one field of an input, located by a JSON Pointer (RFC 6901). */
export interface FieldProblem {
  readonly pointer: string;
  readonly message: string;
}

/** Base of every error the domain raises on purpose. `code` is stable and snake_case. */
export abstract class DomainError extends Error {
  abstract readonly code: string;
}

export class ValidationError extends DomainError {
  readonly code = 'validation_failed';
  constructor(readonly problems: readonly FieldProblem[], message = 'The input failed validation.') {
    super(message);
    this.name = 'ValidationError';
  }
}

export class NotFoundError extends DomainError {
  readonly code = 'not_found';
  /**
   * @param pointer the JSON Pointer of the request body's field that named what was not found (`/vacancyId`),
   *   when a body named it rather than the path.
   */
  constructor(
    readonly resource: string,
    message = `${resource} not found.`,
    readonly pointer?: string,
  ) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** An operation that the current state does not allow (for example moving a card to a missing column). */
export class ConflictError extends DomainError {
  readonly code = 'conflict';
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** Collects field problems, so that one call reports everything wrong with an input at once. */
export class ProblemCollector {
  private readonly found: FieldProblem[] = [];

  add(pointer: string, message: string): void {
    this.found.push({ pointer, message });
  }

  get problems(): readonly FieldProblem[] {
    return this.found;
  }

  throwIfAny(message?: string): void {
    if (this.found.length > 0) throw new ValidationError([...this.found], message);
  }
}

/** Escapes one reference token of a JSON Pointer. */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}
