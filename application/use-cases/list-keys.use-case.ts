import type { ServiceKeySnapshot } from '../../domain/service-key/service-key.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';
import type { ServiceKeyRepository } from '../ports/service-key-repository.port.js';
import { requireCompany } from './require-company.js';

export type KeyListing = Omit<ServiceKeySnapshot, 'secretHash' | 'companyId'>;

export class ListKeys {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly keys: ServiceKeyRepository,
  ) {}

  async execute(command: { readonly companyId: string }): Promise<KeyListing[]> {
    await requireCompany(this.companies, command.companyId);
    const keys = await this.keys.listByCompany(command.companyId);
    return keys.map((key) => {
      const { secretHash: _hash, companyId: _company, ...listing } = key.toSnapshot();
      return listing;
    });
  }
}
