import { EntitySchema } from '@mikro-orm/core';

/** A row of `platform_tokens`, in the key registry. Only the hash of the secret is stored. */
export interface PlatformTokenRow {
  id: string;
  name: string;
  secretHash: string;
  /** Every scope for tokens issued before scopes (Migration20261202000000PlatformTokenScopes). */
  scopes: string[];
  /** Null: every company. */
  companies: string[] | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export const PlatformTokenRowSchema = new EntitySchema<PlatformTokenRow>({
  name: 'PlatformTokenRow',
  tableName: 'platform_tokens',
  properties: {
    id: { type: 'string', columnType: 'text', primary: true },
    name: { type: 'string', columnType: 'text' },
    secretHash: { type: 'string', columnType: 'text' },
    scopes: { type: 'json', columnType: 'jsonb' },
    companies: { type: 'json', columnType: 'jsonb', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz(3)' },
    expiresAt: { type: 'datetime', columnType: 'timestamptz(3)', nullable: true },
    revokedAt: { type: 'datetime', columnType: 'timestamptz(3)', nullable: true },
  },
});
