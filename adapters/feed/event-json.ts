import { decodeUtf8, nestsDeeperThan } from '../json/json-text.js';
import type { EventProblem } from './event-problems.js';
import { EVENT_MAX_BYTES, EVENT_MAX_DEPTH } from './feed-limits.js';

export type EventJson =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: 'invalid_json' | 'invalid_event'; readonly problem: EventProblem };

/**
 * The JSON of a message body. Bytes that are not UTF-8 (RFC 8259 8.1) or not JSON are `invalid_json`; a
 * body over EVENT_MAX_BYTES or nesting deeper than EVENT_MAX_DEPTH is JSON no event can be (`invalid_event`),
 * refused before JSON.parse spends time on it. A leading byte order mark is dropped.
 */
export function readEventJson(body: Buffer | string): EventJson {
  const size = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
  if (size > EVENT_MAX_BYTES) return refused('invalid_event', `must be at most ${EVENT_MAX_BYTES} bytes`);
  const text = typeof body === 'string' ? body : decodeUtf8(body);
  if (text === null) return refused('invalid_json', 'must be UTF-8');
  if (nestsDeeperThan(text, EVENT_MAX_DEPTH)) return refused('invalid_event', `must not nest deeper than ${EVENT_MAX_DEPTH} levels`);
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return refused('invalid_json', 'must be valid JSON');
  }
}

function refused(reason: 'invalid_json' | 'invalid_event', message: string): EventJson {
  return { ok: false, reason, problem: { pointer: '', message } };
}
