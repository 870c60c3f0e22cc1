import { Company, type CompanySnapshot } from '../../domain/company/company.js';
import type { Clock } from '../ports/clock.port.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';

export interface CreateCompanyCommand {
  readonly name: string;
}

export class CreateCompany {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateCompanyCommand): Promise<CompanySnapshot> {
    const company = Company.create({ id: this.ids.newId(), name: command.name, now: this.clock.now() });
    await this.companies.insert(company);
    return company.toSnapshot();
  }
}
