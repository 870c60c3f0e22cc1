import { EntitySchema } from '@mikro-orm/core';

/** A row of `platform_tokens`, in the key registry. Only the hash of the secret is stored. */
export interface PlatformTokenRow {
  id: string;
  name: string;
  secretHash: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export const PlatformTokenRowSchema = new EntitySchema<PlatformTokenRow>({
  name: 'PlatformTokenRow',
  tableName: 'platform_tokens',
  properties: {
    id: { type: 'string', columnType: 'text', primary: true },
    name: { type: 'string', columnType: 'text' },
    secretHash: { type: 'string', columnType: 'text' },
    createdAt: { type: 'datetime', columnType: 'timestamptz(3)' },
    revokedAt: { type: 'datetime', columnType: 'timestamptz(3)', nullable: true },
  },
});
