import type { PlatformChange, PlatformChangeType } from '../../application/use-cases/platform-change.js';
import type { Person, Referral } from '../../domain/candidate/person.js';
import type { Resume } from '../../domain/candidate/resume.js';
import { readApplicationRequest } from '../json/application-request.js';
import { vacancyInputOf } from '../json/vacancy-upsert.js';
import type { EventProblem } from './event-problems.js';

type Fields = Readonly<Record<string, unknown>>;

/** Why the data could not be read after all: JSON Pointers into the data (not the event) and their rules. */
export interface DataProblems {
  readonly problems: readonly EventProblem[];
}

/**
 * The change an event's `data` describes, read as the admin CLI reads the file of the same operation: absent
 * and null are "not given", a list not given is empty, a text of a resume item not given is "". The data has
 * passed its schema (platform-event.schema.ts), so every value here has the type the schema gives it.
 */
export function platformChangeOf(type: PlatformChangeType, data: unknown): PlatformChange | DataProblems {
  const d = isFields(data) ? data : {};
  switch (type) {
    case 'vacancy.upserted':
      return { type, vacancy: vacancyInputOf(d) };
    case 'vacancy.deleted':
    case 'candidate.deleted':
      return { type };
    case 'board.columns-set':
      return { type, columns: texts(d, 'columns') };
    case 'candidate.added': {
      const resume = object(d, 'resume');
      const referral = object(d, 'referral');
      return {
        type,
        card: {
          vacancyId: d.vacancyId as string,
          candidate: personOf(object(d, 'candidate') ?? {}),
          resume: resumeOf(resume ?? {}),
          referral: referral === null ? null : referralOf(referral),
          // Required by the schema: where the platform placed the card, whatever order the board's changes come in.
          stage: d.stage as string,
        },
      };
    }
    case 'candidate.moved':
      return { type, stage: d.stage as string };
    case 'candidate.transferred':
    case 'candidate.detached':
      return { type, vacancyId: d.vacancyId as string };
    case 'candidate.resume-updated':
      return { type, resume: resumeOf(d) };
    case 'application.submitted': {
      // The body of POST /applications, read as the API reads it (defaults, the default source). It refuses only
      // what the schema refused already; its problems are kept as its words say.
      const read = readApplicationRequest(data);
      return read.ok ? { type, application: read.application } : { problems: read.problems };
    }
  }
}

function personOf(p: Fields): Person {
  return {
    name: p.name as string,
    email: text(p, 'email'),
    phone: text(p, 'phone'),
    location: text(p, 'location'),
    birthDate: text(p, 'birthDate'),
    gender: text(p, 'gender'),
    citizenship: texts(p, 'citizenship'),
  };
}

function referralOf(r: Fields): Referral {
  return { name: r.name as string, email: text(r, 'email'), phone: text(r, 'phone'), company: text(r, 'company'), relationship: text(r, 'relationship') };
}

function resumeOf(r: Fields): Resume {
  return {
    role: text(r, 'role'),
    summary: text(r, 'summary'),
    experienceYears: numberOrNull(r, 'experienceYears'),
    skills: texts(r, 'skills'),
    skillsDescription: text(r, 'skillsDescription'),
    experience: items(r, 'experience', (i) => ({ company: itemText(i, 'company'), role: itemText(i, 'role'), period: itemText(i, 'period'), description: itemText(i, 'description') })),
    education: items(r, 'education', (i) => ({ institution: itemText(i, 'institution'), degree: itemText(i, 'degree'), period: itemText(i, 'period') })),
    additionalEducation: items(r, 'additionalEducation', (i) => ({
      institution: itemText(i, 'institution'),
      course: itemText(i, 'course'),
      result: itemText(i, 'result'),
      period: itemText(i, 'period'),
    })),
    languages: items(r, 'languages', (i) => ({ name: itemText(i, 'name'), level: itemText(i, 'level') })),
    certificates: items(r, 'certificates', (i) => ({ title: itemText(i, 'title'), date: itemText(i, 'date'), url: itemText(i, 'url') })),
    portfolio: items(r, 'portfolio', (i) => ({ url: itemText(i, 'url'), description: itemText(i, 'description') })),
    expectedSalary: numberOrNull(r, 'expectedSalary'),
    expectedSalaryCurrency: text(r, 'expectedSalaryCurrency'),
    preferredWorkFormat: texts(r, 'preferredWorkFormat'),
    preferredEmployment: text(r, 'preferredEmployment'),
    relocation: text(r, 'relocation'),
    sourceUrl: text(r, 'sourceUrl'),
  };
}

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(o: Fields, key: string): string | null {
  const value = o[key];
  return typeof value === 'string' ? value : null;
}

/** A text of a resume item: "" when not given (DESIGN 3, Missing strings in resume items). */
function itemText(o: Fields, key: string): string {
  return text(o, key) ?? '';
}

function texts(o: Fields, key: string): string[] {
  const value = o[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function numberOrNull(o: Fields, key: string): number | null {
  const value = o[key];
  return typeof value === 'number' ? value : null;
}

function object(o: Fields, key: string): Fields | null {
  const value = o[key];
  return isFields(value) ? value : null;
}

function items<T>(o: Fields, key: string, read: (item: Fields) => T): T[] {
  const value = o[key];
  return Array.isArray(value) ? value.filter(isFields).map(read) : [];
}
