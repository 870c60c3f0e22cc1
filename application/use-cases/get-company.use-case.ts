import type { CompanySnapshot } from '../../domain/company/company.js';
import { NotFoundError } from '../../domain/shared/domain-error.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';

export class GetCompany {
  constructor(private readonly companies: CompanyRepository) {}

  async execute(command: { readonly companyId: string }): Promise<CompanySnapshot> {
    const company = await this.companies.findById(command.companyId);
    if (company === null) throw new NotFoundError('company', `Company ${command.companyId} not found.`);
    return company.toSnapshot();
  }
}
