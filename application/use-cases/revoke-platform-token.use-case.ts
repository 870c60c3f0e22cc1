import { checkActor } from '../../domain/service-key/actor.js';
import { NotFoundError, ProblemCollector } from '../../domain/shared/domain-error.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { PlatformTokenRepository } from '../ports/platform-token-repository.port.js';
import { ADMIN_CLI_ACTOR, type Actor } from './actor.js';
import { retryingKeyChanges } from './key-events.js';
import { platformTokenEvent } from './platform-token-events.js';

/**
 * Revokes a platform token at once: the next request with it is refused. Recorded as an event; revoking a
 * revoked token keeps the first moment and records nothing.
 */
export class RevokePlatformToken {
  constructor(
    private readonly tokens: PlatformTokenRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: { readonly id: string; readonly actor?: Actor }): Promise<{ id: string; revokedAt: Date }> {
    const actor = command.actor ?? ADMIN_CLI_ACTOR;
    const problems = new ProblemCollector();
    checkActor(problems, '/actor', actor.name);
    problems.throwIfAny('The actor is invalid.');
    // A revocation made meanwhile fails the write; read again, the token is revoked and nothing is written.
    return retryingKeyChanges(async () => {
      const token = await this.tokens.findById(command.id);
      if (token === null) throw new NotFoundError('platform token', `Platform token ${command.id} not found.`);
      const wasRevoked = token.toSnapshot().revokedAt !== null;
      const now = this.clock.now();
      const revokedAt = token.revoke(now);
      if (!wasRevoked) await this.tokens.write({ revoked: [token], events: [platformTokenEvent(this.ids, token, 'platform_token_revoked', now, actor)] });
      return { id: token.id, revokedAt };
    });
  }
}
