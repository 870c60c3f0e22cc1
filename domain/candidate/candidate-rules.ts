import * as L from '../inbound-application/application-limits.js';
import type { ProblemCollector } from '../shared/domain-error.js';
import { checkList, checkText } from '../shared/text-rules.js';
import type { Person, Referral } from './person.js';
import type { Resume } from './resume.js';
import { isEmailAddress } from './email-address.js';

/** The shape of a date YYYY-MM-DD; isCalendarDate also wants the day to exist. Published as birthDate's pattern. */
export const CALENDAR_DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
const DATE = new RegExp(CALENDAR_DATE_PATTERN);

/** Bounds of the fields the specification leaves open (ours), named so that every schema can take them. */
export const GENDER_MAX_LENGTH = 60;
export const CITIZENSHIP_MAX_ITEMS = 20;
export const CITIZENSHIP_MAX_LENGTH = 120;
export const RESUME_SHORT_TEXT_MAX_LENGTH = 300;
export const RESUME_LONG_TEXT_MAX_LENGTH = 5_000;
export const RESUME_LANGUAGES_MAX_ITEMS = 50;
export const RESUME_CERTIFICATES_MAX_ITEMS = 100;
export const RESUME_PORTFOLIO_MAX_ITEMS = 100;
export const PREFERRED_WORK_FORMAT_MAX_ITEMS = 20;
const SHORT = RESUME_SHORT_TEXT_MAX_LENGTH;
const LONG = RESUME_LONG_TEXT_MAX_LENGTH;

/** A calendar date written YYYY-MM-DD that exists. */
export function isCalendarDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function checkEmail(problems: ProblemCollector, pointer: string, value: string | null): void {
  checkText(problems, pointer, value, { max: L.EMAIL_MAX_LENGTH });
  if (value !== null && !isEmailAddress(value)) problems.add(pointer, 'must be an e-mail address');
}

function checkName(problems: ProblemCollector, pointer: string, value: string, max: number): void {
  checkText(problems, pointer, value, { min: 1, max, required: true });
  if (typeof value === 'string' && value.trim() === '') problems.add(pointer, 'must not be blank');
}

export function checkPerson(problems: ProblemCollector, pointer: string, person: Person): void {
  checkName(problems, `${pointer}/name`, person.name, L.PERSON_NAME_MAX_LENGTH);
  checkEmail(problems, `${pointer}/email`, person.email);
  checkText(problems, `${pointer}/phone`, person.phone, { max: L.PHONE_MAX_LENGTH });
  checkText(problems, `${pointer}/location`, person.location, { max: L.LOCATION_MAX_LENGTH });
  if (person.birthDate !== null && !isCalendarDate(person.birthDate)) problems.add(`${pointer}/birthDate`, 'must be a date, YYYY-MM-DD');
  checkText(problems, `${pointer}/gender`, person.gender, { max: GENDER_MAX_LENGTH });
  checkList(problems, `${pointer}/citizenship`, person.citizenship, { maxItems: CITIZENSHIP_MAX_ITEMS, maxLength: CITIZENSHIP_MAX_LENGTH });
}

export function checkReferral(problems: ProblemCollector, pointer: string, referral: Referral | null): void {
  if (referral === null) return;
  checkName(problems, `${pointer}/name`, referral.name, L.REFERRAL_NAME_MAX_LENGTH);
  checkEmail(problems, `${pointer}/email`, referral.email);
  checkText(problems, `${pointer}/phone`, referral.phone, { max: L.PHONE_MAX_LENGTH });
  checkText(problems, `${pointer}/company`, referral.company, { max: L.REFERRAL_COMPANY_MAX_LENGTH });
  checkText(problems, `${pointer}/relationship`, referral.relationship, { max: L.REFERRAL_RELATIONSHIP_MAX_LENGTH });
}

