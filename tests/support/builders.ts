import { CandidateCard } from '../../domain/candidate/candidate-card.js';
import type { Person, Referral } from '../../domain/candidate/person.js';
import { resumeOf, type Resume } from '../../domain/candidate/resume.js';
import { Company } from '../../domain/company/company.js';
import { ServiceKey } from '../../domain/service-key/service-key.js';
import { Vacancy, type VacancyInput } from '../../domain/vacancy/vacancy.js';
import type { InboundApplication } from '../../domain/inbound-application/inbound-application.js';

let sequence = 0;
/** A unique, readable id for test records; ascending in creation order. */
export function nextId(prefix = 'id'): string {
  sequence += 1;
  return `${prefix}-${String(sequence).padStart(6, '0')}`;
}

export const T0 = new Date('2026-11-01T10:00:00.000Z');

export function at(offsetMs: number): Date {
  return new Date(T0.getTime() + offsetMs);
}

export function aVacancyInput(overrides: Partial<VacancyInput> = {}): VacancyInput {
  return {
    title: 'Бэкенд-разработчик',
    status: 'open',
    city: 'Алматы',
    officeAddress: null,
    experience: 'От 1 года до 3 лет',
    workFormats: ['Удалённо'],
    salaryFrom: 500_000,
    salaryTo: 900_000,
    salaryCurrency: 'KZT',
    salaryGross: false,
    employmentForm: 'Полная',
    workSchedule: ['5/2'],
    skills: ['TypeScript', 'PostgreSQL'],
    languages: [],
    professionalRoles: ['Программист, разработчик'],
    description: '<p>Разработка API</p>',
    positionsCount: 1,
    sourceUrl: null,
    publishedAt: null,
    recruiter: 'Айдана Касымова',
    sourceRef: null,
    ...overrides,
  };
}

export function aVacancy(params: { companyId: string; id?: string; now?: Date; input?: Partial<VacancyInput> }): Vacancy {
  return Vacancy.create({
    id: params.id ?? nextId('vac'),
    companyId: params.companyId,
    input: aVacancyInput(params.input),
    now: params.now ?? T0,
  });
}

export function aPerson(overrides: Partial<Person> = {}): Person {
  return {
    name: 'Ержан Сапаров',
    email: 'erzhan@example.kz',
    phone: '+7 701 000 00 00',
    location: 'Астана',
    birthDate: '1995-04-12',
    gender: null,
    citizenship: [],
    ...overrides,
  };
}

export function aResume(overrides: Partial<Resume> = {}): Resume {
  return resumeOf({
    role: 'Backend developer',
    summary: 'Пишу сервисы на Node.js',
    experienceYears: 4,
    skills: ['Node.js'],
    experience: [{ company: 'ТОО «Каспиан»', role: 'Developer', period: '2022-02 — now', description: '' }],
    ...overrides,
  });
}

export function aReferral(overrides: Partial<Referral> = {}): Referral {
  return { name: 'Дилноза Юсупова', email: 'dilnoza@example.uz', phone: null, company: 'Uzcard', relationship: 'бывшая коллега', ...overrides };
}

export function aManualCard(params: { companyId: string; vacancyId: string; id?: string; stage?: string; now?: Date; person?: Partial<Person>; resume?: Resume }): CandidateCard {
  return CandidateCard.manual({
    id: params.id ?? nextId('card'),
    companyId: params.companyId,
    vacancyId: params.vacancyId,
    stage: params.stage ?? 'NEW',
    person: aPerson(params.person),
    resume: params.resume ?? aResume(),
    referral: null,
    now: params.now ?? T0,
  });
}

export function anApplicationCard(params: { companyId: string; vacancyId: string; externalId: string; id?: string; now?: Date; requestFingerprint?: string }): CandidateCard {
  return CandidateCard.fromApplication({
    id: params.id ?? nextId('card'),
    companyId: params.companyId,
    vacancyId: params.vacancyId,
    stage: 'NEW',
    externalId: params.externalId,
    source: 'career-portal',
    coverLetter: 'Здравствуйте!',
    person: aPerson(),
    resume: aResume(),
    referral: aReferral(),
    requestFingerprint: params.requestFingerprint ?? 'fp-' + params.externalId,
    now: params.now ?? T0,
  });
}

export function anApplication(overrides: Partial<InboundApplication> = {}): InboundApplication {
  return {
    externalId: nextId('ext'),
    vacancyId: 'missing',
    source: 'career-portal',
    candidate: { name: 'Алишер Каримов', email: 'alisher@example.uz', phone: null, location: 'Ташкент', birthDate: null },
    coverLetter: null,
    resume: resumeOf({}),
    referral: null,
    ...overrides,
  };
}

export function aCompany(params: { id?: string; name?: string; now?: Date } = {}): Company {
  return Company.create({ id: params.id ?? nextId('co'), name: params.name ?? 'ТОО «Тест»', now: params.now ?? T0 });
}

export function aServiceKey(params: { companyId: string; id?: string; scopes?: string[]; now?: Date; expiresAt?: Date | null }): ServiceKey {
  return ServiceKey.issue({
    id: params.id ?? nextId('k').replace(/-/g, '').padEnd(12, '0').slice(0, 12),
    companyId: params.companyId,
    name: 'test key',
    scopes: params.scopes ?? ['vacancies:read', 'candidates:read', 'applications:write'],
    secretHash: 'a'.repeat(64),
    expiresAt: params.expiresAt ?? null,
    now: params.now ?? T0,
    actor: null,
  });
}
