import { isoTimestamp } from './timestamp.js';

/**
 * Whether a stored rendering (renderVacancy's text, or renderCandidateRest's) still shows the record whose
 * position is `updatedAt`: it exists and ends with that `updatedAt`, the field both presenters print last.
 * Every visible change of a record moves its updatedAt (the sync contract), so a row that a writer without
 * renderings inserted (null) or changed (the old text, with the old updatedAt) fails this, and a list renders
 * it from its columns instead (ADR 18). A vacancy's title in a card's text is joined at read time anyway.
 */
export function isRenderingCurrent(rendering: string | null, updatedAt: Date): boolean {
  return rendering !== null && rendering.endsWith(`"updatedAt":"${isoTimestamp(updatedAt)}"}`);
}
