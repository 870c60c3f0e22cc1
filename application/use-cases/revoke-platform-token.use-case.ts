import { NotFoundError } from '../../domain/shared/domain-error.js';
import type { Clock } from '../ports/clock.port.js';
import type { PlatformTokenRepository } from '../ports/platform-token-repository.port.js';

/** Revokes a platform token at once: the next request with it is refused. Twice keeps the first moment. */
export class RevokePlatformToken {
  constructor(
    private readonly tokens: PlatformTokenRepository,
    private readonly clock: Clock,
  ) {}

  async execute(command: { readonly id: string }): Promise<{ id: string; revokedAt: Date }> {
    const token = await this.tokens.findById(command.id);
    if (token === null) throw new NotFoundError('platform token', `Platform token ${command.id} not found.`);
    const revokedAt = token.revoke(this.clock.now());
    await this.tokens.update(token);
    return { id: token.id, revokedAt };
  }
}
