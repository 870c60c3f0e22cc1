import type { JobBoardRecord } from '../../application/use-cases/import-job-board-result.js';
import { ProblemCollector, type FieldProblem } from '../../domain/shared/domain-error.js';
import { HhObject } from './hh-json.js';

export interface HhRejection {
  readonly index: number;
  /** Null when the record has no usable id. */
  readonly boardId: string | null;
  readonly message: string;
  readonly problems: readonly FieldProblem[];
}

export type HhMapped<T> = { readonly ok: true; readonly record: JobBoardRecord<T> } | { readonly ok: false; readonly rejection: HhRejection };

/**
 * Maps one record of the board's JSON with `map`, collecting every problem with a pointer into the record.
 * A record with any problem is rejected whole, never half imported.
 */
export function mapHhRecord<T>(raw: unknown, index: number, what: string, map: (record: HhObject) => T): HhMapped<T> {
  const problems = new ProblemCollector();
  const record = HhObject.of(raw, '', problems);
  if (record === null) {
    if (problems.problems.length === 0) problems.add('/', 'must be an object');
    return { ok: false, rejection: { index, boardId: null, message: `The ${what} is not an object.`, problems: problems.problems } };
  }
  const boardId = record.id('id');
  const content = map(record);
  if (boardId === null || problems.problems.length > 0) {
    return { ok: false, rejection: { index, boardId, message: `The ${what} is malformed.`, problems: problems.problems } };
  }
  return { ok: true, record: { index, boardId, content } };
}

/** The records of a file: the board's list page (`{ "items": [...] }`), a bare array, or one record. */
export function hhRecordsOf(json: unknown): unknown[] | null {
  if (Array.isArray(json)) return json;
  if (json !== null && typeof json === 'object') {
    const items = (json as Record<string, unknown>).items;
    if (Array.isArray(items)) return items;
    if ('id' in json) return [json];
  }
  return null;
}
