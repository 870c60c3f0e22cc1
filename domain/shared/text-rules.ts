import type { ProblemCollector } from './domain-error.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const SURROGATE = /[\uD800-\uDFFF]/;

/** Length in Unicode code points, which is what JSON Schema's maxLength counts. */
export function codePointLength(value: string): number {
  // Without surrogates (every Cyrillic and Latin text) each code unit is a code point: no walk needed.
  return SURROGATE.test(value) ? codePointsOf(value) : value.length;
}

function codePointsOf(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

export function checkText(
  problems: ProblemCollector,
  pointer: string,
  value: string | null,
  bounds: { min?: number; max: number; required?: boolean },
): void {
  if (value === null) {
    if (bounds.required) problems.add(pointer, 'is required');
    return;
  }
  // PostgreSQL cannot store U+0000 in text; refusing it here keeps every store alike and names the field.
  if (value.includes('\u0000')) problems.add(pointer, 'must not contain the NUL character (U+0000)');
  // Text without surrogates (every Cyrillic and Latin text) has none unpaired, and a code point per code unit:
  // one scan instead of two, on every text of every record written.
  const surrogates = SURROGATE.test(value);
  if (surrogates && LONE_SURROGATE.test(value)) problems.add(pointer, 'must not contain an unpaired surrogate (not valid Unicode text)');
  const length = surrogates ? codePointsOf(value) : value.length;
  if (bounds.min !== undefined && length < bounds.min) problems.add(pointer, `must be at least ${bounds.min} characters`);
  if (length > bounds.max) problems.add(pointer, `must be at most ${bounds.max} characters`);
}

export function checkList(
  problems: ProblemCollector,
  pointer: string,
  values: readonly string[],
  bounds: { maxItems: number; maxLength: number },
): void {
  if (values.length > bounds.maxItems) problems.add(pointer, `must have at most ${bounds.maxItems} items`);
  values.forEach((value, index) => checkText(problems, `${pointer}/${index}`, value, { max: bounds.maxLength }));
}

/**
 * Two values of plain data (strings, numbers, booleans, null, arrays, objects, Dates) are equal: their
 * canonicalJson texts are, without writing them (a resume compared on every update of a card made two texts
 * and two sorted copies of it). So, as in JSON: a Date equals its ISO text; a number that is not finite equals
 * null; an undefined property is no property; an undefined item of an array is null.
 */
export function sameData(a: unknown, b: unknown): boolean {
  return sameJson(a, b, false);
}

function sameJson(left: unknown, right: unknown, item: boolean): boolean {
  let a = asJson(left);
  let b = asJson(right);
  if (item) {
    a ??= null;
    b ??= null;
  }
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], true)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  for (const key of Object.keys(x)) {
    const value = x[key];
    if (value === undefined) continue;
    keys++;
    if (!Object.prototype.hasOwnProperty.call(y, key) || !sameJson(value, y[key], false)) return false;
  }
  for (const key of Object.keys(y)) if (y[key] !== undefined) keys--;
  return keys === 0;
}

/** What JSON.stringify of canonicalJson's copy makes of a value before writing it. */
function asJson(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return value;
}

/** JSON with object keys sorted, so that equal data has one text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const entry = (value as Record<string, unknown>)[key];
      if (entry !== undefined) out[key] = sortKeys(entry);
    }
    return out;
  }
  return value;
}
