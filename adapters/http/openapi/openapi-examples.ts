/**
 * Examples of the document, as real data of a company in Kazakhstan and Uzbekistan would look. The
 * linter checks every one against its schema (no-invalid-media-type-examples), so they cannot drift.
 */
const VACANCY_ID = '019a44f1-8c00-7c3e-a5b1-3f6d9a2e4b10';
const IMPORTED_VACANCY_ID = '019a2b7e-1d40-7a11-8e52-90c4f3b6d2a7';

export const vacancyExample = {
  id: VACANCY_ID,
  title: 'Ведущий бэкенд-разработчик (Node.js)',
  status: 'open',
  city: 'Алматы',
  officeAddress: 'Алматы, проспект Аль-Фараби, 77/8',
  experience: 'От 3 до 6 лет',
  workFormat: 'hybrid',
  workFormats: ['Удалённо', 'На месте работодателя'],
  salaryFrom: 900000,
  salaryTo: 1400000,
  salaryCurrency: 'KZT',
  salaryGross: false,
  employmentForm: 'Полная занятость',
  workSchedule: ['5/2'],
  skills: ['Node.js', 'TypeScript', 'PostgreSQL', 'Kafka'],
  languages: ['Английский — B2'],
  professionalRoles: ['Программист, разработчик'],
  description: '<p>Развиваем платёжный сервис для малого бизнеса.</p><ul><li>Проектировать и писать API</li><li>Проводить ревью кода</li></ul>',
  responsibilities: 'Развиваем платёжный сервис для малого бизнеса. Проектировать и писать API. Проводить ревью кода.',
  positionsCount: 2,
  sourceUrl: null,
  publishedAt: '2026-10-28T06:15:00.000Z',
  createdAt: '2026-10-27T11:02:45.120Z',
  updatedAt: '2026-11-02T09:41:27.318Z',
};

