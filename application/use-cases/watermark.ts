/**
 * The watermark of a read whose lock was taken at `now`: every change the read could not see is stamped
 * later than this. One millisecond back also covers rounding of stored times to milliseconds.
 */
export function watermarkOf(now: Date): Date {
  return new Date(now.getTime() - 1);
}
