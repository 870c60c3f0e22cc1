import { portToken } from './port-token.js';

/** Makes identifiers for new records: time-ordered UUIDv7 strings in production (DESIGN 3). */
export interface IdGenerator {
  newId(): string;
}

export const ID_GENERATOR = portToken<IdGenerator>('IdGenerator');
