import { NotFoundError } from '../../domain/shared/domain-error.js';
import type { Clock } from '../ports/clock.port.js';
import type { ServiceKeyRepository } from '../ports/service-key-repository.port.js';

export interface RevokeKeyCommand {
  readonly keyId: string;
}

export class RevokeKey {
  constructor(
    private readonly keys: ServiceKeyRepository,
    private readonly clock: Clock,
  ) {}

  async execute(command: RevokeKeyCommand): Promise<{ id: string; revokedAt: Date }> {
    const key = await this.keys.findById(command.keyId);
    if (key === null) throw new NotFoundError('service key', `Service key ${command.keyId} not found.`);
    const revokedAt = key.revoke(this.clock.now());
    await this.keys.update(key);
    return { id: key.id, revokedAt };
  }
}
