import { EN } from './i18n/en.js';
import type { Dictionary, Language } from './i18n/dictionary.js';
import { RU } from './i18n/ru.js';

const DICTIONARIES: Readonly<Record<Language, Dictionary>> = { en: EN, ru: RU };

export function dictionaryFor(language: Language): Dictionary {
  return DICTIONARIES[language];
}

export function isLanguage(value: unknown): value is Language {
  return value === 'en' || value === 'ru';
}

/**
 * `?lang=ru|en` when given (every link and form of the page carries it on), else the first of the
 * browser's Accept-Language preferences that the page speaks, else `fallback`.
 */
export function chooseLanguage(query: unknown, acceptLanguage: string | undefined, fallback: Language): Language {
  if (isLanguage(query)) return query;
  for (const preference of preferences(acceptLanguage ?? '')) {
    const primary = preference.split('-')[0]?.toLowerCase();
    if (isLanguage(primary)) return primary;
  }
  return fallback;
}

/** Language tags by falling q, ties in the order sent; q=0 means "not this one". */
function preferences(header: string): string[] {
  return header
    .split(',')
    .map((entry, index) => {
      const [tag = '', ...parameters] = entry.trim().split(';');
      const q = parameters.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag !== '' && entry.q > 0 && Number.isFinite(entry.q))
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}
