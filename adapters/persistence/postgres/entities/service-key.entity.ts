import { EntitySchema } from '@mikro-orm/core';

/** A row of `service_keys`, in the key registry. Only the hash of the secret is stored. */
export interface ServiceKeyRow {
  id: string;
  companyId: string;
  name: string;
  scopes: string[];
  secretHash: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** Null for keys issued before issue 14 (Migration20261126000000KeyEvents). */
  createdBy: string | null;
  revokedBy: string | null;
  rolledFrom: string | null;
  rolledTo: string | null;
}

export const ServiceKeyRowSchema = new EntitySchema<ServiceKeyRow>({
  name: 'ServiceKeyRow',
  tableName: 'service_keys',
  properties: {
    id: { type: 'string', columnType: 'text', primary: true },
    companyId: { type: 'string', columnType: 'text' },
    name: { type: 'string', columnType: 'text' },
    scopes: { type: 'json', columnType: 'jsonb' },
    secretHash: { type: 'string', columnType: 'text' },
    createdAt: { type: 'datetime', columnType: 'timestamptz(3)' },
    expiresAt: { type: 'datetime', columnType: 'timestamptz(3)', nullable: true },
    revokedAt: { type: 'datetime', columnType: 'timestamptz(3)', nullable: true },
    lastUsedAt: { type: 'datetime', columnType: 'timestamptz(3)', nullable: true },
    createdBy: { type: 'string', columnType: 'text', nullable: true },
    revokedBy: { type: 'string', columnType: 'text', nullable: true },
    rolledFrom: { type: 'string', columnType: 'text', nullable: true },
    rolledTo: { type: 'string', columnType: 'text', nullable: true },
  },
});
