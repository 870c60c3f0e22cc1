import fc from 'fast-check';
import * as L from '../../domain/inbound-application/application-limits.js';
import { readsAsReservedSource, reservedApplicationSources } from '../../domain/inbound-application/inbound-application.js';
import { hostileName, hostileText } from './hostile-input.js';

/** E-mail addresses that are valid but carry quotes, plus signs and punycode. */
const emails = fc.constantFrom("o'brien@example.kz", 'a+b@example.uz', 'x@xn--80ak6aa92e.com', 'user.name-1@sub.example.co.uk', "drop'table@example.test");
const birthDates = fc.option(
  fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  { nil: null },
);

const optional = { requiredKeys: [] as [] };

/** A valid application body for `vacancyId`: every optional field may be absent, every string is hostile. */
export function validApplication(vacancyId: string, externalIds: fc.Arbitrary<string>) {
  return fc.record(
    {
      externalId: externalIds,
      vacancyId: fc.constant(vacancyId),
      // Not a label the platform gives its own cards (manual, and the job board's: hh by default), which is refused.
      source: hostileText(L.SOURCE_MAX_LENGTH).filter((source) => !readsAsReservedSource(source, reservedApplicationSources('hh'))),
      candidate: fc.record(
        { name: hostileName(L.PERSON_NAME_MAX_LENGTH), email: emails, phone: hostileText(L.PHONE_MAX_LENGTH), location: hostileText(L.LOCATION_MAX_LENGTH), birthDate: birthDates },
        { requiredKeys: ['name'] },
      ),
      coverLetter: hostileText(L.COVER_LETTER_MAX_LENGTH),
      resume: fc.record(
        {
          role: hostileText(L.RESUME_ROLE_MAX_LENGTH),
          summary: hostileText(L.RESUME_SUMMARY_MAX_LENGTH),
          experienceYears: fc.integer({ min: L.EXPERIENCE_YEARS_MIN, max: L.EXPERIENCE_YEARS_MAX }),
          skills: fc.array(hostileText(L.SKILL_MAX_LENGTH), { maxLength: 4 }),
          experience: fc.array(
            fc.record({ company: hostileText(300), role: hostileText(300), period: hostileText(L.PERIOD_MAX_LENGTH), description: hostileText(500) }, optional),
            { maxLength: 3 },
          ),
          education: fc.array(fc.record({ institution: hostileText(300), degree: hostileText(300), period: hostileText(L.PERIOD_MAX_LENGTH) }, optional), { maxLength: 3 }),
          expectedSalary: fc.oneof(fc.integer({ min: L.EXPECTED_SALARY_MIN }), fc.maxSafeNat()),
          expectedSalaryCurrency: hostileText(L.EXPECTED_SALARY_CURRENCY_MAX_LENGTH),
        },
        optional,
      ),
      referral: fc.record(
        {
          name: hostileName(L.REFERRAL_NAME_MAX_LENGTH),
          email: emails,
          phone: hostileText(L.PHONE_MAX_LENGTH),
          company: hostileText(L.REFERRAL_COMPANY_MAX_LENGTH),
          relationship: hostileText(L.REFERRAL_RELATIONSHIP_MAX_LENGTH),
        },
        { requiredKeys: ['name'] },
      ),
    },
    { requiredKeys: ['externalId', 'vacancyId', 'candidate'] },
  );
}

export type ApplicationBody = ReturnType<typeof validApplication> extends fc.Arbitrary<infer T> ? T : never;

