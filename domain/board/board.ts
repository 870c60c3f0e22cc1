import { ConflictError, ProblemCollector } from '../shared/domain-error.js';
import { checkText } from '../shared/text-rules.js';

export const DEFAULT_BOARD_COLUMNS = ['NEW', 'AI_DIALOG', 'INTERVIEW', 'OFFER', 'ONBOARDING', 'REJECTION'] as const;
export const BOARD_MAX_COLUMNS = 50;
export const BOARD_COLUMN_MAX_LENGTH = 100;

export interface BoardSnapshot {
  readonly companyId: string;
  readonly vacancyId: string;
  readonly columns: readonly string[];
}

/** The board of one vacancy: an ordered list of columns. Cards enter in the first one. */
export class Board {
  private constructor(private state: BoardSnapshot) {}

  static create(companyId: string, vacancyId: string, columns: readonly string[] = DEFAULT_BOARD_COLUMNS): Board {
    checkColumns(columns);
    return new Board({ companyId, vacancyId, columns: [...columns] });
  }

  static restore(snapshot: BoardSnapshot): Board {
    return new Board({ ...snapshot, columns: [...snapshot.columns] });
  }

  get columns(): readonly string[] {
    return [...this.state.columns];
  }

  /** Where a new card lands (spec 3.2). */
  get firstColumn(): string {
    return this.state.columns[0] as string;
  }

  has(column: string): boolean {
    return this.state.columns.includes(column);
  }

  requireColumn(column: string): void {
    if (!this.has(column)) {
      throw new ConflictError(`The board has no column "${column}"; its columns are ${this.state.columns.join(', ')}.`);
    }
  }

  /** Renames, adds and reorders columns. A column that still holds cards cannot be dropped. */
  setColumns(columns: readonly string[], occupied: readonly string[]): void {
    checkColumns(columns);
    const dropped = occupied.filter((column) => !columns.includes(column));
    if (dropped.length > 0) {
      throw new ConflictError(`Columns ${dropped.join(', ')} still hold cards; move them before removing the columns.`);
    }
    this.state = { ...this.state, columns: [...columns] };
  }

  toSnapshot(): BoardSnapshot {
    return { ...this.state, columns: [...this.state.columns] };
  }
}

function checkColumns(columns: readonly string[]): void {
  const problems = new ProblemCollector();
  if (columns.length === 0) problems.add('/columns', 'must have at least one column');
  if (columns.length > BOARD_MAX_COLUMNS) problems.add('/columns', `must have at most ${BOARD_MAX_COLUMNS} columns`);
  const seen = new Set<string>();
  columns.forEach((column, index) => {
    checkText(problems, `/columns/${index}`, column, { min: 1, max: BOARD_COLUMN_MAX_LENGTH });
    if (column.trim() !== column || column === '') problems.add(`/columns/${index}`, 'must not be blank or padded with spaces');
    if (seen.has(column)) problems.add(`/columns/${index}`, `repeats the column "${column}"`);
    seen.add(column);
  });
  problems.throwIfAny('The board columns are invalid.');
}
