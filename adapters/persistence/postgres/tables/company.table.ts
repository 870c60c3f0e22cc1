import { Table } from '../table.js';

/** A row of `companies` in the key registry. */
export interface CompanyRow {
  id: string;
  name: string;
  createdAt: Date;
}

/** The columns of `companies` (Migration20251122000000RegistryTables), listed once. */
export const COMPANIES = new Table<CompanyRow>(
  'companies',
  {
    id: ['id', 'text'],
    name: ['name', 'text'],
    createdAt: ['created_at', 'timestamptz'],
  },
  ['id'],
);
