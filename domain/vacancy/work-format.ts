export const WORK_FORMATS = ['remote', 'office', 'hybrid', 'other'] as const;
export type WorkFormat = (typeof WORK_FORMATS)[number];

/** What one of the source's work-format entries means, before normalisation. */
export type WorkFormatKind = 'remote' | 'onsite' | 'hybrid' | 'other';

export function isWorkFormat(value: unknown): value is WorkFormat {
  return typeof value === 'string' && (WORK_FORMATS as readonly string[]).includes(value);
}

/**
 * Normalises the formats a source lists (DESIGN 3): only remote -> remote; only on-site -> office;
 * remote and on-site, or any hybrid one -> hybrid; anything else -> other; none -> null.
 */
export function normaliseWorkFormat(kinds: readonly WorkFormatKind[]): WorkFormat | null {
  const set = new Set(kinds);
  if (set.size === 0) return null;
  if (set.has('hybrid') || (set.has('remote') && set.has('onsite'))) return 'hybrid';
  if (set.size === 1 && set.has('remote')) return 'remote';
  if (set.size === 1 && set.has('onsite')) return 'office';
  return 'other';
}

const HYBRID_WORDS = ['hybrid', 'гибрид', 'смешан'];
const REMOTE_WORDS = ['remote', 'удален', 'удалён', 'дистанц', 'из дома', 'home office', 'work from home'];
const ONSITE_WORDS = ['office', 'on-site', 'onsite', 'on site', 'офис', 'на месте', 'в офисе'];

/** Classifies a work-format name written in English or Russian, as a recruiter or a board would write it. */
export function classifyWorkFormatName(name: string): WorkFormatKind {
  const text = name.toLowerCase().replace(/ё/g, 'е');
  const has = (words: readonly string[]) => words.some((word) => text.includes(word.replace(/ё/g, 'е')));
  if (has(HYBRID_WORDS)) return 'hybrid';
  if (has(REMOTE_WORDS)) return 'remote';
  if (has(ONSITE_WORDS)) return 'onsite';
  return 'other';
}

export function workFormatFromNames(names: readonly string[]): WorkFormat | null {
  return normaliseWorkFormat(names.map(classifyWorkFormatName));
}
