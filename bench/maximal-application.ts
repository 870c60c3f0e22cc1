import * as L from '../domain/inbound-application/application-limits.js';

/** Cyrillic text of `length` characters (two bytes each in UTF-8). */
const cyrillic = (length: number) => 'Щёлкнуть'.repeat(Math.ceil(length / 8)).slice(0, length);

/** An e-mail address of `length` characters: a long local part at a domain of four 63-letter labels. */
function emailOfLength(length: number): string {
  const domain = ['b', 'c', 'd', 'e'].map((letter) => letter.repeat(63)).join('.');
  return `${'a'.repeat(length - 1 - domain.length)}@${domain}`;
}

/**
 * The largest application POST /applications accepts, every field at its limit in Cyrillic: about 1.43 MB of
 * JSON, as the security review planted them with nothing but `applications:write`.
 */
export function maximalApplication(externalId: string, vacancyId: string): string {
  const experience = {
    company: cyrillic(L.EXPERIENCE_COMPANY_MAX_LENGTH),
    role: cyrillic(L.EXPERIENCE_ROLE_MAX_LENGTH),
    period: cyrillic(L.PERIOD_MAX_LENGTH),
    description: cyrillic(L.EXPERIENCE_DESCRIPTION_MAX_LENGTH),
  };
  const education = { institution: cyrillic(L.EDUCATION_INSTITUTION_MAX_LENGTH), degree: cyrillic(L.EDUCATION_DEGREE_MAX_LENGTH), period: cyrillic(L.PERIOD_MAX_LENGTH) };
  return JSON.stringify({
    externalId,
    vacancyId,
    source: cyrillic(L.SOURCE_MAX_LENGTH),
    candidate: {
      name: cyrillic(L.PERSON_NAME_MAX_LENGTH),
      email: emailOfLength(L.EMAIL_MAX_LENGTH),
      phone: cyrillic(L.PHONE_MAX_LENGTH),
      location: cyrillic(L.LOCATION_MAX_LENGTH),
      birthDate: '1990-01-01',
    },
    coverLetter: cyrillic(L.COVER_LETTER_MAX_LENGTH),
    resume: {
      role: cyrillic(L.RESUME_ROLE_MAX_LENGTH),
      summary: cyrillic(L.RESUME_SUMMARY_MAX_LENGTH),
      experienceYears: L.EXPERIENCE_YEARS_MAX,
      skills: Array.from({ length: L.SKILLS_MAX_ITEMS }, () => cyrillic(L.SKILL_MAX_LENGTH)),
      experience: Array.from({ length: L.EXPERIENCE_MAX_ITEMS }, () => experience),
      education: Array.from({ length: L.EDUCATION_MAX_ITEMS }, () => education),
      expectedSalary: 0,
      expectedSalaryCurrency: cyrillic(L.EXPECTED_SALARY_CURRENCY_MAX_LENGTH),
    },
    referral: {
      name: cyrillic(L.REFERRAL_NAME_MAX_LENGTH),
      email: emailOfLength(L.EMAIL_MAX_LENGTH),
      phone: cyrillic(L.PHONE_MAX_LENGTH),
      company: cyrillic(L.REFERRAL_COMPANY_MAX_LENGTH),
      relationship: cyrillic(L.REFERRAL_RELATIONSHIP_MAX_LENGTH),
    },
  });
}
