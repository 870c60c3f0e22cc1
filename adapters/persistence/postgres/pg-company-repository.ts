import type { CompanyRepository } from '../../../application/ports/company-repository.port.js';
import { Company } from '../../../domain/company/company.js';
import type { PgDatabase } from './pg-database.js';
import { executeInlined } from './pg-statements.js';
import { COMPANIES } from './tables/company.table.js';
import { withOwnSession } from './transaction-scope.js';

/** Companies in the key registry. Every call runs in autocommit, outside any business transaction. */
export class PgCompanyRepository implements CompanyRepository {
  constructor(private readonly registry: PgDatabase) {}

  async insert(company: Company): Promise<void> {
    const s = company.toSnapshot();
    await withOwnSession(this.registry, (session) => executeInlined(session, COMPANIES.insertSql, COMPANIES.values({ id: s.id, name: s.name, createdAt: s.createdAt })));
  }

  async findById(id: string): Promise<Company | null> {
    const rows = await withOwnSession(this.registry, (session) => executeInlined<Record<string, unknown>>(session, `select ${COMPANIES.selectList()} from companies where id = ?`, [id]));
    return rows[0] === undefined ? null : Company.restore(COMPANIES.rowOf(rows[0]));
  }
}
