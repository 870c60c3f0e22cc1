import { formatPlatformToken, PLATFORM_TOKEN_ID_LENGTH, PLATFORM_TOKEN_SECRET_LENGTH } from '../../domain/platform-token/platform-token-format.js';
import { PlatformToken } from '../../domain/platform-token/platform-token.js';
import type { Clock } from '../ports/clock.port.js';
import type { PlatformTokenRepository } from '../ports/platform-token-repository.port.js';
import type { Secrets } from '../ports/secrets.port.js';

export interface IssuedPlatformToken {
  readonly id: string;
  /** The full token. It is shown this once and never stored. */
  readonly token: string;
  readonly name: string;
  readonly createdAt: Date;
}

/** A bearer token for one of the platform's services to call the management API. */
export class IssuePlatformToken {
  constructor(
    private readonly tokens: PlatformTokenRepository,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
  ) {}

  async execute(command: { readonly name: string }): Promise<IssuedPlatformToken> {
    const id = this.secrets.randomBase62(PLATFORM_TOKEN_ID_LENGTH);
    const secret = this.secrets.randomBase62(PLATFORM_TOKEN_SECRET_LENGTH);
    const token = PlatformToken.issue({ id, name: command.name, secretHash: this.secrets.sha256(secret), now: this.clock.now() });
    await this.tokens.insert(token);
    const s = token.toSnapshot();
    return { id, token: formatPlatformToken(id, secret), name: s.name, createdAt: s.createdAt };
  }
}
