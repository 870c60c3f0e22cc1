/** The wire form of every timestamp (DESIGN 3): `YYYY-MM-DDTHH:mm:ss.sssZ`, milliseconds and Z always present. */
export function isoTimestamp(date: Date): string {
  return date.toISOString();
}

export function isoTimestampOrNull(date: Date | null): string | null {
  return date === null ? null : isoTimestamp(date);
}
