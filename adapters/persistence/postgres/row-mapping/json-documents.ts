import type { Person, Referral } from '../../../../domain/candidate/person.js';
import type { Resume } from '../../../../domain/candidate/resume.js';

/**
 * Reads the jsonb documents of a candidate row back into domain shapes. jsonb reorders object keys, so
 * each shape is rebuilt field by field in the domain's order (the API then prints the same key order as
 * the in-memory adapter), and a field missing from an older row gets its empty value.
 */
type Doc = Record<string, unknown>;

function asDoc(value: unknown): Doc {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Doc) : {};
}

function str(doc: Doc, key: string): string {
  const value = doc[key];
  return typeof value === 'string' ? value : '';
}

function strOrNull(doc: Doc, key: string): string | null {
  const value = doc[key];
  return typeof value === 'string' ? value : null;
}

function numOrNull(doc: Doc, key: string): number | null {
  const value = doc[key];
  return typeof value === 'number' ? value : null;
}

function strings(doc: Doc, key: string): string[] {
  const value = doc[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function items<T>(doc: Doc, key: string, read: (item: Doc) => T): T[] {
  const value = doc[key];
  return Array.isArray(value) ? value.map((item) => read(asDoc(item))) : [];
}

export function readPerson(value: unknown): Person {
  const doc = asDoc(value);
  return {
    name: str(doc, 'name'),
    email: strOrNull(doc, 'email'),
    phone: strOrNull(doc, 'phone'),
    location: strOrNull(doc, 'location'),
    birthDate: strOrNull(doc, 'birthDate'),
    gender: strOrNull(doc, 'gender'),
    citizenship: strings(doc, 'citizenship'),
  };
}

export function readReferral(value: unknown): Referral | null {
  if (value === null || value === undefined) return null;
  const doc = asDoc(value);
  return {
    name: str(doc, 'name'),
    email: strOrNull(doc, 'email'),
    phone: strOrNull(doc, 'phone'),
    company: strOrNull(doc, 'company'),
    relationship: strOrNull(doc, 'relationship'),
  };
}

export function readResume(value: unknown): Resume {
  const doc = asDoc(value);
  return {
    role: strOrNull(doc, 'role'),
    summary: strOrNull(doc, 'summary'),
    experienceYears: numOrNull(doc, 'experienceYears'),
    skills: strings(doc, 'skills'),
    skillsDescription: strOrNull(doc, 'skillsDescription'),
    experience: items(doc, 'experience', (i) => ({
      company: str(i, 'company'),
      role: str(i, 'role'),
      period: str(i, 'period'),
      description: str(i, 'description'),
    })),
    education: items(doc, 'education', (i) => ({ institution: str(i, 'institution'), degree: str(i, 'degree'), period: str(i, 'period') })),
    additionalEducation: items(doc, 'additionalEducation', (i) => ({
      institution: str(i, 'institution'),
      course: str(i, 'course'),
      result: str(i, 'result'),
      period: str(i, 'period'),
    })),
    languages: items(doc, 'languages', (i) => ({ name: str(i, 'name'), level: str(i, 'level') })),
    certificates: items(doc, 'certificates', (i) => ({ title: str(i, 'title'), date: str(i, 'date'), url: str(i, 'url') })),
    portfolio: items(doc, 'portfolio', (i) => ({ url: str(i, 'url'), description: str(i, 'description') })),
    expectedSalary: numOrNull(doc, 'expectedSalary'),
    expectedSalaryCurrency: strOrNull(doc, 'expectedSalaryCurrency'),
    preferredWorkFormat: strings(doc, 'preferredWorkFormat'),
    preferredEmployment: strOrNull(doc, 'preferredEmployment'),
    relocation: strOrNull(doc, 'relocation'),
    sourceUrl: strOrNull(doc, 'sourceUrl'),
  };
}

export function readStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
