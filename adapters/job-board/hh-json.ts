import { pointerToken, type ProblemCollector } from '../../domain/shared/domain-error.js';

/**
 * A lenient, checked view of one object of the board's JSON. Real records carry nulls where objects are
 * expected, so null and absent read as "nothing"; a value of the wrong type is a problem at its pointer.
 */
export class HhObject {
  private constructor(
    private readonly value: Readonly<Record<string, unknown>>,
    readonly pointer: string,
    private readonly problems: ProblemCollector,
  ) {}

  /** The object at `pointer`; null for null or absent; a problem and null for anything else. */
  static of(value: unknown, pointer: string, problems: ProblemCollector): HhObject | null {
    if (value === null || value === undefined) return null;
    if (typeof value !== 'object' || Array.isArray(value)) {
      problems.add(pointer || '/', 'must be an object');
      return null;
    }
    return new HhObject(value as Record<string, unknown>, pointer, problems);
  }

  private at(key: string): string {
    return `${this.pointer}/${pointerToken(key)}`;
  }

  /** A board id: a non-empty string, or a number as the board sometimes sends. */
  id(key: string): string | null {
    const raw = this.value[key];
    if (typeof raw === 'number' && Number.isSafeInteger(raw)) return String(raw);
    if (typeof raw === 'string' && raw.trim() !== '') return raw;
    this.problems.add(this.at(key), 'must be a non-empty string');
    return null;
  }

  text(key: string): string | null {
    const raw = this.value[key];
    if (raw === null || raw === undefined) return null;
    if (typeof raw === 'string') return raw;
    this.problems.add(this.at(key), 'must be a string or null');
    return null;
  }

  requiredText(key: string): string {
    const raw = this.value[key];
    if (typeof raw === 'string' && raw.trim() !== '') return raw;
    this.problems.add(this.at(key), 'must be a non-empty string');
    return '';
  }

  number(key: string): number | null {
    const raw = this.value[key];
    if (raw === null || raw === undefined) return null;
    if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
    this.problems.add(this.at(key), 'must be a number or null');
    return null;
  }

  boolean(key: string): boolean | null {
    const raw = this.value[key];
    if (raw === null || raw === undefined) return null;
    if (typeof raw === 'boolean') return raw;
    this.problems.add(this.at(key), 'must be true, false or null');
    return null;
  }

  object(key: string): HhObject | null {
    return HhObject.of(this.value[key], this.at(key), this.problems);
  }

  /** The objects of an array; null or absent is an empty list. */
  objects(key: string): HhObject[] {
    return this.array(key).flatMap((item, index) => HhObject.of(item, `${this.at(key)}/${index}`, this.problems) ?? []);
  }

  strings(key: string): string[] {
    return this.array(key).flatMap((item, index) => {
      if (typeof item === 'string') return [item];
      this.problems.add(`${this.at(key)}/${index}`, 'must be a string');
      return [];
    });
  }

  /** `name` of the object under `key`, as the board labels its dictionaries (`{ id, name }`). */
  nameOf(key: string): string | null {
    return this.object(key)?.text('name') ?? null;
  }

  /** The `name` of every object of a list, skipping entries without one. */
  namesOf(key: string): string[] {
    return this.objects(key).flatMap((item) => item.text('name') ?? []);
  }

  /** Records a problem with the field `key` found by the caller. */
  problem(key: string, message: string): void {
    this.problems.add(this.at(key), message);
  }

  /** The raw value, for fields whose shape varies (a contact's value is a string or an object). */
  raw(key: string): unknown {
    return this.value[key];
  }

  private array(key: string): unknown[] {
    const raw = this.value[key];
    if (raw === null || raw === undefined) return [];
    if (Array.isArray(raw)) return raw;
    this.problems.add(this.at(key), 'must be an array or null');
    return [];
  }
}
