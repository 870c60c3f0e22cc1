import type { CompanyRepository } from '../../../application/ports/company-repository.port.js';
import { Company } from '../../../domain/company/company.js';
import type { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryCompanyRepository implements CompanyRepository {
  constructor(private readonly db: InMemoryDatabase) {}

  async insert(company: Company): Promise<void> {
    if (this.db.companies.has(company.id)) throw new Error(`duplicate key: company ${company.id}`);
    this.db.companies.set(company.id, company.toSnapshot());
  }

  async findById(id: string): Promise<Company | null> {
    const row = this.db.companies.get(id);
    return row === undefined ? null : Company.restore(row);
  }
}
