import type { Company } from '../../domain/company/company.js';
import { portToken } from './port-token.js';

/** Companies live in the key registry, shared by both regions (DESIGN 3, Regions). */
export interface CompanyRepository {
  insert(company: Company): Promise<void>;
  findById(id: string): Promise<Company | null>;
}

export const COMPANY_REPOSITORY = portToken<CompanyRepository>('CompanyRepository');
