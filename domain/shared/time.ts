/** Truncates a moment to whole milliseconds (JavaScript Dates already are) and copies it. */
export function copyDate(value: Date): Date {
  return new Date(value.getTime());
}

export function laterOf(a: Date, b: Date): Date {
  return a.getTime() >= b.getTime() ? copyDate(a) : copyDate(b);
}
