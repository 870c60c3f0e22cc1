import { NotFoundError } from '../../domain/shared/domain-error.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';

/**
 * Companies each registry is known to hold. No use case deletes a company, so once found, a company stays
 * found: later checks need no read of the registry. That matters where a check runs inside a unit of work
 * (the platform feed runs UpsertVacancies and AddCandidates inside its own): the registry's read would take a
 * second pooled connection while the transaction holds one, and with every connection held by such a
 * transaction, all of them would wait for the pool until it timed out. Only found companies are kept: a
 * company created after a miss is found by the next check.
 */
const knownCompanies = new WeakMap<CompanyRepository, Set<string>>();

export async function requireCompany(companies: CompanyRepository, companyId: string): Promise<void> {
  let known = knownCompanies.get(companies);
  if (known?.has(companyId)) return;
  if ((await companies.findById(companyId)) === null) throw new NotFoundError('company', `Company ${companyId} not found.`);
  if (known === undefined) {
    known = new Set();
    knownCompanies.set(companies, known);
  }
  known.add(companyId);
}
