import { formatServiceKey, KEY_ID_LENGTH, KEY_SECRET_LENGTH } from '../../domain/service-key/service-key-format.js';
import { ServiceKey } from '../../domain/service-key/service-key.js';
import type { Scope } from '../../domain/service-key/scope.js';
import type { Clock } from '../ports/clock.port.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';
import type { Secrets } from '../ports/secrets.port.js';
import type { ServiceKeyRepository } from '../ports/service-key-repository.port.js';
import { requireCompany } from './require-company.js';

export interface IssueKeyCommand {
  readonly companyId: string;
  readonly scopes: readonly string[];
  readonly name: string;
  readonly expiresAt: Date | null;
}

export interface IssuedKey {
  readonly id: string;
  /** The full key. It is shown this once and never stored. */
  readonly key: string;
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly companyId: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
}

export class IssueKey {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly keys: ServiceKeyRepository,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
  ) {}

  async execute(command: IssueKeyCommand): Promise<IssuedKey> {
    await requireCompany(this.companies, command.companyId);
    const id = this.secrets.randomBase62(KEY_ID_LENGTH);
    const secret = this.secrets.randomBase62(KEY_SECRET_LENGTH);
    const key = ServiceKey.issue({
      id,
      companyId: command.companyId,
      name: command.name,
      scopes: command.scopes,
      secretHash: this.secrets.sha256(secret),
      expiresAt: command.expiresAt,
      now: this.clock.now(),
    });
    await this.keys.insert(key);
    const s = key.toSnapshot();
    return { id, key: formatServiceKey(id, secret), name: s.name, scopes: s.scopes, companyId: s.companyId, createdAt: s.createdAt, expiresAt: s.expiresAt };
  }
}