/** The card GET /candidates must return for an accepted body: every string exactly as sent. */
export function expectedCard(body: ApplicationBody) {
  const resume = body.resume ?? {};
  return {
    externalId: body.externalId,
    vacancyId: body.vacancyId,
    source: body.source === undefined || body.source === '' ? L.DEFAULT_APPLICATION_SOURCE : body.source,
    coverLetter: body.coverLetter ?? null,
    candidate: {
      name: body.candidate.name,
      email: body.candidate.email ?? null,
      phone: body.candidate.phone ?? null,
      location: body.candidate.location ?? null,
      birthDate: body.candidate.birthDate ?? null,
      gender: null,
      citizenship: [],
    },
    resume: {
      role: resume.role ?? null,
      summary: resume.summary ?? null,
      experienceYears: resume.experienceYears ?? null,
      skills: resume.skills ?? [],
      experience: (resume.experience ?? []).map((item) => ({ company: '', role: '', period: '', description: '', ...item })),
      education: (resume.education ?? []).map((item) => ({ institution: '', degree: '', period: '', ...item })),
      expectedSalary: resume.expectedSalary ?? null,
      expectedSalaryCurrency: resume.expectedSalaryCurrency ?? null,
    },
    referral:
      body.referral === undefined
        ? null
        : { name: body.referral.name, email: body.referral.email ?? null, phone: body.referral.phone ?? null, company: body.referral.company ?? null, relationship: body.referral.relationship ?? null },
  };
}

export type FieldKind = 'string' | 'nullable-string' | 'integer' | 'object' | 'array';

/**
 * Every field of the request body with its JSON type and, for text, its maximum length in code points.
 * The mutation tests break one or more of these in a valid body; array items are addressed at index 0,
 * which the base body always fills.
 */
export const APPLICATION_FIELDS: readonly { pointer: string; kind: FieldKind; maxLength?: number; required?: boolean }[] = [
  { pointer: '/externalId', kind: 'string', maxLength: L.EXTERNAL_ID_MAX_LENGTH, required: true },
  { pointer: '/vacancyId', kind: 'string', maxLength: L.VACANCY_ID_MAX_LENGTH, required: true },
  { pointer: '/source', kind: 'string', maxLength: L.SOURCE_MAX_LENGTH },
  { pointer: '/coverLetter', kind: 'string', maxLength: L.COVER_LETTER_MAX_LENGTH },
  { pointer: '/candidate', kind: 'object', required: true },
  { pointer: '/candidate/name', kind: 'string', maxLength: L.PERSON_NAME_MAX_LENGTH, required: true },
  { pointer: '/candidate/email', kind: 'string' },
  { pointer: '/candidate/phone', kind: 'string', maxLength: L.PHONE_MAX_LENGTH },
  { pointer: '/candidate/location', kind: 'string', maxLength: L.LOCATION_MAX_LENGTH },
  { pointer: '/candidate/birthDate', kind: 'nullable-string' },
  { pointer: '/resume', kind: 'object' },
  { pointer: '/resume/role', kind: 'string', maxLength: L.RESUME_ROLE_MAX_LENGTH },
  { pointer: '/resume/summary', kind: 'string', maxLength: L.RESUME_SUMMARY_MAX_LENGTH },
  { pointer: '/resume/experienceYears', kind: 'integer' },
  { pointer: '/resume/skills', kind: 'array' },
  { pointer: '/resume/skills/0', kind: 'string', maxLength: L.SKILL_MAX_LENGTH },
  { pointer: '/resume/experience', kind: 'array' },
  { pointer: '/resume/experience/0', kind: 'object' },
  { pointer: '/resume/experience/0/company', kind: 'string', maxLength: L.EXPERIENCE_COMPANY_MAX_LENGTH },
  { pointer: '/resume/experience/0/role', kind: 'string', maxLength: L.EXPERIENCE_ROLE_MAX_LENGTH },
  { pointer: '/resume/experience/0/period', kind: 'string', maxLength: L.PERIOD_MAX_LENGTH },
  { pointer: '/resume/experience/0/description', kind: 'string', maxLength: L.EXPERIENCE_DESCRIPTION_MAX_LENGTH },
  { pointer: '/resume/education', kind: 'array' },
  { pointer: '/resume/education/0', kind: 'object' },
  { pointer: '/resume/education/0/institution', kind: 'string', maxLength: L.EDUCATION_INSTITUTION_MAX_LENGTH },
  { pointer: '/resume/education/0/degree', kind: 'string', maxLength: L.EDUCATION_DEGREE_MAX_LENGTH },
  { pointer: '/resume/education/0/period', kind: 'string', maxLength: L.PERIOD_MAX_LENGTH },
  { pointer: '/resume/expectedSalary', kind: 'integer' },
  { pointer: '/resume/expectedSalaryCurrency', kind: 'string', maxLength: L.EXPECTED_SALARY_CURRENCY_MAX_LENGTH },
  { pointer: '/referral', kind: 'object' },
  { pointer: '/referral/name', kind: 'string', maxLength: L.REFERRAL_NAME_MAX_LENGTH, required: true },
  { pointer: '/referral/email', kind: 'string' },
  { pointer: '/referral/phone', kind: 'string', maxLength: L.PHONE_MAX_LENGTH },
  { pointer: '/referral/company', kind: 'string', maxLength: L.REFERRAL_COMPANY_MAX_LENGTH },
  { pointer: '/referral/relationship', kind: 'string', maxLength: L.REFERRAL_RELATIONSHIP_MAX_LENGTH },
];

