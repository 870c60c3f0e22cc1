import { Migration } from '@mikro-orm/migrations';

/** Written out here, not imported: a migration states the schema of its day, whatever the domain says later. */
const SCOPES = `'["companies:read", "companies:write", "keys:read", "keys:write", "key-events:read"]'::jsonb`;
const KEY_EVENT_TYPES = `'issued', 'rolled', 'revoked', 'expired', 'first_used'`;
const TOKEN_EVENT_TYPES = `'platform_token_issued', 'platform_token_revoked'`;

/**
 * Least privilege for platform tokens (ADR 17), in the key registry:
 *
 * platform_tokens: scopes (at least one, of the management API's), the companies a token is limited to (null:
 * every company) and an expiry. Tokens issued before keep working as they did: they get every scope, every
 * company and no expiry.
 *
 * key_events: the tokens' own issue and revoke. A token belongs to no company, so its events have none (and
 * key_id holds the token's id); a key's event still always has one.
 */
export class Migration20261202000000PlatformTokenScopes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table platform_tokens
      add column scopes jsonb,
      add column companies jsonb,
      add column expires_at timestamptz(3)`);
    this.addSql(`update platform_tokens set scopes = ${SCOPES}`);
    this.addSql(`alter table platform_tokens
      alter column scopes set not null,
      add constraint platform_tokens_scopes_check check (jsonb_typeof(scopes) = 'array' and jsonb_array_length(scopes) > 0 and scopes <@ ${SCOPES}),
      add constraint platform_tokens_companies_check check (companies is null or (jsonb_typeof(companies) = 'array' and jsonb_array_length(companies) > 0))`);

    this.addSql(`alter table key_events
      alter column company_id drop not null,
      drop constraint key_events_type_check,
      add constraint key_events_type_check check (type in (${KEY_EVENT_TYPES}, ${TOKEN_EVENT_TYPES})),
      add constraint key_events_company_check check ((company_id is null) = (type in (${TOKEN_EVENT_TYPES})))`);
  }

  override async down(): Promise<void> {
    this.addSql('delete from key_events where company_id is null');
    this.addSql(`alter table key_events
      drop constraint key_events_company_check,
      drop constraint key_events_type_check,
      add constraint key_events_type_check check (type in (${KEY_EVENT_TYPES})),
      alter column company_id set not null`);
    this.addSql(`alter table platform_tokens
      drop constraint platform_tokens_companies_check,
      drop constraint platform_tokens_scopes_check,
      drop column expires_at,
      drop column companies,
      drop column scopes`);
  }
}
