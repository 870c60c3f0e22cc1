import { DomainError, ProblemCollector } from '../shared/domain-error.js';
import { checkText } from '../shared/text-rules.js';
import { copyDate } from '../shared/time.js';
import { checkActor, normalizeActor } from './actor.js';
import { isScope, SCOPES, type Scope } from './scope.js';

export { ACTOR_MAX_LENGTH, checkActor, normalizeActor } from './actor.js';

export const KEY_NAME_MAX_LENGTH = 200;
/** lastUsedAt is written at most this often per key (DESIGN 3). */
export const LAST_USED_RESOLUTION_MS = 60_000;
/** How long a rolled key keeps working when the caller names no moment, and the longest it may (issue 14). */
export const ROLL_OVERLAP_DEFAULT_MS = 24 * 60 * 60 * 1000;
export const ROLL_OVERLAP_MAX_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * How far beyond ROLL_OVERLAP_MAX_MS a roll's old expiry may be and still be taken (then cut to the maximum):
 * a caller whose clock runs a little ahead of ours and asks for exactly 7 days must not get a 400.
 */
export const ROLL_OVERLAP_CLOCK_TOLERANCE_MS = 60_000;
/**
 * The latest expiry a key may have: the last millisecond of year 9999 (UTC), the last that PostgreSQL's
 * timestamptz and the API's timestamps (`YYYY-MM-DDTHH:mm:ss.sssZ`) both hold. An offset can put a date-time
 * written in year 9999 past it.
 */
export const LATEST_EXPIRY_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export type KeyStatus = 'active' | 'expired' | 'revoked';

export interface ServiceKeySnapshot {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly scopes: readonly Scope[];
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  readonly secretHash: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  readonly revokedAt: Date | null;
  readonly lastUsedAt: Date | null;
  /** The platform user (or 'admin-cli') who issued it; null for keys older than the audit trail. */
  readonly createdBy: string | null;
  /** Who revoked it, set with revokedAt and only then. */
  readonly revokedBy: string | null;
  /** The key this one replaced when it was issued by a roll. */
  readonly rolledFrom: string | null;
  /** The key that replaced this one by a roll. */
  readonly rolledTo: string | null;
}

/** Who is calling: the key and its company, as the key registry knows them. */
export interface Principal {
  readonly keyId: string;
  readonly companyId: string;
  readonly scopes: readonly Scope[];
}

export class UnauthorizedError extends DomainError {
  readonly code = 'unauthorized';
  constructor() {
    // One message for missing, unknown, revoked and expired keys (DESIGN 3).
    super('A valid service key is required in the X-API-Key header.');
    this.name = 'UnauthorizedError';
  }
}

export class ForbiddenError extends DomainError {
  readonly code = 'forbidden';
  constructor(readonly scope: Scope) {
    super(`The service key lacks the scope ${scope}.`);
    this.name = 'ForbiddenError';
  }
}

/** A roll of a key that no longer works: revoked, or expired already. */
export class KeyNotActiveError extends DomainError {
  readonly code = 'key_not_active';
  constructor(readonly keyId: string) {
    super(`Service key ${keyId} is revoked or expired: only an active key can be rolled.`);
    this.name = 'KeyNotActiveError';
  }
}

/** A second roll of one key: it has a successor already, which is the one to roll. */
export class KeyAlreadyRolledError extends DomainError {
  readonly code = 'key_already_rolled';
  constructor(readonly keyId: string, readonly successorKeyId: string) {
    super(`Service key ${keyId} was rolled already; its successor is ${successorKeyId}.`);
    this.name = 'KeyAlreadyRolledError';
  }
}

export function requireScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) throw new ForbiddenError(scope);
}

export class ServiceKey {
  private constructor(private state: ServiceKeySnapshot) {}

  static issue(params: {
    id: string;
    companyId: string;
    name: string;
    scopes: readonly string[];
    secretHash: string;
    expiresAt: Date | null;
    now: Date;
    /** Who issues it (checkActor; stored in NFC); null only where no one can be named. */
    actor: string | null;
    rolledFrom?: string | null;
  }): ServiceKey {
    const problems = new ProblemCollector();
    checkText(problems, '/name', params.name, { max: KEY_NAME_MAX_LENGTH });
    if (params.actor !== null) checkActor(problems, '/actor', params.actor);
    if (params.scopes.length === 0) problems.add('/scopes', `must name at least one of ${SCOPES.join(', ')}`);
    params.scopes.forEach((scope, index) => {
      if (!isScope(scope)) problems.add(`/scopes/${index}`, `unknown scope "${scope}"; known scopes are ${SCOPES.join(', ')}`);
    });
    if (params.expiresAt !== null) checkExpiry(problems, params.expiresAt, params.now);
    problems.throwIfAny('The service key is invalid.');
    const scopes = SCOPES.filter((scope) => params.scopes.includes(scope));
    return new ServiceKey({
      id: params.id,
      companyId: params.companyId,
      name: params.name,
      scopes,
      secretHash: params.secretHash,
      createdAt: copyDate(params.now),
      expiresAt: params.expiresAt === null ? null : copyDate(params.expiresAt),
      revokedAt: null,
      lastUsedAt: null,
      createdBy: params.actor === null ? null : normalizeActor(params.actor),
      revokedBy: null,
      rolledFrom: params.rolledFrom ?? null,
      rolledTo: null,
    });
  }

