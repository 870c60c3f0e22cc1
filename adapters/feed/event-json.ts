import type { EventProblem } from './event-problems.js';
import { EVENT_MAX_BYTES, EVENT_MAX_DEPTH } from './feed-limits.js';

export type EventJson =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: 'invalid_json' | 'invalid_event'; readonly problem: EventProblem };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON of a message body. Bytes that are not UTF-8 (RFC 8259 8.1) or not JSON are `invalid_json`; a
 * body over EVENT_MAX_BYTES or nesting deeper than EVENT_MAX_DEPTH is JSON no event can be (`invalid_event`),
 * refused before JSON.parse spends time on it. A leading byte order mark is dropped.
 */
export function readEventJson(body: Buffer | string): EventJson {
  const size = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
  if (size > EVENT_MAX_BYTES) return refused('invalid_event', `must be at most ${EVENT_MAX_BYTES} bytes`);
  let text: string;
  try {
    text = typeof body === 'string' ? body : utf8.decode(body);
  } catch {
    return refused('invalid_json', 'must be UTF-8');
  }
  if (depthExceeds(text, EVENT_MAX_DEPTH)) return refused('invalid_event', `must not nest deeper than ${EVENT_MAX_DEPTH} levels`);
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return refused('invalid_json', 'must be valid JSON');
  }
}

function refused(reason: 'invalid_json' | 'invalid_event', message: string): EventJson {
  return { ok: false, reason, problem: { pointer: '', message } };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/** Whether brackets outside strings open more than `limit` levels at some point (the text may not be JSON). */
function depthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let quoted = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quoted) {
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) quoted = false;
    } else if (c === QUOTE) quoted = true;
    else if (OPENERS.has(c)) {
      depth += 1;
      if (depth > limit) return true;
    } else if (CLOSERS.has(c)) depth -= 1;
  }
  return false;
}
