import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CandidateJson } from '../../../adapters/presenters/candidate.presenter.js';
import type { VacancyJson } from '../../../adapters/presenters/vacancy.presenter.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The job board's samples (copied from the shared fixtures, so that the suite stands alone). */
export const HH_VACANCIES_FILE = path.join(here, '../fixtures/hh/vacancies.json');
export const HH_RESUMES_FILE = path.join(here, '../fixtures/hh/resumes.json');

export function hhSample(file: string): { items: Record<string, unknown>[] } {
  return JSON.parse(readFileSync(file, 'utf8')) as { items: Record<string, unknown>[] };
}

type Stored<T> = Omit<T, 'id' | 'createdAt' | 'updatedAt'>;

/** What a client reads for each sample vacancy after `import hh`, by the mapping of issue 4. */
export const EXPECTED_VACANCIES: Readonly<Record<string, Stored<VacancyJson>>> = {
  '118204771': {
    title: 'Backend-разработчик (Node.js)',
    status: 'open',
    city: 'Алматы',
    officeAddress: 'Алматы, проспект Абая, 52',
    experience: 'От 1 года до 3 лет',
    workFormat: 'hybrid',
    workFormats: ['На месте работодателя', 'Удалённо'],
    salaryFrom: 700000,
    salaryTo: 1100000,
    salaryCurrency: 'KZT',
    salaryGross: false,
    employmentForm: 'Полная',
    workSchedule: ['5/2'],
    skills: ['Node.js', 'PostgreSQL', 'TypeScript'],
    languages: ['Английский (B1 — Средний)'],
    professionalRoles: ['Программист, разработчик'],
    description:
      '<p><strong>Обязанности:</strong></p><ul><li>Разработка API на Node.js</li><li>Работа с PostgreSQL &amp; Redis</li></ul><p>Офис в центре — 5 минут от метро.</p>',
    responsibilities: 'Обязанности:\nРазработка API на Node.js\nРабота с PostgreSQL & Redis\nОфис в центре — 5 минут от метро.',
    positionsCount: null,
    sourceUrl: 'https://hh.kz/vacancy/118204771',
    publishedAt: '2026-10-03T04:41:12.000Z',
  },
  '118377002': {
    title: 'Менеджер по продажам',
    status: 'open',
    city: 'Ташкент',
    officeAddress: null,
    experience: 'Нет опыта',
    workFormat: 'remote',
    workFormats: ['Удалённо'],
    salaryFrom: 9000000,
    salaryTo: 9000000,
    salaryCurrency: 'UZS',
    salaryGross: true,
    employmentForm: 'Частичная',
    workSchedule: ['2/2', 'По выходным'],
    skills: [],
    languages: [],
    professionalRoles: ['Менеджер по продажам, менеджер по работе с клиентами'],
    description: '<p>Звонки клиентам, ведение CRM.</p>',
    responsibilities: 'Звонки клиентам, ведение CRM.',
    positionsCount: null,
    sourceUrl: 'https://hh.uz/vacancy/118377002',
    publishedAt: '2026-10-11T09:02:55.000Z',
  },
  '117900315': {
    title: 'Водитель-экспедитор',
    status: 'archived',
    city: 'Карагандинская область',
    officeAddress: null,
    experience: 'Более 6 лет',
    workFormat: 'other',
    workFormats: ['Разъездной'],
    salaryFrom: null,
    salaryTo: null,
    salaryCurrency: null,
    salaryGross: null,
    employmentForm: null,
    workSchedule: [],
    skills: ['Категория C'],
    languages: [],
    professionalRoles: ['Водитель'],
    description: '<p>Доставка по области.</p>',
    responsibilities: 'Доставка по области.',
    positionsCount: null,
    sourceUrl: 'https://hh.kz/vacancy/117900315',
    publishedAt: null,
  },
};

type StoredCandidate = Omit<Stored<CandidateJson>, 'vacancyId' | 'vacancyTitle' | 'stage'>;

const EMPTY_LISTS = { additionalEducation: [], languages: [], certificates: [], portfolio: [] };

/** What a client reads for each sample resume after `import hh --resumes`. */
export const EXPECTED_CANDIDATES: Readonly<Record<string, StoredCandidate>> = {
  f3a1c9e2000b4d7f0039ed1f1f6d4a6b4c7a2e: {
    source: 'hh',
    externalId: null,
    coverLetter: null,
    candidate: {
      name: 'Сейткали Айгерим',
      email: 'aigerim.s@example.kz',
      phone: '+7 (701) 123-45-67',
      location: 'Алматы',
      birthDate: '1999-03-14',
      gender: 'Женский',
      citizenship: ['Казахстан'],
    },
    resume: {
      role: 'Frontend-разработчик',
      summary: 'Делаю интерфейсы на React, люблю типы и тесты.',
      experienceYears: 4,
      skills: ['React', 'TypeScript', 'Redux'],
      skillsDescription: null,
      experience: [
        { company: 'ТОО «Каспиан Софт»', role: 'Frontend developer', period: '2022-02 — now', description: 'SPA для логистики.' },
        { company: 'Студия Nomad', role: 'Верстальщик', period: '2020-07 — 2022-01', description: 'Лендинги.' },
      ],
      education: [{ institution: 'КазНУ им. аль-Фараби, Факультет информационных технологий', degree: 'Информационные системы', period: '2020' }],
      additionalEducation: [{ institution: 'Coursera', course: 'Advanced React', result: 'Сертификат', period: '2023' }],
      languages: [
        { name: 'Казахский', level: 'Родной' },
        { name: 'Английский', level: 'B2 — Средне-продвинутый' },
      ],
      certificates: [],
      portfolio: [],
      expectedSalary: 650000,
      expectedSalaryCurrency: 'KZT',
      preferredWorkFormat: ['Удаленная работа', 'Полный день'],
      preferredEmployment: 'Полная занятость',
      relocation: 'не могу переехать',
      sourceUrl: 'https://hh.kz/resume/f3a1c9e2000b4d7f0039ed1f1f6d4a6b4c7a2e',
    },
    referral: null,
  },
  '0c4f7a1b9e2d43a8b1f0aa77c3d2e1f0a9b8c7': {
    source: 'hh',
    externalId: null,
    coverLetter: null,
    candidate: {
      name: 'Рашидов Тимур Алишерович',
      email: null,
      phone: '+998 90 123-45-67',
      location: 'Ташкент',
      birthDate: null,
      gender: 'Мужской',
      citizenship: ['Узбекистан'],
    },
    resume: {
      role: null,
      summary: null,
      experienceYears: null,
      skills: [],
      skillsDescription: null,
      experience: [],
      education: [],
      ...EMPTY_LISTS,
      expectedSalary: null,
      expectedSalaryCurrency: null,
      preferredWorkFormat: [],
      preferredEmployment: null,
      relocation: null,
      sourceUrl: 'https://hh.uz/resume/0c4f7a1b9e2d43a8b1f0aa77c3d2e1f0a9b8c7',
    },
    referral: null,
  },
};

/** A stored record without the fields that differ from run to run. */
export function withoutIdentity<T extends { id: string; createdAt: string; updatedAt: string }>(record: T): Omit<T, 'id' | 'createdAt' | 'updatedAt'> {
  const { id: _id, createdAt: _created, updatedAt: _updated, ...rest } = record;
  return rest;
}
