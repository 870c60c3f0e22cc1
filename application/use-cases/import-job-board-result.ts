import type { FieldProblem } from '../../domain/shared/domain-error.js';

/** One record of a job-board file, already mapped to platform terms by the adapter that read it. */
export interface JobBoardRecord<T> {
  /** Position in the file, so that reports name the record as the file has it. */
  readonly index: number;
  /** The board's own id of the record. */
  readonly boardId: string;
  readonly content: T;
}

export type ImportOutcome = 'created' | 'updated' | 'unchanged';

export interface ImportedRecord {
  readonly index: number;
  readonly boardId: string;
  /** The platform's id of the vacancy or card. */
  readonly id: string;
  readonly outcome: ImportOutcome;
}

export interface RejectedRecord {
  readonly index: number;
  /** Null when the record is too malformed to carry an id. */
  readonly boardId: string | null;
  readonly message: string;
  readonly problems: readonly FieldProblem[];
}

/** A rejected record does not stop the others: an import stores every valid record and reports the rest. */
export interface JobBoardImportResult {
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly records: readonly ImportedRecord[];
  readonly rejected: readonly RejectedRecord[];
}

/** Where an imported record came from: `<source>:<board id>`, unique within a company. */
export function sourceRefOf(source: string, boardId: string): string {
  return `${source}:${boardId}`;
}

/** Collects the outcome of each record of one import. */
export class ImportTally {
  private readonly imported: ImportedRecord[] = [];
  private readonly refused: RejectedRecord[] = [];
  private readonly firstIndexOf = new Map<string, number>();

  /** The index of an earlier record with this board id, or null; remembers this one otherwise. */
  earlierWithId(record: JobBoardRecord<unknown>): number | null {
    const earlier = this.firstIndexOf.get(record.boardId);
    if (earlier !== undefined) return earlier;
    this.firstIndexOf.set(record.boardId, record.index);
    return null;
  }

  add(record: JobBoardRecord<unknown>, id: string, outcome: ImportOutcome): void {
    this.imported.push({ index: record.index, boardId: record.boardId, id, outcome });
  }

  reject(record: JobBoardRecord<unknown>, message: string, problems: readonly FieldProblem[] = []): void {
    this.refused.push({ index: record.index, boardId: record.boardId, message, problems: [...problems] });
  }

  result(): JobBoardImportResult {
    const count = (outcome: ImportOutcome) => this.imported.filter((r) => r.outcome === outcome).length;
    return {
      created: count('created'),
      updated: count('updated'),
      unchanged: count('unchanged'),
      records: [...this.imported],
      rejected: [...this.refused],
    };
  }
}
