import type { Clock } from '../ports/clock.port.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';
import type { ServiceKeyRepository } from '../ports/service-key-repository.port.js';
import { toKeyListing, type KeyListing } from './key-listing.js';
import { requireCompany } from './require-company.js';

export type { KeyListing } from './key-listing.js';

export class ListKeys {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly keys: ServiceKeyRepository,
    private readonly clock: Clock,
  ) {}

  /** The company's keys oldest first, each with its status at the clock's now. */
  async execute(command: { readonly companyId: string }): Promise<KeyListing[]> {
    await requireCompany(this.companies, command.companyId);
    const keys = await this.keys.listByCompany(command.companyId);
    const now = this.clock.now();
    return keys.map((key) => toKeyListing(key, now));
  }
}
