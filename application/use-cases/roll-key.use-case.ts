import { ProblemCollector, NotFoundError } from '../../domain/shared/domain-error.js';
import { checkActor, checkExpiry, checkRollExpiry, LATEST_EXPIRY_MS, ROLL_OVERLAP_DEFAULT_MS, type ServiceKeySnapshot } from '../../domain/service-key/service-key.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { Secrets } from '../ports/secrets.port.js';
import type { ServiceKeyRepository } from '../ports/service-key-repository.port.js';
import type { Actor } from './actor.js';
import { issuedKey, newServiceKey, type IssuedKey } from './issue-key.use-case.js';
import { keyEvent, retryingKeyChanges } from './key-events.js';
import { toKeyListing, type KeyListing } from './key-listing.js';

export interface RollKeyCommand {
  readonly companyId: string;
  readonly keyId: string;
  /** When the old key stops working; null: ROLL_OVERLAP_DEFAULT_MS from now. Never later than its own expiry. */
  readonly oldKeyExpiresAt: Date | null;
  /**
   * The new key's expiry. Left out (undefined): the old key's lifetime as issued, counted from now, when the old
   * key had an expiry, else none; null: none, said explicitly; a moment: that one (in the future).
   */
  readonly expiresAt?: Date | null | undefined;
  readonly actor: Actor;
}

export interface RolledKey {
  /** The successor, with its secret (shown this once). */
  readonly issued: IssuedKey;
  /** The old key as it is after the roll. */
  readonly rolled: KeyListing;
}

/**
 * Issue 14: a new key with the old one's name and scopes, the old one working on until a given moment, so
 * that an integrator can switch without downtime. Both keys and both events are written at once.
 */
export class RollKey {
  constructor(
    private readonly keys: ServiceKeyRepository,
    private readonly secrets: Secrets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    /** Told of the old key once the roll is written (its expiry was brought forward), e.g. to drop it from a cache. */
    private readonly keyChanged: (keyId: string) => void = () => {},
  ) {}

  async execute(command: RollKeyCommand): Promise<RolledKey> {
    return retryingKeyChanges(async () => {
      const now = this.clock.now();
      const oldKeyExpiresAt = command.oldKeyExpiresAt ?? new Date(now.getTime() + ROLL_OVERLAP_DEFAULT_MS);
      checkCommand(command, oldKeyExpiresAt, now);
      const old = await this.keys.findById(command.keyId);
      if (old === null || old.companyId !== command.companyId) {
        throw new NotFoundError('service key', `Service key ${command.keyId} not found.`);
      }
      // Read before the roll shortens the old key's expiry: its lifetime is the one it was issued with.
      const read = old.toSnapshot();
      const successor = newServiceKey(this.secrets, {
        companyId: read.companyId,
        name: read.name,
        scopes: read.scopes,
        expiresAt: command.expiresAt === undefined ? sameLifetime(read, now) : command.expiresAt,
        now,
        actor: command.actor.name,
        rolledFrom: read.id,
      });
      old.rollTo(successor.key.id, oldKeyExpiresAt, now);
      const oldExpiresAt = old.toSnapshot().expiresAt;
      await this.keys.write({
        inserted: [successor.key],
        updated: [{ key: old, read }],
        events: [
          keyEvent(this.ids, old, 'rolled', now, command.actor, { successorKeyId: successor.key.id, expiresAt: oldExpiresAt }),
          keyEvent(this.ids, successor.key, 'issued', now, command.actor),
        ],
      });
      this.keyChanged(read.id);
      return { issued: issuedKey(successor), rolled: toKeyListing(old, now) };
    });
  }
}

/** Everything wrong with the command at once, before anything is read. */
function checkCommand(command: RollKeyCommand, oldKeyExpiresAt: Date, now: Date): void {
  const problems = new ProblemCollector();
  checkRollExpiry(problems, oldKeyExpiresAt, now);
  if (command.expiresAt instanceof Date) checkExpiry(problems, command.expiresAt, now);
  checkActor(problems, '/actor', command.actor.name);
  problems.throwIfAny('The roll is invalid.');
}

/**
 * A successor the caller said nothing about lives as long as its predecessor was issued to: a key meant to
 * expire must not turn, by a roll, into one that never does.
 */
function sameLifetime(old: ServiceKeySnapshot, now: Date): Date | null {
  if (old.expiresAt === null) return null;
  // No later than a key may expire at all (a key meant to last until year 9999, rolled, lasts until then).
  return new Date(Math.min(now.getTime() + (old.expiresAt.getTime() - old.createdAt.getTime()), LATEST_EXPIRY_MS));
}
