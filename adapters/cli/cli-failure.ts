import { DomainError, ValidationError } from '../../domain/shared/domain-error.js';

/** A failure the CLI itself finds: an unreadable file, invalid JSON, a record that cannot be read. */
export class CliFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliFailure';
  }
}

/**
 * The one line printed on stderr for a failed command. A validation error lists every problem with its
 * JSON Pointer (`/2/salaryFrom: must be a number or null`), so a batch names its bad records by index.
 */
export function describeFailure(error: unknown): string {
  const text = describe(error);
  return text.replace(/\s*\r?\n\s*/g, ' ').trim();
}

function describe(error: unknown): string {
  if (error instanceof ValidationError) {
    const problems = error.problems.map((p) => `${p.pointer || '/'}: ${p.message}`).join('; ');
    return problems === '' ? error.message : `${error.message} ${problems}`;
  }
  if (error instanceof DomainError || error instanceof CliFailure) return error.message;
  if (error instanceof Error) return `unexpected failure: ${error.message || error.name}`;
  return `unexpected failure: ${String(error)}`;
}
