import { checkExpiry } from '../service-key/service-key.js';
import { DomainError, ProblemCollector } from '../shared/domain-error.js';
import { checkText } from '../shared/text-rules.js';
import { copyDate } from '../shared/time.js';
import type { PlatformAccess } from './platform-access.js';
import { isPlatformScope, PLATFORM_SCOPES, type PlatformScope } from './platform-scope.js';

export const PLATFORM_TOKEN_NAME_MAX_LENGTH = 200;
/** Company ids are the service's own (UUIDv7); a longer text names none. */
export const PLATFORM_TOKEN_COMPANY_ID_MAX_LENGTH = 64;

/** A bearer token of one of the platform's own services, for the management API. */
export interface PlatformTokenSnapshot {
  readonly id: string;
  readonly name: string;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  readonly secretHash: string;
  /** What it may do, in PLATFORM_SCOPES order; at least one. */
  readonly scopes: readonly PlatformScope[];
  /** The companies it is limited to; null: every company. */
  readonly companies: readonly string[] | null;
  readonly createdAt: Date;
  /** When it stops working; null: never. */
  readonly expiresAt: Date | null;
  readonly revokedAt: Date | null;
}

export class PlatformUnauthorizedError extends DomainError {
  readonly code = 'unauthorized';
  constructor() {
    // One message for missing, malformed, unknown, revoked and expired tokens.
    super('A valid platform token is required as "Authorization: Bearer pt_...".');
    this.name = 'PlatformUnauthorizedError';
  }
}

export interface IssuePlatformTokenParams {
  readonly id: string;
  readonly name: string;
  readonly secretHash: string;
  readonly now: Date;
  /** Omitted: every scope. */
  readonly scopes?: readonly string[];
  /** Omitted or null: every company. */
  readonly companies?: readonly string[] | null;
  readonly expiresAt?: Date | null;
}

export class PlatformToken {
  private constructor(private state: PlatformTokenSnapshot) {}

  /** Checks name, scopes, companies and expiry (as a key's: in the future, at most 9999-12-31T23:59:59.999Z). */
  static issue(params: IssuePlatformTokenParams): PlatformToken {
    const problems = new ProblemCollector();
    checkText(problems, '/name', params.name, { min: 1, max: PLATFORM_TOKEN_NAME_MAX_LENGTH, required: true });
    if (params.name.length > 0 && params.name.trim() === '') problems.add('/name', 'must not be blank');
    const scopes = params.scopes ?? PLATFORM_SCOPES;
    if (scopes.length === 0) problems.add('/scopes', `must name at least one of ${PLATFORM_SCOPES.join(', ')}`);
    scopes.forEach((scope, index) => {
      if (!isPlatformScope(scope)) problems.add(`/scopes/${index}`, `unknown scope "${scope}"; known scopes are ${PLATFORM_SCOPES.join(', ')}`);
    });
    const companies = params.companies ?? null;
    if (companies !== null && companies.length === 0) problems.add('/companies', 'must name at least one company (leave it out for every company)');
    companies?.forEach((id, index) => checkText(problems, `/companies/${index}`, id, { min: 1, max: PLATFORM_TOKEN_COMPANY_ID_MAX_LENGTH, required: true }));
    const expiresAt = params.expiresAt ?? null;
    if (expiresAt !== null) checkExpiry(problems, expiresAt, params.now);
    problems.throwIfAny('The platform token is invalid.');
    return new PlatformToken({
      id: params.id,
      name: params.name,
      secretHash: params.secretHash,
      scopes: PLATFORM_SCOPES.filter((scope) => scopes.includes(scope)),
      companies: companies === null ? null : [...new Set(companies)],
      createdAt: copyDate(params.now),
      expiresAt: expiresAt === null ? null : copyDate(expiresAt),
      revokedAt: null,
    });
  }

  static restore(snapshot: PlatformTokenSnapshot): PlatformToken {
    return new PlatformToken(copyTokenSnapshot(snapshot));
  }

  get id(): string {
    return this.state.id;
  }

  get name(): string {
    return this.state.name;
  }

  get secretHash(): string {
    return this.state.secretHash;
  }

  get access(): PlatformAccess {
    return { scopes: [...this.state.scopes], companies: this.state.companies === null ? null : [...this.state.companies] };
  }

  /** Neither revoked nor expired at `now`. */
  isActiveAt(now: Date): boolean {
    const { revokedAt, expiresAt } = this.state;
    return (revokedAt === null || revokedAt.getTime() > now.getTime()) && (expiresAt === null || expiresAt.getTime() > now.getTime());
  }

  /** Revokes the token; revoking twice keeps the first moment. */
  revoke(now: Date): Date {
    if (this.state.revokedAt === null) this.state = { ...this.state, revokedAt: copyDate(now) };
    return copyDate(this.state.revokedAt as Date);
  }

  toSnapshot(): PlatformTokenSnapshot {
    return copyTokenSnapshot(this.state);
  }
}

function copyTokenSnapshot(s: PlatformTokenSnapshot): PlatformTokenSnapshot {
  return {
    ...s,
    scopes: [...s.scopes],
    companies: s.companies === null ? null : [...s.companies],
    createdAt: copyDate(s.createdAt),
    expiresAt: s.expiresAt === null ? null : copyDate(s.expiresAt),
    revokedAt: s.revokedAt === null ? null : copyDate(s.revokedAt),
  };
}
