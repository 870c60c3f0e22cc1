import { KEY_SECRET_LENGTH, parseServiceKey } from '../../domain/service-key/service-key-format.js';
import { UnauthorizedError, type Principal } from '../../domain/service-key/service-key.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { Secrets } from '../ports/secrets.port.js';
import type { ServiceKeyRepository } from '../ports/service-key-repository.port.js';
import { KeyExpiryRecorder } from './key-expiry-recorder.js';
import { KeyRegistryCache } from './key-registry-cache.js';
import { KeyUsageRecorder } from './key-usage-recorder.js';

export interface AuthenticateKeyCommand {
  /** The X-API-Key header as received; undefined when absent. */
  readonly presentedKey: string | undefined;
  /**
   * Awaited before the key registry is read, told whether the registry held the key id when this instance last
   * read it (KeyRegistryCache.find); a rejection ends the authentication with it, before any read. The HTTP
   * adapter spends the client address's budget here for ids not held, so that a flood of made-up keys is
   * refused before it reaches the registry.
   */
  readonly beforeRegistryRead?: (heldBefore: boolean) => Promise<void>;
}

export interface AuthenticateKeyOptions {
  /**
   * How long what was read of a key from the registry is trusted (ms of the Clock); a revocation reaches
   * this instance within it. Expiry is exact regardless: it is checked at every request. Default 0:
   * the registry is read at every request.
   */
  readonly keyCacheTtlMs?: number;
  /**
   * Told when writing a key's lastUsedAt (or its first_used or expired event) failed; the request it
   * belongs to has been answered regardless.
   */
  readonly onUsageRecordFailed?: (error: unknown, keyId: string) => void;
}

/** Spec 5: who is calling. Missing, malformed, unknown, revoked and expired keys all fail the same way. */
export class AuthenticateKey {
  private readonly registry: KeyRegistryCache;
  private readonly usage: KeyUsageRecorder;
  private readonly expiry: KeyExpiryRecorder;
  /**
   * What the presented secret is compared with when the key id is unknown: the hash of a random secret no
   * one holds, made once, so that an unknown id costs the same hashing and comparison as a known one.
   */
  private readonly dummySecretHash: string;

  constructor(
    keys: ServiceKeyRepository,
    private readonly secrets: Secrets,
    ids: IdGenerator,
    private readonly clock: Clock,
    options: AuthenticateKeyOptions = {},
  ) {
    const onFailed = options.onUsageRecordFailed ?? (() => {});
    this.registry = new KeyRegistryCache(keys, options.keyCacheTtlMs ?? 0);
    this.usage = new KeyUsageRecorder(keys, ids, onFailed);
    this.expiry = new KeyExpiryRecorder(keys, ids, onFailed);
    this.dummySecretHash = secrets.sha256(secrets.randomBase62(KEY_SECRET_LENGTH));
  }

  async execute(command: AuthenticateKeyCommand): Promise<Principal> {
    const parsed = command.presentedKey === undefined ? null : parseServiceKey(command.presentedKey);
    if (parsed === null) throw new UnauthorizedError();
    const now = this.clock.now();
    const key = await this.registry.find(parsed.keyId, now, command.beforeRegistryRead);
    const presentedHash = this.secrets.sha256(parsed.secret);
    // One hash and one constant-time comparison whether the id is known or not, so that timing does not tell which ids exist.
    const matches = this.secrets.hashesEqual(presentedHash, key?.secretHash ?? this.dummySecretHash);
    if (key === null || !matches) throw new UnauthorizedError();
    const status = key.statusAt(now);
    if (status !== 'active') {
      // Only a request with the key's own secret records its expiry: one with a guessed or stale secret records nothing.
      if (status === 'expired') this.expiry.record(key, now);
      throw new UnauthorizedError();
    }
    this.usage.record(key, now);
    return key.principal;
  }

  /**
   * Drops what this instance read of a key, so that a change it has just written (a revocation, a roll) holds
   * from the next request on here; other instances learn it within `keyCacheTtlMs`.
   */
  forget(keyId: string): void {
    this.registry.forget(keyId);
  }

  /** Resolves once the writes of uses and expiries started so far have ended: call it before closing the registry. */
  async settle(): Promise<void> {
    await Promise.all([this.usage.settle(), this.expiry.settle()]);
  }
}
