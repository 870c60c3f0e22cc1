import type { PlatformTokenSnapshot } from '../../domain/platform-token/platform-token.js';
import type { PlatformTokenRepository } from '../ports/platform-token-repository.port.js';

export type PlatformTokenListing = Omit<PlatformTokenSnapshot, 'secretHash'>;

/** Every platform token, oldest first, without its hash: its scopes, companies and expiry included. */
export class ListPlatformTokens {
  constructor(private readonly tokens: PlatformTokenRepository) {}

  async execute(): Promise<PlatformTokenListing[]> {
    return (await this.tokens.list()).map((token) => {
      const { secretHash: _hash, ...listing } = token.toSnapshot();
      return listing;
    });
  }
}