  static restore(snapshot: ServiceKeySnapshot): ServiceKey {
    return new ServiceKey(copyKeySnapshot(snapshot));
  }

  get id(): string {
    return this.state.id;
  }

  get companyId(): string {
    return this.state.companyId;
  }

  get secretHash(): string {
    return this.state.secretHash;
  }

  get principal(): Principal {
    return { keyId: this.state.id, companyId: this.state.companyId, scopes: [...this.state.scopes] };
  }

  isUsableAt(now: Date): boolean {
    return this.statusAt(now) === 'active';
  }

  /** Revoked wins over expired: a revoked key stays revoked whatever its expiry. */
  statusAt(now: Date): KeyStatus {
    if (this.state.revokedAt !== null && this.state.revokedAt.getTime() <= now.getTime()) return 'revoked';
    if (this.state.expiresAt !== null && this.state.expiresAt.getTime() <= now.getTime()) return 'expired';
    return 'active';
  }

  /** Whether it is past its expiry at `now` (revoked or not). */
  isExpiredAt(now: Date): boolean {
    return this.state.expiresAt !== null && this.state.expiresAt.getTime() <= now.getTime();
  }

  /** Revokes the key; revoking twice keeps the first moment and the first actor. */
  revoke(now: Date, actor: string | null = null): Date {
    if (this.state.revokedAt === null) {
      if (actor !== null) {
        const problems = new ProblemCollector();
        checkActor(problems, '/actor', actor);
        problems.throwIfAny('The actor is invalid.');
      }
      this.state = { ...this.state, revokedAt: copyDate(now), revokedBy: actor === null ? null : normalizeActor(actor) };
    }
    return copyDate(this.state.revokedAt as Date);
  }

  /**
   * Hands the key over to its successor: it keeps working until `oldExpiresAt` (at most ROLL_OVERLAP_MAX_MS
   * from now, whatever the clock tolerance let through), or its own expiry if that comes first (a roll never
   * extends a key). Only an active key that was not rolled before can be.
   */
  rollTo(successorId: string, oldExpiresAt: Date, now: Date): void {
    if (this.statusAt(now) !== 'active') throw new KeyNotActiveError(this.state.id);
    if (this.state.rolledTo !== null) throw new KeyAlreadyRolledError(this.state.id, this.state.rolledTo);
    const problems = new ProblemCollector();
    checkRollExpiry(problems, oldExpiresAt, now);
    problems.throwIfAny('The roll is invalid.');
    const current = this.state.expiresAt;
    const end = Math.min(oldExpiresAt.getTime(), now.getTime() + ROLL_OVERLAP_MAX_MS, current === null ? Infinity : current.getTime());
    this.state = { ...this.state, rolledTo: successorId, expiresAt: new Date(end) };
  }

  /** Whether lastUsedAt is stale enough to be written again. */
  needsUsageRecord(now: Date): boolean {
    const last = this.state.lastUsedAt;
    return last === null || now.getTime() - last.getTime() >= LAST_USED_RESOLUTION_MS;
  }

  toSnapshot(): ServiceKeySnapshot {
    return copyKeySnapshot(this.state);
  }
}

/**
 * The old key's end in a roll: strictly in the future, and at most ROLL_OVERLAP_MAX_MS away give or take
 * ROLL_OVERLAP_CLOCK_TOLERANCE_MS (rollTo cuts what the tolerance lets through back to the maximum).
 */
/** A key's expiry: in the future, and no later than LATEST_EXPIRY_MS. */
export function checkExpiry(problems: ProblemCollector, expiresAt: Date, now: Date, pointer = '/expiresAt'): void {
  if (!(expiresAt.getTime() > now.getTime())) problems.add(pointer, 'must be in the future');
  else if (expiresAt.getTime() > LATEST_EXPIRY_MS) problems.add(pointer, 'must be at most 9999-12-31T23:59:59.999Z');
}

export function checkRollExpiry(problems: ProblemCollector, oldKeyExpiresAt: Date, now: Date, pointer = '/oldKeyExpiresAt'): void {
  const ms = oldKeyExpiresAt.getTime() - now.getTime();
  if (Number.isNaN(ms)) problems.add(pointer, 'must be a valid moment');
  else if (ms <= 0) problems.add(pointer, 'must be in the future');
  else if (ms > ROLL_OVERLAP_MAX_MS + ROLL_OVERLAP_CLOCK_TOLERANCE_MS) problems.add(pointer, `must be at most ${ROLL_OVERLAP_MAX_MS / 86_400_000} days from now`);
}

function copyKeySnapshot(s: ServiceKeySnapshot): ServiceKeySnapshot {
  return {
    ...s,
    scopes: [...s.scopes],
    createdAt: copyDate(s.createdAt),
    expiresAt: s.expiresAt === null ? null : copyDate(s.expiresAt),
    revokedAt: s.revokedAt === null ? null : copyDate(s.revokedAt),
    lastUsedAt: s.lastUsedAt === null ? null : copyDate(s.lastUsedAt),
  };
}
