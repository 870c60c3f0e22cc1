import { parseServiceKey } from '../../domain/service-key/service-key-format.js';
import { UnauthorizedError, type Principal } from '../../domain/service-key/service-key.js';
import type { Clock } from '../ports/clock.port.js';
import type { Secrets } from '../ports/secrets.port.js';
import type { ServiceKeyRepository } from '../ports/service-key-repository.port.js';

export interface AuthenticateKeyCommand {
  /** The X-API-Key header as received; undefined when absent. */
  readonly presentedKey: string | undefined;
}

/** Spec 5: who is calling. Missing, malformed, unknown, revoked and expired keys all fail the same way. */
export class AuthenticateKey {
  constructor(
    private readonly keys: ServiceKeyRepository,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
  ) {}

  async execute(command: AuthenticateKeyCommand): Promise<Principal> {
    const parsed = command.presentedKey === undefined ? null : parseServiceKey(command.presentedKey);
    if (parsed === null) throw new UnauthorizedError();
    const key = await this.keys.findById(parsed.keyId);
    const presentedHash = this.secrets.sha256(parsed.secret);
    // Hash and compare even for an unknown id, so that timing does not tell which ids exist.
    const storedHash = key?.secretHash ?? this.secrets.sha256('');
    const matches = this.secrets.hashesEqual(presentedHash, storedHash);
    const now = this.clock.now();
    if (key === null || !matches || !key.isUsableAt(now)) throw new UnauthorizedError();
    if (key.needsUsageRecord(now)) await this.keys.recordUsage(key.id, now);
    return key.principal;
  }
}
