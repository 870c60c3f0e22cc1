import { NotFoundError } from '../../domain/shared/domain-error.js';
import type { Clock } from '../ports/clock.port.js';
import type { ServiceKeyRepository } from '../ports/service-key-repository.port.js';
import { toKeyListing, type KeyListing } from './key-listing.js';

export interface GetKeyCommand {
  readonly companyId: string;
  readonly keyId: string;
}

/**
 * One key of a company, as ListKeys lists it (its status at the clock's now, never its hash). A key of another
 * company is not found, as an unknown one, so that the ids of other companies' keys cannot be probed.
 */
export class GetKey {
  constructor(
    private readonly keys: ServiceKeyRepository,
    private readonly clock: Clock,
  ) {}

  async execute(command: GetKeyCommand): Promise<KeyListing> {
    const key = await this.keys.findById(command.keyId);
    if (key === null || key.companyId !== command.companyId) throw new NotFoundError('service key', `Service key ${command.keyId} not found.`);
    return toKeyListing(key, this.clock.now());
  }
}
