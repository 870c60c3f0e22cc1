import { ProblemCollector, ValidationError, type FieldProblem } from '../../domain/shared/domain-error.js';
import { JsonFields, recordsOf } from './json-fields.js';

export interface RecordReader<T> {
  /** Reads the fields of one record; a wrong type is a problem, and the field reads as "not given". */
  readonly read: (fields: JsonFields) => T;
  /** The domain's rules for one read record, with pointers relative to the record. */
  readonly rules: (record: T, problems: ProblemCollector) => void;
}

/**
 * The records of a batch file (one record or an array), each checked for its shape. When one is wrong, the
 * domain's rules are checked too, over every record, so that a single run names every fault of the file
 * (`/0/title: must be a string; /3/salaryFrom: must not be greater than salaryTo`) rather than the rules' faults
 * only once the shape is fixed. When the shape is right the use case checks the rules itself, as always.
 */
export function readRecordFile<T>(json: unknown, reader: RecordReader<T>, message: string): T[] {
  const read = recordsOf(json).map((raw, index) => readOne(raw, `/${index}`, reader));
  if (read.every((r) => r.problems.length === 0)) return read.map((r) => r.record as T);
  throw new ValidationError(read.flatMap((r) => [...r.problems, ...ruleProblems(r, reader)]), message);
}

/** One record file (a resume), read and reported the same way. */
export function readSingleRecord<T>(json: unknown, reader: RecordReader<T>, message: string): T {
  const read = readOne(json, '', reader);
  if (read.problems.length > 0) throw new ValidationError([...read.problems, ...ruleProblems(read, reader)], message);
  return read.record as T;
}

interface ReadRecord<T> {
  readonly pointer: string;
  readonly record: T | null;
  readonly problems: readonly FieldProblem[];
}

function readOne<T>(raw: unknown, pointer: string, reader: RecordReader<T>): ReadRecord<T> {
  const shape = new ProblemCollector();
  const fields = JsonFields.of(raw, pointer, shape);
  const record = fields === null ? null : reader.read(fields);
  return { pointer, record, problems: shape.problems };
}

function ruleProblems<T>(read: ReadRecord<T>, reader: RecordReader<T>): FieldProblem[] {
  if (read.record === null) return [];
  const rules = new ProblemCollector();
  reader.rules(read.record, rules);
  // A field whose type was wrong reads as "not given"; a rule about it would only repeat the fault.
  return rules.problems
    .map((p) => ({ pointer: `${read.pointer}${p.pointer}`, message: p.message }))
    .filter((p) => !read.problems.some((s) => p.pointer === s.pointer || p.pointer.startsWith(`${s.pointer}/`)));
}
