import type { MikroORM } from '@mikro-orm/postgresql';
import type { CompanyRepository } from '../../../application/ports/company-repository.port.js';
import { Company } from '../../../domain/company/company.js';
import { CompanyRowSchema } from './entities/company.entity.js';
import { withFreshEntityManager } from './transaction-scope.js';

/** Companies in the key registry. Every call runs on a fresh fork, outside any business transaction. */
export class MikroOrmCompanyRepository implements CompanyRepository {
  constructor(private readonly registry: MikroORM) {}

  async insert(company: Company): Promise<void> {
    const s = company.toSnapshot();
    await withFreshEntityManager(this.registry, (em) => em.insert(CompanyRowSchema, { id: s.id, name: s.name, createdAt: s.createdAt }));
  }

  async findById(id: string): Promise<Company | null> {
    const row = await withFreshEntityManager(this.registry, (em) => em.findOne(CompanyRowSchema, { id }, { disableIdentityMap: true }));
    return row === null ? null : Company.restore({ id: row.id, name: row.name, createdAt: row.createdAt });
  }
}
