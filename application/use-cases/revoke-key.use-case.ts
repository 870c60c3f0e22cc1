import { checkActor } from '../../domain/service-key/service-key.js';
import { NotFoundError, ProblemCollector } from '../../domain/shared/domain-error.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { ServiceKeyRepository } from '../ports/service-key-repository.port.js';
import type { Actor } from './actor.js';
import { keyEvent, retryingKeyChanges } from './key-events.js';
import { toKeyListing, type KeyListing } from './key-listing.js';

export interface RevokeKeyCommand {
  /** When set, a key of another company is not found (the management API); the admin CLI leaves it out. */
  readonly companyId?: string;
  readonly keyId: string;
  readonly actor: Actor;
}

export type RevokedKey = KeyListing & { readonly revokedAt: Date };

export class RevokeKey {
  constructor(
    private readonly keys: ServiceKeyRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    /** Told of each key once its revocation is written (and of a key found revoked), e.g. to drop it from a cache. */
    private readonly keyChanged: (keyId: string) => void = () => {},
  ) {}

  /** Revoking a revoked key returns it unchanged and records nothing. */
  async execute(command: RevokeKeyCommand): Promise<RevokedKey> {
    const problems = new ProblemCollector();
    checkActor(problems, '/actor', command.actor.name);
    problems.throwIfAny('The actor is invalid.');
    return retryingKeyChanges(async () => {
      const key = await this.keys.findById(command.keyId);
      if (key === null || (command.companyId !== undefined && key.companyId !== command.companyId)) {
        throw new NotFoundError('service key', `Service key ${command.keyId} not found.`);
      }
      const read = key.toSnapshot();
      const now = this.clock.now();
      if (read.revokedAt === null) {
        key.revoke(now, command.actor.name);
        await this.keys.write({ updated: [{ key, read }], events: [keyEvent(this.ids, key, 'revoked', now, command.actor)] });
      }
      this.keyChanged(command.keyId);
      return toKeyListing(key, now) as RevokedKey;
    });
  }
}
