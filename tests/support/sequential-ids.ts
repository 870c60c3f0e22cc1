import type { IdGenerator } from '../../application/ports/id-generator.port.js';

/**
 * Ids a test can predict: UUIDv7-shaped, ascending, the n-th call giving the n-th id. Two stores fed the
 * same calls in the same order hold the same ids, so their answers can be compared byte for byte.
 */
export class SequentialIds implements IdGenerator {
  private issued = 0;

  /** `prefix`: the first 23 characters of every id (8-4-4-4 hex digits and their dashes). */
  constructor(private readonly prefix = '019a0000-0000-7000-8000') {}

  newId(): string {
    this.issued += 1;
    return `${this.prefix}-${this.issued.toString(16).padStart(12, '0')}`;
  }
}
