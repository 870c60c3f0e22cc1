import { Table } from '../table.js';

/** A row of `boards`: a vacancy's own stage columns. */
export interface BoardRow {
  companyId: string;
  vacancyId: string;
  columns: string[];
}

/** The columns of `boards` (Migration20251122000000BusinessTables), listed once. */
export const BOARDS = new Table<BoardRow>(
  'boards',
  {
    companyId: ['company_id', 'text'],
    vacancyId: ['vacancy_id', 'text'],
    columns: ['columns', 'jsonb'],
  },
  ['companyId', 'vacancyId'],
);