const notInteger = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n));
const scalars = { number: fc.oneof(fc.integer(), notInteger), boolean: fc.boolean(), null: fc.constant(null), text: hostileText(20) };
const containers = { array: fc.array(fc.oneof(scalars.text, scalars.number), { maxLength: 3 }), object: fc.dictionary(hostileText(8), scalars.text, { maxKeys: 3 }) };

/** A JSON value of any type but the one the field takes (null counts as wrong except for birthDate). */
export function wrongValueFor(kind: FieldKind): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'string':
      return fc.oneof(scalars.number, scalars.boolean, scalars.null, containers.array, containers.object);
    case 'nullable-string':
      return fc.oneof(scalars.number, scalars.boolean, containers.array, containers.object);
    case 'integer':
      return fc.oneof(notInteger, scalars.boolean, scalars.null, scalars.text, containers.array, containers.object);
    case 'object':
      return fc.oneof(scalars.number, scalars.boolean, scalars.null, scalars.text, containers.array);
    case 'array':
      return fc.oneof(scalars.number, scalars.boolean, scalars.null, scalars.text, containers.object);
  }
}

/** Sets or deletes (value undefined) the member at a JSON Pointer whose parent exists. */
export function setAtPointer(document: Record<string, unknown>, pointer: string, value: unknown): void {
  const tokens = pointer.slice(1).split('/');
  const last = tokens.pop()!;
  let parent: any = document;
  for (const token of tokens) parent = parent[token];
  if (value === undefined) delete parent[last];
  else Object.defineProperty(parent, last, { value, enumerable: true, writable: true, configurable: true });
}

/** A valid body in which every field of APPLICATION_FIELDS is present, so that any of them can be broken. */
export function aCompleteBody(vacancyId: string, externalId: string): Record<string, unknown> {
  return {
    externalId,
    vacancyId,
    source: 'portal',
    coverLetter: 'Письмо',
    candidate: { name: 'Ержан', email: 'erzhan@example.kz', phone: '+7 700 000 00 00', location: 'Алматы', birthDate: '1990-01-31' },
    resume: {
      role: 'Инженер',
      summary: 'Кратко',
      experienceYears: 3,
      skills: ['SQL'],
      experience: [{ company: 'Kaspi', role: 'Dev', period: '2020', description: 'Платежи' }],
      education: [{ institution: 'КБТУ', degree: 'Бакалавр', period: '2016' }],
      expectedSalary: 500_000,
      expectedSalaryCurrency: 'KZT',
    },
    referral: { name: 'Айгерим', email: 'aigerim@example.kz', phone: '+7 701 000 00 00', company: 'Kaspi', relationship: 'коллега' },
  };
}

/** Whether one pointer is the other or lies inside it. */
export function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}
