/** Bounds of a vacancy as the platform keeps it (the specification sets none; these are ours). */
export const VACANCY_ID_MAX_LENGTH = 64;
export const VACANCY_TITLE_MAX_LENGTH = 300;
export const VACANCY_SHORT_TEXT_MAX_LENGTH = 500;
export const VACANCY_LIST_MAX_ITEMS = 200;
export const VACANCY_LIST_ITEM_MAX_LENGTH = 200;
export const VACANCY_DESCRIPTION_MAX_LENGTH = 100_000;
export const VACANCY_URL_MAX_LENGTH = 2_000;
export const CURRENCY_MAX_LENGTH = 10;
export const RECRUITER_MAX_LENGTH = 300;
/** The most positions a vacancy can have: what the store keeps (a 32-bit integer), far beyond any real vacancy. */
export const POSITIONS_COUNT_MAX = 2_147_483_647;
/** publishedAt is a date of years 0001 to 9999 (UTC): what RFC 3339 writes and PostgreSQL keeps. */
export const PUBLISHED_AT_MIN_YEAR = 1;
export const PUBLISHED_AT_MAX_YEAR = 9_999;
