import { EntitySchema } from '@mikro-orm/core';

/** A row of `companies`, in the key registry. */
export interface CompanyRow {
  id: string;
  name: string;
  createdAt: Date;
}

export const CompanyRowSchema = new EntitySchema<CompanyRow>({
  name: 'CompanyRow',
  tableName: 'companies',
  properties: {
    id: { type: 'string', columnType: 'text', primary: true },
    name: { type: 'string', columnType: 'text' },
    createdAt: { type: 'datetime', columnType: 'timestamptz(3)' },
  },
});
