import { portToken } from './port-token.js';

/** Randomness and hashing for service keys and request fingerprints. */
export interface Secrets {
  /** A string of base62 characters from a cryptographically secure generator. */
  randomBase62(length: number): string;
  /** SHA-256 of the UTF-8 text, as lowercase hex. */
  sha256(text: string): string;
  /** Compares two hashes in constant time. */
  hashesEqual(a: string, b: string): boolean;
}

export const SECRETS = portToken<Secrets>('Secrets');
