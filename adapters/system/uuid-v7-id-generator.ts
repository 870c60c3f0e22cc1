import { v7 } from 'uuid';
import type { IdGenerator } from '../../application/ports/id-generator.port.js';

/** Time-ordered UUIDv7 ids, made in the application, never by the database (DESIGN 3). */
export class UuidV7IdGenerator implements IdGenerator {
  newId(): string {
    return v7();
  }
}
