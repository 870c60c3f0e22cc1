import { BOARD_COLUMN_MAX_LENGTH, BOARD_MAX_COLUMNS } from '../../../domain/board/board.js';
import { id, object, type Schema } from '../../json/schema-parts.js';

/** `board.columns-set`: the whole ordered list of columns of the vacancy's board (the subject). */
export const boardColumnsSetDataSchema: Schema = object(
  {
    columns: {
      type: 'array',
      minItems: 1,
      maxItems: BOARD_MAX_COLUMNS,
      uniqueItems: true,
      items: { ...id(BOARD_COLUMN_MAX_LENGTH), description: 'A column name: not blank, no leading or trailing white space.' },
      description: 'Renames, adds and reorders columns; a column that still holds cards cannot be left out.',
    },
  },
  ['columns'],
);
