import { Table } from '../table.js';

/** A row of `platform_tokens` in the key registry; `companies` null: every company. */
export interface PlatformTokenRow {
  id: string;
  name: string;
  secretHash: string;
  scopes: string[];
  companies: string[] | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** The columns of `platform_tokens` (registry migrations), listed once. */
export const PLATFORM_TOKENS = new Table<PlatformTokenRow>(
  'platform_tokens',
  {
    id: ['id', 'text'],
    name: ['name', 'text'],
    secretHash: ['secret_hash', 'text'],
    scopes: ['scopes', 'jsonb'],
    companies: ['companies', 'jsonb'],
    createdAt: ['created_at', 'timestamptz'],
    expiresAt: ['expires_at', 'timestamptz'],
    revokedAt: ['revoked_at', 'timestamptz'],
  },
  ['id'],
);
