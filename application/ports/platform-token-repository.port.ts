import type { PlatformToken } from '../../domain/platform-token/platform-token.js';
import { portToken } from './port-token.js';

/** Platform tokens live in the key registry, shared by both regions. */
export interface PlatformTokenRepository {
  insert(token: PlatformToken): Promise<void>;
  findById(id: string): Promise<PlatformToken | null>;
  /** Writes revocation. */
  update(token: PlatformToken): Promise<void>;
  /** Every token, oldest first (createdAt, then id). */
  list(): Promise<PlatformToken[]>;
}

export const PLATFORM_TOKEN_REPOSITORY = portToken<PlatformTokenRepository>('PlatformTokenRepository');
