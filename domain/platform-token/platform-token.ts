import { DomainError, ProblemCollector } from '../shared/domain-error.js';
import { checkText } from '../shared/text-rules.js';
import { copyDate } from '../shared/time.js';

export const PLATFORM_TOKEN_NAME_MAX_LENGTH = 200;

/** A bearer token of one of the platform's own services, for the management API. */
export interface PlatformTokenSnapshot {
  readonly id: string;
  readonly name: string;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  readonly secretHash: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

export class PlatformUnauthorizedError extends DomainError {
  readonly code = 'unauthorized';
  constructor() {
    // One message for missing, malformed, unknown and revoked tokens.
    super('A valid platform token is required as "Authorization: Bearer pt_...".');
    this.name = 'PlatformUnauthorizedError';
  }
}

export class PlatformToken {
  private constructor(private state: PlatformTokenSnapshot) {}

  static issue(params: { id: string; name: string; secretHash: string; now: Date }): PlatformToken {
    const problems = new ProblemCollector();
    checkText(problems, '/name', params.name, { min: 1, max: PLATFORM_TOKEN_NAME_MAX_LENGTH, required: true });
    if (params.name.length > 0 && params.name.trim() === '') problems.add('/name', 'must not be blank');
    problems.throwIfAny('The platform token is invalid.');
    return new PlatformToken({ id: params.id, name: params.name, secretHash: params.secretHash, createdAt: copyDate(params.now), revokedAt: null });
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

  isActiveAt(now: Date): boolean {
    return this.state.revokedAt === null || this.state.revokedAt.getTime() > now.getTime();
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
  return { ...s, createdAt: copyDate(s.createdAt), revokedAt: s.revokedAt === null ? null : copyDate(s.revokedAt) };
}
