import { BOARD_COLUMN_MAX_LENGTH } from '../../../domain/board/board.js';
import * as R from '../../../domain/candidate/candidate-rules.js';
import { EMAIL_ADDRESS_PATTERN } from '../../../domain/candidate/email-address.js';
import * as L from '../../../domain/inbound-application/application-limits.js';
import { id, name, object, objects, optionalInteger, optionalText, texts, type Schema } from '../../json/schema-parts.js';

const SHORT = R.RESUME_SHORT_TEXT_MAX_LENGTH;
const LONG = R.RESUME_LONG_TEXT_MAX_LENGTH;

const email = (): Schema => ({
  type: ['string', 'null'],
  maxLength: L.EMAIL_MAX_LENGTH,
  pattern: EMAIL_ADDRESS_PATTERN,
  description: 'An e-mail address as a browser\'s <input type="email"> takes it, letters of any script allowed.',
});

/** A resume item's texts: a text not given is "". */
const item = (fields: Record<string, number>, description?: string): Schema =>
  object(Object.fromEntries(Object.entries(fields).map(([field, max]) => [field, optionalText(max)])), [], description);

/** The person of a card made on the platform. */
export const personDataSchema: Schema = object(
  {
    name: name(L.PERSON_NAME_MAX_LENGTH),
    email: email(),
    phone: optionalText(L.PHONE_MAX_LENGTH),
    location: optionalText(L.LOCATION_MAX_LENGTH),
    birthDate: { type: ['string', 'null'], format: 'date', pattern: R.CALENDAR_DATE_PATTERN, description: 'A calendar date YYYY-MM-DD.' },
    gender: optionalText(R.GENDER_MAX_LENGTH, 'A text label, in the wording of the platform.'),
    citizenship: texts(R.CITIZENSHIP_MAX_ITEMS, R.CITIZENSHIP_MAX_LENGTH),
  },
  ['name'],
);

export const referralDataSchema: Schema = {
  ...object(
    {
      name: name(L.REFERRAL_NAME_MAX_LENGTH),
      email: email(),
      phone: optionalText(L.PHONE_MAX_LENGTH),
      company: optionalText(L.REFERRAL_COMPANY_MAX_LENGTH),
      relationship: optionalText(L.REFERRAL_RELATIONSHIP_MAX_LENGTH),
    },
    ['name'],
    'Who recommended the person; null or absent when nobody did.',
  ),
  type: ['object', 'null'],
};

/** A resume, fields as the API's resume (the file of `admin candidate update-resume`). */
export const resumeDataSchema: Schema = object({
  role: optionalText(L.RESUME_ROLE_MAX_LENGTH),
  summary: optionalText(L.RESUME_SUMMARY_MAX_LENGTH),
  experienceYears: optionalInteger(L.EXPERIENCE_YEARS_MIN, L.EXPERIENCE_YEARS_MAX),
  skills: texts(L.SKILLS_MAX_ITEMS, L.SKILL_MAX_LENGTH),
  skillsDescription: optionalText(L.RESUME_SUMMARY_MAX_LENGTH),
  experience: objects(
    L.EXPERIENCE_MAX_ITEMS,
    item({ company: L.EXPERIENCE_COMPANY_MAX_LENGTH, role: L.EXPERIENCE_ROLE_MAX_LENGTH, period: L.PERIOD_MAX_LENGTH, description: L.EXPERIENCE_DESCRIPTION_MAX_LENGTH }),
    'Jobs; a text not given is "".',
  ),
  education: objects(L.EDUCATION_MAX_ITEMS, item({ institution: L.EDUCATION_INSTITUTION_MAX_LENGTH, degree: L.EDUCATION_DEGREE_MAX_LENGTH, period: L.PERIOD_MAX_LENGTH })),
  additionalEducation: objects(L.EDUCATION_MAX_ITEMS, item({ institution: SHORT, course: SHORT, result: SHORT, period: L.PERIOD_MAX_LENGTH }), 'Courses and trainings.'),
  languages: objects(R.RESUME_LANGUAGES_MAX_ITEMS, item({ name: SHORT, level: SHORT })),
  certificates: objects(R.RESUME_CERTIFICATES_MAX_ITEMS, item({ title: SHORT, date: L.PERIOD_MAX_LENGTH, url: LONG })),
  portfolio: objects(R.RESUME_PORTFOLIO_MAX_ITEMS, item({ url: LONG, description: LONG })),
  expectedSalary: optionalInteger(L.EXPECTED_SALARY_MIN, L.EXPECTED_SALARY_MAX),
  expectedSalaryCurrency: optionalText(L.EXPECTED_SALARY_CURRENCY_MAX_LENGTH),
  preferredWorkFormat: texts(R.PREFERRED_WORK_FORMAT_MAX_ITEMS, SHORT),
  preferredEmployment: optionalText(SHORT),
  relocation: optionalText(SHORT),
  sourceUrl: optionalText(LONG),
});

const stage = (description: string): Schema => ({ ...id(BOARD_COLUMN_MAX_LENGTH), description });

/**
 * `candidate.added`: the record of `admin candidate add`; the event's subject is the card's id. The stage is
 * required, unlike the CLI's: "the first column" would be read when the event is applied, and a reordering of
 * the board delivered before it would put the card elsewhere than the platform did. The platform always knows.
 */
export const candidateAddedDataSchema: Schema = object(
  {
    vacancyId: id(L.VACANCY_ID_MAX_LENGTH, 'The vacancy whose board the card is on.'),
    candidate: personDataSchema,
    resume: { ...resumeDataSchema, type: ['object', 'null'], description: 'Null or absent: an empty resume, completed later.' },
    referral: referralDataSchema,
    stage: stage('The column of the board the platform placed the card in.'),
  },
  ['vacancyId', 'candidate', 'stage'],
);

/** `candidate.moved`: the column the card (the subject) now stands in. */
export const candidateMovedDataSchema: Schema = object({ stage: stage('A column of the board of the card\'s vacancy.') }, ['stage']);

/** `candidate.transferred`: the vacancy a technical copy of the card (the subject) was put on. */
export const candidateTransferredDataSchema: Schema = object(
  { vacancyId: id(L.VACANCY_ID_MAX_LENGTH, 'Another vacancy of the company than the card\'s own.') },
  ['vacancyId'],
);

/** `candidate.detached`: the vacancy the card (the subject) was taken off, its own or one it was transferred to. */
export const candidateDetachedDataSchema: Schema = object(
  { vacancyId: id(L.VACANCY_ID_MAX_LENGTH, 'The deleted vacancy the card was on (its own) or transferred to.') },
  ['vacancyId'],
);

/** `candidate.resume-updated`: the whole new resume of the card (the subject). */
export const candidateResumeUpdatedDataSchema: Schema = resumeDataSchema;
