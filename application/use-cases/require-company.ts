import { NotFoundError } from '../../domain/shared/domain-error.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';

export async function requireCompany(companies: CompanyRepository, companyId: string): Promise<void> {
  if ((await companies.findById(companyId)) === null) throw new NotFoundError('company', `Company ${companyId} not found.`);
}
