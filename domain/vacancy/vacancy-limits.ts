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
