import { parsePlatformToken, PLATFORM_TOKEN_SECRET_LENGTH } from '../../domain/platform-token/platform-token-format.js';
import type { PlatformAccess } from '../../domain/platform-token/platform-access.js';
import { PlatformUnauthorizedError } from '../../domain/platform-token/platform-token.js';
import type { Clock } from '../ports/clock.port.js';
import type { PlatformTokenRepository } from '../ports/platform-token-repository.port.js';
import type { Secrets } from '../ports/secrets.port.js';

/** The token that calls, and what it may do (requirePlatformAccess checks it per operation). */
export interface PlatformCaller extends PlatformAccess {
  readonly tokenId: string;
  readonly name: string;
  readonly expiresAt: Date | null;
}

/**
 * Who calls the management API. Missing, malformed, unknown, revoked and expired tokens fail alike. The registry is
 * read at every call, without a cache, so that a revocation holds from the next request on.
 */
export class AuthenticatePlatformToken {
  /** Compared with when the id is unknown, so that an unknown id costs the same hashing and comparison. */
  private readonly dummySecretHash: string;

  constructor(
    private readonly tokens: PlatformTokenRepository,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
  ) {
    this.dummySecretHash = secrets.sha256(secrets.randomBase62(PLATFORM_TOKEN_SECRET_LENGTH));
  }

  /** `presented`: the bearer token (without "Bearer "), undefined when absent. */
  async execute(command: { readonly presented: string | undefined }): Promise<PlatformCaller> {
    const parsed = command.presented === undefined ? null : parsePlatformToken(command.presented);
    if (parsed === null) throw new PlatformUnauthorizedError();
    const token = await this.tokens.findById(parsed.tokenId);
    const matches = this.secrets.hashesEqual(this.secrets.sha256(parsed.secret), token?.secretHash ?? this.dummySecretHash);
    if (token === null || !matches || !token.isActiveAt(this.clock.now())) throw new PlatformUnauthorizedError();
    return { tokenId: token.id, name: token.name, ...token.access, expiresAt: token.toSnapshot().expiresAt };
  }
}
