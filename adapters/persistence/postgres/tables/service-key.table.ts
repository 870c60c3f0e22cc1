import { Table } from '../table.js';

/** A row of `service_keys` in the key registry. */
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
  createdBy: string | null;
  revokedBy: string | null;
  rolledFrom: string | null;
  rolledTo: string | null;
}

/** The columns of `service_keys` (Migration20251122000000RegistryTables and later), listed once. */
export const SERVICE_KEYS = new Table<ServiceKeyRow>(
  'service_keys',
  {
    id: ['id', 'text'],
    companyId: ['company_id', 'text'],
    name: ['name', 'text'],
    scopes: ['scopes', 'jsonb'],
    secretHash: ['secret_hash', 'text'],
    createdAt: ['created_at', 'timestamptz'],
    expiresAt: ['expires_at', 'timestamptz'],
    revokedAt: ['revoked_at', 'timestamptz'],
    lastUsedAt: ['last_used_at', 'timestamptz'],
    createdBy: ['created_by', 'text'],
    revokedBy: ['revoked_by', 'text'],
    rolledFrom: ['rolled_from', 'text'],
    rolledTo: ['rolled_to', 'text'],
  },
  ['id'],
);
