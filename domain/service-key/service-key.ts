import { DomainError, ProblemCollector } from '../shared/domain-error.js';
import { checkText } from '../shared/text-rules.js';
import { copyDate } from '../shared/time.js';
import { isScope, SCOPES, type Scope } from './scope.js';

export const KEY_NAME_MAX_LENGTH = 200;
/** lastUsedAt is written at most this often per key (DESIGN 3). */
export const LAST_USED_RESOLUTION_MS = 60_000;

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
  }): ServiceKey {
    const problems = new ProblemCollector();
    checkText(problems, '/name', params.name, { max: KEY_NAME_MAX_LENGTH });
    if (params.scopes.length === 0) problems.add('/scopes', `must name at least one of ${SCOPES.join(', ')}`);
    params.scopes.forEach((scope, index) => {
      if (!isScope(scope)) problems.add(`/scopes/${index}`, `unknown scope "${scope}"; known scopes are ${SCOPES.join(', ')}`);
    });
    if (params.expiresAt !== null && params.expiresAt.getTime() <= params.now.getTime()) {
      problems.add('/expiresAt', 'must be in the future');
    }
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
    if (this.state.revokedAt !== null && this.state.revokedAt.getTime() <= now.getTime()) return false;
    if (this.state.expiresAt !== null && this.state.expiresAt.getTime() <= now.getTime()) return false;
    return true;
  }

  /** Revokes the key; revoking twice keeps the first moment. */
  revoke(now: Date): Date {
    if (this.state.revokedAt === null) this.state = { ...this.state, revokedAt: copyDate(now) };
    return copyDate(this.state.revokedAt as Date);
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
