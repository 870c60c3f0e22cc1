import { NotFoundError } from '../../domain/shared/domain-error.js';
import type { AdminCliDependencies, AdminServices } from './admin-services.js';
import type { CliIo } from './cli-io.js';

/** What every command's action shares: the services, opened at most once, and the output streams. */
export class AdminContext {
  private services: Promise<AdminServices> | undefined;

  constructor(
    readonly deps: AdminCliDependencies,
    readonly io: CliIo,
  ) {}

  open(): Promise<AdminServices> {
    this.services ??= this.deps.open();
    return this.services;
  }

  /** The services, once the company is known to exist: "unknown company" is reported as such. */
  async forCompany(companyId: string): Promise<AdminServices> {
    const services = await this.open();
    if ((await services.companies.findById(companyId)) === null) throw new NotFoundError('company', `Company ${companyId} not found.`);
    return services;
  }

  /** The command's one JSON document on stdout. */
  print(value: unknown): void {
    this.io.out(`${JSON.stringify(value, null, 2)}\n`);
  }

  warn(message: string): void {
    this.io.err(`warning: ${message.replace(/\s*\r?\n\s*/g, ' ')}\n`);
  }
}
