import { formatPlatformToken, PLATFORM_TOKEN_ID_LENGTH, PLATFORM_TOKEN_SECRET_LENGTH } from '../../domain/platform-token/platform-token-format.js';
import type { PlatformScope } from '../../domain/platform-token/platform-scope.js';
import { PlatformToken } from '../../domain/platform-token/platform-token.js';
import { checkActor } from '../../domain/service-key/actor.js';
import { NotFoundError, ProblemCollector } from '../../domain/shared/domain-error.js';
import type { Clock } from '../ports/clock.port.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { PlatformTokenRepository } from '../ports/platform-token-repository.port.js';
import type { Secrets } from '../ports/secrets.port.js';
import { ADMIN_CLI_ACTOR, type Actor } from './actor.js';
import { platformTokenEvent } from './platform-token-events.js';
import { requireCompany } from './require-company.js';

export interface IssuePlatformTokenCommand {
  readonly name: string;
  /** Omitted: every scope (what the admin CLI issues without --scopes). */
  readonly scopes?: readonly string[];
  /** Omitted or null: every company. Each must exist. */
  readonly companies?: readonly string[] | null;
  readonly expiresAt?: Date | null;
  /** Omitted: the admin CLI itself. */
  readonly actor?: Actor;
}

export interface IssuedPlatformToken {
  readonly id: string;
  /** The full token. It is shown this once and never stored. */
  readonly token: string;
  readonly name: string;
  readonly scopes: readonly PlatformScope[];
  readonly companies: readonly string[] | null;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
}

/** A bearer token for one of the platform's services to call the management API; recorded as an event. */
export class IssuePlatformToken {
  constructor(
    private readonly tokens: PlatformTokenRepository,
    private readonly companies: CompanyRepository,
    private readonly secrets: Secrets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: IssuePlatformTokenCommand): Promise<IssuedPlatformToken> {
    const actor = command.actor ?? ADMIN_CLI_ACTOR;
    const problems = new ProblemCollector();
    checkActor(problems, '/actor', actor.name);
    problems.throwIfAny('The actor is invalid.');
    const id = this.secrets.randomBase62(PLATFORM_TOKEN_ID_LENGTH);
    const secret = this.secrets.randomBase62(PLATFORM_TOKEN_SECRET_LENGTH);
    const now = this.clock.now();
    const token = PlatformToken.issue({ ...command, id, secretHash: this.secrets.sha256(secret), now });
    await this.requireCompanies(token.access.companies);
    await this.tokens.write({ inserted: [token], events: [platformTokenEvent(this.ids, token, 'platform_token_issued', now, actor)] });
    const { secretHash: _hash, revokedAt: _revoked, ...listing } = token.toSnapshot();
    return { ...listing, token: formatPlatformToken(id, secret) };
  }

  /** A token limited to a company that does not exist would be limited to nothing: the id is named at /companies/<i>. */
  private async requireCompanies(companies: readonly string[] | null): Promise<void> {
    const problems = new ProblemCollector();
    for (const [index, companyId] of (companies ?? []).entries()) {
      try {
        await requireCompany(this.companies, companyId);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        problems.add(`/companies/${index}`, `no company has the id ${companyId}`);
      }
    }
    problems.throwIfAny('The platform token is invalid.');
  }
}
