const BLOCK_TAG = /<\s*\/?\s*(p|div|br|li|ul|ol|h[1-6]|tr|table|section|article|blockquote)\b[^>]*>/gi;
const ANY_TAG = /<[^>]*>/g;
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

/** The text of an HTML fragment: tags removed, block boundaries as line breaks, entities decoded. */
export function htmlToText(html: string): string {
  const text = html
    .replace(BLOCK_TAG, '\n')
    .replace(ANY_TAG, '')
    .replace(/&(#[0-9]+|#x[0-9a-f]+|[a-z]+);/gi, (entity, body: string) => decodeEntity(entity, body));
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}
