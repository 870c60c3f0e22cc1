import type { ProblemCollector } from './domain-error.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Length in Unicode code points, which is what JSON Schema's maxLength counts. */
export function codePointLength(value: string): number {
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
  if (LONE_SURROGATE.test(value)) problems.add(pointer, 'must not contain an unpaired surrogate (not valid Unicode text)');
  const length = codePointLength(value);
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

/** Two values of plain data (strings, numbers, booleans, null, arrays, objects, Dates) are equal. */
export function sameData(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
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
