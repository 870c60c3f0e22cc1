import type { JobBoardResume } from '../../application/use-cases/import-job-board-resumes.use-case.js';
import type { Person } from '../../domain/candidate/person.js';
import type { Resume } from '../../domain/candidate/resume.js';
import { periodText } from './hh-date.js';
import type { HhObject } from './hh-json.js';
import { mapHhRecord, type HhMapped } from './hh-mapped-record.js';

const PHONE_TYPES = ['cell', 'home', 'work'];

/** One resume as the board's resume endpoint returns it, as a person and a resume in platform terms. */
export function mapHhResume(raw: unknown, index: number): HhMapped<JobBoardResume> {
  return mapHhRecord(raw, index, 'resume', (r) => ({ person: personOf(r), resume: resumeOf(r) }));
}

/**
 * The name as the board shows it and as documents in Kazakhstan, Uzbekistan and Russia write it:
 * last name, first name, then the patronymic when there is one ("Рашидов Тимур Алишерович").
 */
export function fullNameOf(r: HhObject): string {
  return ['last_name', 'first_name', 'middle_name']
    .map((key) => r.text(key)?.trim() ?? '')
    .filter((part) => part !== '')
    .join(' ');
}

function personOf(r: HhObject): Person {
  const contacts = r.objects('contact');
  return {
    name: fullNameOf(r),
    email: emailOf(contacts),
    phone: phoneOf(contacts),
    location: r.nameOf('area'),
    birthDate: r.text('birth_date'),
    gender: r.nameOf('gender'),
    citizenship: r.namesOf('citizenship'),
  };
}

function typeOf(contact: HhObject): string | null {
  return contact.object('type')?.text('id') ?? null;
}

function emailOf(contacts: readonly HhObject[]): string | null {
  for (const contact of contacts) {
    if (typeOf(contact) !== 'email') continue;
    const value = contact.raw('value');
    if (typeof value === 'string') return value;
    const email = contact.object('value')?.text('email');
    if (email) return email;
  }
  return null;
}

/** The preferred phone, else the first one; its `formatted` text as the person sees it on the board. */
function phoneOf(contacts: readonly HhObject[]): string | null {
  const phones = contacts.filter((contact) => PHONE_TYPES.includes(typeOf(contact) ?? ''));
  const chosen = phones.find((contact) => contact.boolean('preferred') === true) ?? phones[0];
  if (chosen === undefined) return null;
  const value = chosen.raw('value');
  if (typeof value === 'string') return value;
  const phone = chosen.object('value');
  if (phone === null) return null;
  const formatted = phone.text('formatted');
  if (formatted) return formatted;
  const parts = ['country', 'city', 'number'].map((key) => phone.text(key) ?? '').join('');
  return parts === '' ? null : `+${parts}`;
}

function resumeOf(r: HhObject): Resume {
  const education = r.object('education');
  const months = r.object('total_experience')?.number('months') ?? null;
  const salary = r.object('salary');
  const employments = r.namesOf('employments');
  return {
    role: r.text('title'),
    summary: r.text('skills'),
    experienceYears: months === null ? null : Math.floor(months / 12),
    skills: r.strings('skill_set'),
    skillsDescription: null,
    experience: r.objects('experience').map((item) => ({
      company: item.text('company') ?? '',
      role: item.text('position') ?? '',
      period: periodText(item.text('start'), item.text('end')),
      description: item.text('description') ?? '',
    })),
    education: (education?.objects('primary') ?? []).map((item) => ({
      institution: joinParts(item.text('name'), item.text('organization')),
      degree: item.text('result') ?? '',
      period: yearOf(item),
    })),
    additionalEducation: (education?.objects('additional') ?? []).map((item) => ({
      institution: item.text('organization') ?? '',
      course: item.text('name') ?? '',
      result: item.text('result') ?? '',
      period: yearOf(item),
    })),
    languages: r.objects('language').map((item) => ({ name: item.text('name') ?? '', level: item.nameOf('level') ?? '' })),
    certificates: r.objects('certificate').map((item) => ({
      title: item.text('title') ?? '',
      date: item.text('achieved_at') ?? '',
      url: item.text('url') ?? '',
    })),
    portfolio: r.objects('portfolio').map((item) => ({
      url: item.text('medium') ?? item.text('small') ?? item.text('url') ?? '',
      description: item.text('description') ?? '',
    })),
    expectedSalary: salary?.number('amount') ?? null,
    expectedSalaryCurrency: salary?.text('currency') ?? null,
    preferredWorkFormat: r.namesOf('schedules'),
    preferredEmployment: employments.length === 0 ? null : employments.join(', '),
    relocation: r.object('relocation')?.nameOf('type') ?? null,
    sourceUrl: r.text('alternate_url'),
  };
}

/** "КазНУ им. аль-Фараби, Факультет информационных технологий": the institution and its faculty, as the board has them. */
function joinParts(...parts: (string | null)[]): string {
  return parts.filter((part): part is string => part !== null && part.trim() !== '').join(', ');
}

function yearOf(item: HhObject): string {
  const year = item.raw('year');
  return typeof year === 'number' || typeof year === 'string' ? String(year) : '';
}
