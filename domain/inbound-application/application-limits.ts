/** Bounds of an inbound application, as spec part 8 sets them. The HTTP schemas import these. */
export const EXTERNAL_ID_MIN_LENGTH = 1;
export const EXTERNAL_ID_MAX_LENGTH = 200;
export const VACANCY_ID_MIN_LENGTH = 1;
export const VACANCY_ID_MAX_LENGTH = 64;
export const SOURCE_MAX_LENGTH = 60;
export const COVER_LETTER_MAX_LENGTH = 20_000;

export const PERSON_NAME_MIN_LENGTH = 1;
export const PERSON_NAME_MAX_LENGTH = 300;
export const EMAIL_MAX_LENGTH = 320;
export const PHONE_MAX_LENGTH = 60;
export const LOCATION_MAX_LENGTH = 200;

export const RESUME_ROLE_MAX_LENGTH = 300;
export const RESUME_SUMMARY_MAX_LENGTH = 20_000;
export const EXPERIENCE_YEARS_MIN = 0;
export const EXPERIENCE_YEARS_MAX = 80;
export const SKILLS_MAX_ITEMS = 200;
export const SKILL_MAX_LENGTH = 120;
export const EXPERIENCE_MAX_ITEMS = 100;
export const EXPERIENCE_COMPANY_MAX_LENGTH = 300;
export const EXPERIENCE_ROLE_MAX_LENGTH = 300;
export const PERIOD_MAX_LENGTH = 120;
export const EXPERIENCE_DESCRIPTION_MAX_LENGTH = 5_000;
export const EDUCATION_MAX_ITEMS = 100;
export const EDUCATION_INSTITUTION_MAX_LENGTH = 300;
export const EDUCATION_DEGREE_MAX_LENGTH = 300;
export const EXPECTED_SALARY_MIN = 0;
/** Larger integers have no exact double: 2^53 + 1 would be stored as 2^53. */
export const EXPECTED_SALARY_MAX = Number.MAX_SAFE_INTEGER;
export const EXPECTED_SALARY_CURRENCY_MAX_LENGTH = 10;

export const REFERRAL_NAME_MIN_LENGTH = 1;
export const REFERRAL_NAME_MAX_LENGTH = 300;
export const REFERRAL_COMPANY_MAX_LENGTH = 300;
export const REFERRAL_RELATIONSHIP_MAX_LENGTH = 200;

/** The `source` of an application whose request did not name one. */
export const DEFAULT_APPLICATION_SOURCE = 'api';
/** The `source` of a card a recruiter made by hand (spec 2.2.1). */
export const MANUAL_SOURCE = 'manual';