/** Imported from the job board: its wording kept, a province as city, salary only up to. */
export const importedVacancyExample = {
  ...vacancyExample,
  id: IMPORTED_VACANCY_ID,
  title: 'Оператор call-центра (узбекский и русский языки)',
  status: 'archived',
  city: 'Ташкентская область',
  officeAddress: null,
  experience: 'Нет опыта',
  workFormat: 'office',
  workFormats: ['На месте работодателя'],
  salaryFrom: 6000000,
  salaryTo: 6000000,
  salaryCurrency: 'UZS',
  salaryGross: true,
  employmentForm: 'Полная занятость',
  workSchedule: ['Сменный график'],
  skills: ['Грамотная речь', 'Работа с возражениями'],
  languages: ['Узбекский — родной', 'Русский — C1'],
  professionalRoles: ['Оператор call-центра, специалист контактного центра'],
  description: '<p>Консультируем клиентов банка по телефону.</p>',
  responsibilities: 'Консультируем клиентов банка по телефону.',
  positionsCount: null,
  sourceUrl: 'https://hh.uz/vacancy/108734562',
  publishedAt: '2026-09-15T04:00:00.000Z',
  createdAt: '2026-09-15T04:10:12.004Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

const resume = {
  role: 'Бэкенд-разработчик',
  summary: 'Пять лет пишу сервисы на Node.js: платежи, интеграции с банками.',
  experienceYears: 5,
  skills: ['Node.js', 'TypeScript', 'PostgreSQL'],
  skillsDescription: null,
  experience: [{ company: 'ТОО «Каспиан Софт»', role: 'Разработчик', period: '2021-03 — по настоящее время', description: 'Платёжный шлюз, 2 000 RPS' }],
  education: [{ institution: 'КазНУ им. аль-Фараби', degree: 'Бакалавр', period: '2014–2018' }],
  additionalEducation: [],
  languages: [],
  certificates: [],
  portfolio: [],
  expectedSalary: 1200000,
  expectedSalaryCurrency: 'KZT',
  preferredWorkFormat: [],
  preferredEmployment: null,
  relocation: null,
  sourceUrl: null,
};

/** An application sent by a career portal, with a referral. */
export const candidateExample = {
  id: '019a4a03-55e2-7b19-9c0d-1e7f2a8b3c64',
  vacancyId: VACANCY_ID,
  vacancyTitle: vacancyExample.title,
  stage: 'NEW',
  source: 'career-portal',
  externalId: 'portal-2026-000184',
  coverLetter: 'Здравствуйте! Давно слежу за вашим продуктом и хочу развивать его вместе с вами.',
  candidate: { name: 'Айгерим Нурланова', email: 'aigerim.nurlanova@example.kz', phone: '+7 701 555 12 34', location: 'Алматы', birthDate: '1996-05-17', gender: null, citizenship: [] },
  resume,
  referral: { name: 'Данияр Ахметов', email: 'd.akhmetov@example.kz', phone: null, company: 'ТОО «Каспиан Софт»', relationship: 'бывший коллега' },
  createdAt: '2026-11-02T07:12:09.551Z',
  updatedAt: '2026-11-02T07:12:09.551Z',
};

/** Imported from the job board: no cover letter, no externalId, the board's wording. */
export const importedCandidateExample = {
  ...candidateExample,
  id: '019a2c10-0b7a-7e44-b3d1-5c9e8f2a1d09',
  vacancyId: IMPORTED_VACANCY_ID,
  vacancyTitle: importedVacancyExample.title,
  stage: 'INTERVIEW',
  source: 'hh',
  externalId: null,
  coverLetter: null,
  candidate: { name: 'Шахзод Рахимов', email: null, phone: '+998 90 123 45 67', location: 'Ташкент', birthDate: '2001-02-03', gender: 'Мужской', citizenship: ['Узбекистан'] },
  resume: {
    ...resume,
    role: 'Оператор call-центра',
    summary: null,
    experienceYears: 1,
    skills: ['Узбекский язык', 'Русский язык'],
    experience: [{ company: 'Ucell', role: 'Оператор', period: '2024-06 — 2025-08', description: '' }],
    education: [{ institution: 'Ташкентский государственный экономический университет', degree: '', period: '2023' }],
    languages: [{ name: 'Узбекский', level: 'Родной' }, { name: 'Русский', level: 'C1 — Продвинутый' }],
    expectedSalary: null,
    expectedSalaryCurrency: null,
    preferredWorkFormat: ['На месте работодателя'],
    preferredEmployment: 'Полная занятость',
    relocation: 'Не готов к переезду',
    sourceUrl: 'https://hh.uz/resume/4f1c2d9e0000a1b2c3d4e5f6a7b8c9d0',
  },
  referral: null,
  createdAt: '2026-09-20T12:30:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

export const fullApplicationExample = {
  externalId: 'portal-2026-000184',
  vacancyId: VACANCY_ID,
  source: 'career-portal',
  candidate: { name: 'Айгерим Нурланова', email: 'aigerim.nurlanova@example.kz', phone: '+7 701 555 12 34', location: 'Алматы', birthDate: '1996-05-17' },
  coverLetter: candidateExample.coverLetter,
  resume: {
    role: resume.role,
    summary: resume.summary,
    experienceYears: 5,
    skills: resume.skills,
    experience: resume.experience,
    education: resume.education,
    expectedSalary: 1200000,
    expectedSalaryCurrency: 'KZT',
  },
  referral: { name: 'Данияр Ахметов', email: 'd.akhmetov@example.kz', company: 'ТОО «Каспиан Софт»', relationship: 'бывший коллега' },
};

export const minimalApplicationExample = {
  externalId: 'tg-bot-5521907',
  vacancyId: IMPORTED_VACANCY_ID,
  candidate: { name: 'Шахзод Рахимов' },
};

export const vacancyPageExamples = {
  firstPage: {
    summary: 'A page with more to come',
    value: { items: [importedVacancyExample, vacancyExample], nextCursor: 'eyJ2IjoxLCJ0IjoxNzkzNjEyNDg3MzE4LCJpIjoiMDE5YTQ0ZjEtOGMwMC03YzNlLWE1YjEtM2Y2ZDlhMmU0YjEwIiwiZiI6IjJyaGFnMmtsYzB1YzUifQ' },
  },
  lastPage: { summary: 'The last page', value: { items: [], nextCursor: null } },
};

export const candidatePageExamples = {
  page: { summary: 'An imported candidate and an application with a referral', value: { items: [importedCandidateExample, candidateExample], nextCursor: null } },
};
