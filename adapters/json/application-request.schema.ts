import * as L from '../../domain/inbound-application/application-limits.js';
import { CALENDAR_DATE_PATTERN } from '../../domain/candidate/candidate-rules.js';
import { EMAIL_ADDRESS_PATTERN } from '../../domain/candidate/email-address.js';
import { NON_BLANK_TEXT_PATTERN, STORABLE_TEXT_PATTERN } from '../../domain/shared/text-patterns.js';

/**
 * The request body of POST /applications (spec 4.3), which the feed's application.submitted carries as its
 * data: the single source of truth for validation (ajv), for the OpenAPI document and for the AsyncAPI
 * document. Bounds and patterns are the domain's constants. Unknown fields are
 * stripped before anything reads the body, so they are ignored and never stored; `default`s are filled
 * in by ajv. Lengths count Unicode code points. Every string admits no U+0000 and no unpaired surrogate.
 */
const text = (maxLength: number, description?: string) => ({
  type: 'string',
  maxLength,
  pattern: STORABLE_TEXT_PATTERN,
  ...(description === undefined ? {} : { description }),
});
const id = (minLength: number, maxLength: number, description?: string) => ({ ...text(maxLength, description), minLength });
/** Required names must hold a character other than white space. */
const name = (minLength: number, maxLength: number) => ({
  type: 'string',
  minLength,
  maxLength,
  pattern: NON_BLANK_TEXT_PATTERN,
  description: 'Must hold a character other than white space.',
});
const email = () => ({
  type: 'string',
  maxLength: L.EMAIL_MAX_LENGTH,
  pattern: EMAIL_ADDRESS_PATTERN,
  description:
    'An e-mail address as HTML\'s <input type="email"> takes it (WHATWG "valid e-mail address"), with letters and digits of ' +
    'any script allowed where that rule allows ASCII ones: user@example.kz, user@localhost, имя@почта.рф. Quoted local ' +
    'parts and address literals ("a b"@example.kz, user@[127.0.0.1]) are refused.',
});
const itemText = (maxLength: number) => ({ ...text(maxLength), default: '' });

export const candidateInputSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: name(L.PERSON_NAME_MIN_LENGTH, L.PERSON_NAME_MAX_LENGTH),
    email: email(),
    phone: text(L.PHONE_MAX_LENGTH),
    location: text(L.LOCATION_MAX_LENGTH),
    birthDate: { type: ['string', 'null'], format: 'date', pattern: CALENDAR_DATE_PATTERN, description: 'A calendar date YYYY-MM-DD, or null.' },
  },
};

export const experienceInputSchema = {
  type: 'object',
  properties: {
    company: itemText(L.EXPERIENCE_COMPANY_MAX_LENGTH),
    role: itemText(L.EXPERIENCE_ROLE_MAX_LENGTH),
    period: itemText(L.PERIOD_MAX_LENGTH),
    description: itemText(L.EXPERIENCE_DESCRIPTION_MAX_LENGTH),
  },
};

export const educationInputSchema = {
  type: 'object',
  properties: {
    institution: itemText(L.EDUCATION_INSTITUTION_MAX_LENGTH),
    degree: itemText(L.EDUCATION_DEGREE_MAX_LENGTH),
    period: itemText(L.PERIOD_MAX_LENGTH),
  },
};

export const resumeInputSchema = {
  type: 'object',
  properties: {
    role: text(L.RESUME_ROLE_MAX_LENGTH),
    summary: text(L.RESUME_SUMMARY_MAX_LENGTH),
    experienceYears: { type: 'integer', minimum: L.EXPERIENCE_YEARS_MIN, maximum: L.EXPERIENCE_YEARS_MAX },
    skills: { type: 'array', maxItems: L.SKILLS_MAX_ITEMS, items: text(L.SKILL_MAX_LENGTH), default: [] },
    experience: { type: 'array', maxItems: L.EXPERIENCE_MAX_ITEMS, items: experienceInputSchema, default: [] },
    education: { type: 'array', maxItems: L.EDUCATION_MAX_ITEMS, items: educationInputSchema, default: [] },
    expectedSalary: { type: 'integer', minimum: L.EXPECTED_SALARY_MIN, maximum: L.EXPECTED_SALARY_MAX },
    expectedSalaryCurrency: text(L.EXPECTED_SALARY_CURRENCY_MAX_LENGTH),
  },
};

export const referralInputSchema = {
  type: 'object',
  required: ['name'],
  description: 'Present exactly when the application is a referral.',
  properties: {
    name: name(L.REFERRAL_NAME_MIN_LENGTH, L.REFERRAL_NAME_MAX_LENGTH),
    email: email(),
    phone: text(L.PHONE_MAX_LENGTH),
    company: text(L.REFERRAL_COMPANY_MAX_LENGTH),
    relationship: text(L.REFERRAL_RELATIONSHIP_MAX_LENGTH),
  },
};

export const applicationRequestSchema = {
  type: 'object',
  required: ['externalId', 'vacancyId', 'candidate'],
  description:
    'Fields not listed here are ignored and not stored. No type coercion: a wrong type is a 400. No string may contain ' +
    'U+0000 (NUL) or an unpaired surrogate, and no object a __proto__ key (400). Of duplicate keys the last one counts.',
  properties: {
    externalId: id(L.EXTERNAL_ID_MIN_LENGTH, L.EXTERNAL_ID_MAX_LENGTH, "The client's own identifier; unique within the company."),
    vacancyId: id(L.VACANCY_ID_MIN_LENGTH, L.VACANCY_ID_MAX_LENGTH, 'The id of a vacancy of the company (any status); another id is a 404.'),
    source: text(
      L.SOURCE_MAX_LENGTH,
      `The client's label, returned as the candidate's source. Absent or empty: "${L.DEFAULT_APPLICATION_SOURCE}". ` +
        `Not "${L.MANUAL_SOURCE}" nor the job board's label ("hh" unless JOB_BOARD_LABEL sets another), which mark the platform's own cards (400), in any case and with spaces around ignored.`,
    ),
    candidate: candidateInputSchema,
    coverLetter: text(L.COVER_LETTER_MAX_LENGTH),
    resume: resumeInputSchema,
    referral: referralInputSchema,
  },
};

/** The body after validation: defaults filled in, unknown fields gone. */
export interface ApplicationRequestBody {
  externalId: string;
  vacancyId: string;
  source?: string;
  candidate: { name: string; email?: string; phone?: string; location?: string; birthDate?: string | null };
  coverLetter?: string;
  resume?: {
    role?: string;
    summary?: string;
    experienceYears?: number;
    skills: string[];
    experience: { company: string; role: string; period: string; description: string }[];
    education: { institution: string; degree: string; period: string }[];
    expectedSalary?: number;
    expectedSalaryCurrency?: string;
  };
  referral?: { name: string; email?: string; phone?: string; company?: string; relationship?: string };
}
