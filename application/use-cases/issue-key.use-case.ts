import { formatServiceKey, KEY_ID_LENGTH, KEY_SECRET_LENGTH } from '../../domain/service-key/service-key-format.js';
import { ServiceKey } from '../../domain/service-key/service-key.js';
import type { Scope } from '../../domain/service-key/scope.js';
import type { Clock } from '../ports/clock.port.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { Secrets } from '../ports/secrets.port.js';
import type { ServiceKeyRepository } from '../ports/service-key-repository.port.js';
import type { Actor } from './actor.js';
import { keyEvent } from './key-events.js';
import { requireCompany } from './require-company.js';

export interface IssueKeyCommand {
  readonly companyId: string;
  readonly scopes: readonly string[];
  readonly name: string;
  readonly expiresAt: Date | null;
  readonly actor: Actor;
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
  readonly createdBy: string | null;
  readonly rolledFrom: string | null;
}

/** A new key with its secret, and what the caller may be told of it (the secret this once). */
export interface NewKey {
  readonly key: ServiceKey;
  readonly secret: string;
}

export class IssueKey {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly keys: ServiceKeyRepository,
    private readonly secrets: Secrets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: IssueKeyCommand): Promise<IssuedKey> {
    await requireCompany(this.companies, command.companyId);
    const now = this.clock.now();
    const created = newServiceKey(this.secrets, { ...command, actor: command.actor.name, now });
    await this.keys.write({ inserted: [created.key], events: [keyEvent(this.ids, created.key, 'issued', now, command.actor)] });
    return issuedKey(created);
  }
}

/** Makes a key with a fresh id and secret (ServiceKey.issue checks the rest). */
export function newServiceKey(
  secrets: Secrets,
  params: Omit<Parameters<typeof ServiceKey.issue>[0], 'id' | 'secretHash'>,
): NewKey {
  const id = secrets.randomBase62(KEY_ID_LENGTH);
  const secret = secrets.randomBase62(KEY_SECRET_LENGTH);
  return { key: ServiceKey.issue({ ...params, id, secretHash: secrets.sha256(secret) }), secret };
}

export function issuedKey({ key, secret }: NewKey): IssuedKey {
  const s = key.toSnapshot();
  return {
    id: s.id,
    key: formatServiceKey(s.id, secret),
    name: s.name,
    scopes: s.scopes,
    companyId: s.companyId,
    createdAt: s.createdAt,
    expiresAt: s.expiresAt,
    createdBy: s.createdBy,
    rolledFrom: s.rolledFrom,
  };
}
