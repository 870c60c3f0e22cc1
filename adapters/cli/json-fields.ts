import { parseSince } from '../../domain/paging/since.js';
import { pointerToken, type ProblemCollector } from '../../domain/shared/domain-error.js';

/**
 * A strict view of one object of an input file: no coercion, a wrong type is a problem at its JSON Pointer
 * (`/3/salaryFrom`). Absent and null both mean "not given"; unknown fields are ignored, as the API does.
 */
export class JsonFields {
  private constructor(
    private readonly value: Readonly<Record<string, unknown>>,
    readonly pointer: string,
    private readonly problems: ProblemCollector,
  ) {}

  /** The object at `pointer`, or null after recording a problem. */
  static of(value: unknown, pointer: string, problems: ProblemCollector): JsonFields | null {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      problems.add(pointer || '/', 'must be an object');
      return null;
    }
    return new JsonFields(value as Record<string, unknown>, pointer, problems);
  }

  at(key: string): string {
    return `${this.pointer}/${pointerToken(key)}`;
  }

  /** Whether the field is present, even as null: for fields where absent means "derive it". */
  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.value, key) && this.value[key] !== undefined;
  }

  problem(key: string, message: string): void {
    this.problems.add(this.at(key), message);
  }

  requiredString(key: string): string {
    const raw = this.value[key];
    if (typeof raw === 'string') return raw;
    this.problem(key, raw === undefined || raw === null ? 'is required' : 'must be a string');
    return '';
  }

  string(key: string): string | null {
    const raw = this.value[key];
    if (raw === undefined || raw === null) return null;
    if (typeof raw === 'string') return raw;
    this.problem(key, 'must be a string or null');
    return null;
  }

  /** A string of a resume item: "" when not given (DESIGN 3, Missing strings in resume items). */
  itemString(key: string): string {
    return this.string(key) ?? '';
  }

  strings(key: string): string[] {
    return this.list(key).flatMap((item, index) => {
      if (typeof item === 'string') return [item];
      this.problems.add(`${this.at(key)}/${index}`, 'must be a string');
      return [];
    });
  }

  number(key: string): number | null {
    const raw = this.value[key];
    if (raw === undefined || raw === null) return null;
    if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
    this.problem(key, 'must be a number or null');
    return null;
  }

  integer(key: string): number | null {
    const raw = this.value[key];
    if (raw === undefined || raw === null) return null;
    if (typeof raw === 'number' && Number.isInteger(raw)) return raw;
    this.problem(key, 'must be an integer or null');
    return null;
  }

  boolean(key: string): boolean | null {
    const raw = this.value[key];
    if (raw === undefined || raw === null) return null;
    if (typeof raw === 'boolean') return raw;
    this.problem(key, 'must be true, false or null');
    return null;
  }

  /** An RFC 3339 date-time with a time zone, as the API writes timestamps. */
  dateTime(key: string): Date | null {
    const raw = this.string(key);
    if (raw === null) return null;
    const date = parseSince(raw);
    if (date instanceof Date) return date;
    this.problem(key, 'must be an RFC 3339 date-time with a time zone, such as 2026-10-03T09:41:12.000Z');
    return null;
  }

  /** The nested object, or null when absent or null. */
  object(key: string): JsonFields | null {
    const raw = this.value[key];
    if (raw === undefined || raw === null) return null;
    return JsonFields.of(raw, this.at(key), this.problems);
  }

  /**
   * The nested object; when it is absent (a problem if `required`) or not an object, an empty one, so that
   * the caller reads defaults and the problems of the rest of the record are still found.
   */
  objectOrEmpty(key: string, options: { required: boolean }): JsonFields {
    const raw = this.value[key];
    if ((raw === undefined || raw === null) && options.required) this.problem(key, 'is required');
    return this.object(key) ?? new JsonFields({}, this.at(key), this.problems);
  }

  /** Each object of a list, read by `read`. */
  items<T>(key: string, read: (item: JsonFields) => T): T[] {
    return this.list(key).flatMap((item, index) => {
      const fields = JsonFields.of(item, `${this.at(key)}/${index}`, this.problems);
      return fields === null ? [] : [read(fields)];
    });
  }

  private list(key: string): unknown[] {
    const raw = this.value[key];
    if (raw === undefined || raw === null) return [];
    if (Array.isArray(raw)) return raw;
    this.problem(key, 'must be an array');
    return [];
  }
}

/** A file holds one record or an array of them; the answer keeps their order. */
export function recordsOf(json: unknown): unknown[] {
  return Array.isArray(json) ? json : [json];
}