export function checkResume(problems: ProblemCollector, pointer: string, resume: Resume): void {
  checkText(problems, `${pointer}/role`, resume.role, { max: L.RESUME_ROLE_MAX_LENGTH });
  checkText(problems, `${pointer}/summary`, resume.summary, { max: L.RESUME_SUMMARY_MAX_LENGTH });
  checkText(problems, `${pointer}/skillsDescription`, resume.skillsDescription, { max: L.RESUME_SUMMARY_MAX_LENGTH });
  const years = resume.experienceYears;
  if (years !== null && !(Number.isInteger(years) && years >= L.EXPERIENCE_YEARS_MIN && years <= L.EXPERIENCE_YEARS_MAX)) {
    problems.add(`${pointer}/experienceYears`, `must be an integer from ${L.EXPERIENCE_YEARS_MIN} to ${L.EXPERIENCE_YEARS_MAX}`);
  }
  checkList(problems, `${pointer}/skills`, resume.skills, { maxItems: L.SKILLS_MAX_ITEMS, maxLength: L.SKILL_MAX_LENGTH });
  checkItems(problems, `${pointer}/experience`, resume.experience, L.EXPERIENCE_MAX_ITEMS, {
    company: L.EXPERIENCE_COMPANY_MAX_LENGTH,
    role: L.EXPERIENCE_ROLE_MAX_LENGTH,
    period: L.PERIOD_MAX_LENGTH,
    description: L.EXPERIENCE_DESCRIPTION_MAX_LENGTH,
  });
  checkItems(problems, `${pointer}/education`, resume.education, L.EDUCATION_MAX_ITEMS, {
    institution: L.EDUCATION_INSTITUTION_MAX_LENGTH,
    degree: L.EDUCATION_DEGREE_MAX_LENGTH,
    period: L.PERIOD_MAX_LENGTH,
  });
  checkItems(problems, `${pointer}/additionalEducation`, resume.additionalEducation, L.EDUCATION_MAX_ITEMS, {
    institution: SHORT, course: SHORT, result: SHORT, period: L.PERIOD_MAX_LENGTH,
  });
  checkItems(problems, `${pointer}/languages`, resume.languages, RESUME_LANGUAGES_MAX_ITEMS, { name: SHORT, level: SHORT });
  checkItems(problems, `${pointer}/certificates`, resume.certificates, RESUME_CERTIFICATES_MAX_ITEMS, { title: SHORT, date: L.PERIOD_MAX_LENGTH, url: LONG });
  checkItems(problems, `${pointer}/portfolio`, resume.portfolio, RESUME_PORTFOLIO_MAX_ITEMS, { url: LONG, description: LONG });
  const salary = resume.expectedSalary;
  if (salary !== null && !(Number.isInteger(salary) && salary >= L.EXPECTED_SALARY_MIN && salary <= L.EXPECTED_SALARY_MAX)) {
    problems.add(`${pointer}/expectedSalary`, `must be an integer from ${L.EXPECTED_SALARY_MIN} to ${L.EXPECTED_SALARY_MAX}`);
  }
  checkText(problems, `${pointer}/expectedSalaryCurrency`, resume.expectedSalaryCurrency, { max: L.EXPECTED_SALARY_CURRENCY_MAX_LENGTH });
  checkList(problems, `${pointer}/preferredWorkFormat`, resume.preferredWorkFormat, { maxItems: PREFERRED_WORK_FORMAT_MAX_ITEMS, maxLength: SHORT });
  checkText(problems, `${pointer}/preferredEmployment`, resume.preferredEmployment, { max: SHORT });
  checkText(problems, `${pointer}/relocation`, resume.relocation, { max: SHORT });
  checkText(problems, `${pointer}/sourceUrl`, resume.sourceUrl, { max: LONG });
}

function checkItems<T extends object>(
  problems: ProblemCollector,
  pointer: string,
  items: readonly T[],
  maxItems: number,
  fields: { [K in keyof T]: number },
): void {
  if (items.length > maxItems) problems.add(pointer, `must have at most ${maxItems} items`);
  items.forEach((item, index) => {
    for (const [field, max] of Object.entries(fields) as [string, number][]) {
      const value = (item as Record<string, unknown>)[field];
      if (typeof value !== 'string') problems.add(`${pointer}/${index}/${field}`, 'must be a string');
      else checkText(problems, `${pointer}/${index}/${field}`, value, { max });
    }
  });
}
