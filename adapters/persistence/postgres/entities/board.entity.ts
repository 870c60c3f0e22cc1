import { EntitySchema } from '@mikro-orm/core';

/** A row of `boards`: the ordered columns of one vacancy's board. */
export interface BoardRow {
  companyId: string;
  vacancyId: string;
  columns: string[];
}

export const BoardRowSchema = new EntitySchema<BoardRow>({
  name: 'BoardRow',
  tableName: 'boards',
  properties: {
    companyId: { type: 'string', columnType: 'text', primary: true },
    vacancyId: { type: 'string', columnType: 'text', primary: true },
    columns: { type: 'json', columnType: 'jsonb' },
  },
});
