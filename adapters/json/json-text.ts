/**
 * Bounds and checks of JSON text from outside, before JSON.parse spends time on it. The HTTP adapter reads
 * request bodies with them, the feed its events (an application.submitted carries a POST /applications body).
 */

/** A maximal valid application in Cyrillic is about 1.5 MB; 5 MiB leaves room (DESIGN 3, Body limits). */
export const JSON_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/**
 * Arrays and objects nest at most this deep. The application schema needs 4 levels; JSON.parse of the
 * 2.6 million levels that fit in 5 MiB blocks the event loop for seconds.
 */
export const JSON_MAX_DEPTH = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON text is UTF-8 (RFC 8259 8.1): other bytes give null, rather than U+FFFD replacements that would be
 * stored. A leading byte order mark is dropped.
 */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** One pass over the text, before JSON.parse: brackets inside strings do not count. The text may not be JSON. */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}
