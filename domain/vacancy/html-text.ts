/** Elements whose tags (opening or closing) end a line of the text. */
const BLOCK_ELEMENTS = new Set(['p', 'div', 'br', 'li', 'ul', 'ol', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'tr', 'table', 'section', 'article', 'blockquote']);
/** After `<`: blanks, then a `/` with blanks after it, optional. One way to match, so no backtracking. */
const TAG_PREFIX = /\s*(?:\/\s*)?/y;
const TAG_NAME = /\w*/y;
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', laquo: '«', raquo: '»',
  hellip: '…', bull: '•', middot: '·', copy: '©', reg: '®', trade: '™', rsquo: '’', lsquo: '‘', ldquo: '“', rdquo: '”',
};

function decodeEntity(entity: string, body: string): string {
  if (body.startsWith('#x') || body.startsWith('#X')) return fromCodePoint(Number.parseInt(body.slice(2), 16), entity);
  if (body.startsWith('#')) return fromCodePoint(Number.parseInt(body.slice(1), 10), entity);
  return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
}

function fromCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

/**
 * Where the block tag that starts with the `<` at `start` ends (after its `>`), or -1 when none starts
 * there. `closerAt(start)` is the first `>` after it: nothing between `<` and the end of the name can be one.
 */
function blockTagEnd(html: string, start: number, closerAt: (from: number) => number): number {
  TAG_PREFIX.lastIndex = start + 1;
  TAG_PREFIX.exec(html);
  TAG_NAME.lastIndex = TAG_PREFIX.lastIndex;
  const name = (TAG_NAME.exec(html) as RegExpExecArray)[0];
  if (!BLOCK_ELEMENTS.has(name.toLowerCase())) return -1;
  const closer = closerAt(start);
  return closer === -1 ? -1 : closer + 1;
}

/**
 * The first `>` at or after `from`, for calls whose `from` never decreases: each part of the text is
 * searched once, so a text of many `<` and no `>` costs one search, not one per `<`.
 */
function closerFinder(text: string): (from: number) => number {
  let found = -2;
  return (from) => {
    if (found !== -1 && found < from) found = text.indexOf('>', from);
    return found;
  };
}

/** Every block tag (from `<` to the next `>`) replaced by a line break. */
function breakAtBlockTags(html: string): string {
  const closerAt = closerFinder(html);
  const parts: string[] = [];
  let copied = 0;
  for (let start = html.indexOf('<'); start !== -1; ) {
    const end = blockTagEnd(html, start, closerAt);
    if (end === -1) {
      start = html.indexOf('<', start + 1);
      continue;
    }
    parts.push(html.slice(copied, start), '\n');
    copied = end;
    start = html.indexOf('<', end);
  }
  parts.push(html.slice(copied));
  return parts.join('');
}

/** Every remaining tag, from `<` to the next `>`, removed; a `<` with no `>` after it is text. */
function removeTags(text: string): string {
  const parts: string[] = [];
  let copied = 0;
  for (let start = text.indexOf('<'); start !== -1; start = text.indexOf('<', copied)) {
    const closer = text.indexOf('>', start);
    if (closer === -1) break;
    parts.push(text.slice(copied, start));
    copied = closer + 1;
  }
  parts.push(text.slice(copied));
  return parts.join('');
}

/** The tag step of htmlToText: block tags become line breaks, then every other tag goes. */
export function stripTags(html: string): string {
  return removeTags(breakAtBlockTags(html));
}

/**
 * The text of an HTML fragment: tags removed, block boundaries as line breaks, entities decoded. In time
 * linear in its length, whatever the input (a description is untrusted): scans, not regular expressions
 * that would try each `<` against the rest of the text.
 */
export function htmlToText(html: string): string {
  const text = stripTags(html)
    .replace(/&(#[0-9]+|#x[0-9a-f]+|[a-z]+);/gi, (entity, body: string) => decodeEntity(entity, body));
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}
