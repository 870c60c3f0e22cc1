import type { PlatformChangeType } from '../../application/use-cases/platform-change.js';

/**
 * One event of each type, as the platform of a company in Kazakhstan would publish them, one after the other:
 * a vacancy, its board, a card on it moved, transferred and updated, an application from another channel, and
 * the deletions. The people are made up. A test reads each with the feed's own parser.
 */
const COMPANY = '019a44e8-5b20-7d61-b0c4-1e9f27a3c6d8';
const VACANCY = 'vac-2026-0142';
const OTHER_VACANCY = 'vac-2026-0157';
const CARD = '019a5b2c-7d10-7e44-9c3b-2f81a6d0c955';
const SOURCE = '/platform/kz/recruiting';

const envelope = (type: PlatformChangeType, id: string, subject: string, time: string, entityversion: number | null) => ({
  specversion: '1.0',
  id,
  source: SOURCE,
  type,
  time,
  subject,
  datacontenttype: 'application/json',
  companyid: COMPANY,
  ...(entityversion === null ? {} : { entityversion }),
});

export const PLATFORM_EVENT_EXAMPLES: Readonly<Record<PlatformChangeType, Record<string, unknown>>> = {
  'vacancy.upserted': {
    ...envelope('vacancy.upserted', '019a5b30-0001-7a00-8000-000000000001', VACANCY, '2026-11-03T04:12:09.512Z', 1),
    data: {
      title: 'Ведущий бэкенд-разработчик (Node.js)',
      status: 'open',
      city: 'Алматы',
      officeAddress: 'Алматы, проспект Аль-Фараби, 77/8',
      experience: 'От 3 до 6 лет',
      workFormats: ['Удалённо', 'На месте работодателя'],
      salaryFrom: 900000,
      salaryTo: 1400000,
      salaryCurrency: 'KZT',
      salaryGross: false,
      employmentForm: 'Полная занятость',
      workSchedule: ['5/2'],
      skills: ['Node.js', 'TypeScript', 'PostgreSQL'],
      languages: ['Английский — B2'],
      professionalRoles: ['Программист, разработчик'],
      description: '<p>Развиваем платёжный сервис для малого бизнеса.</p>',
      positionsCount: 2,
      publishedAt: '2026-11-03T09:00:00+05:00',
      recruiter: 'Айгерим Нурланова',
    },
  },
  'board.columns-set': {
    ...envelope('board.columns-set', '019a5b30-0002-7a00-8000-000000000002', VACANCY, '2026-11-03T04:15:40.003Z', 2),
    data: { columns: ['NEW', 'AI_DIALOG', 'TECH_INTERVIEW', 'INTERVIEW', 'OFFER', 'ONBOARDING', 'REJECTION'] },
  },
  'candidate.added': {
    ...envelope('candidate.added', '019a5b30-0003-7a00-8000-000000000003', CARD, '2026-11-03T05:02:17.880Z', 1),
    data: {
      vacancyId: VACANCY,
      candidate: { name: 'Ержан Сапаров', email: 'erzhan.saparov@example.kz', phone: '+7 701 000 00 00', location: 'Астана', citizenship: ['KZ'] },
      resume: {
        role: 'Backend developer',
        summary: 'Пишу сервисы на Node.js пятый год.',
        experienceYears: 5,
        skills: ['Node.js', 'PostgreSQL'],
        experience: [{ company: 'ТОО «Каспиан»', role: 'Developer', period: '2021-03 — по настоящее время', description: 'Платёжный шлюз' }],
        languages: [{ name: 'Английский', level: 'B2' }],
        expectedSalary: 1200000,
        expectedSalaryCurrency: 'KZT',
      },
      referral: { name: 'Дилноза Юсупова', relationship: 'бывшая коллега' },
      stage: 'NEW',
    },
  },
  'candidate.moved': {
    ...envelope('candidate.moved', '019a5b30-0004-7a00-8000-000000000004', CARD, '2026-11-04T08:30:00.000Z', 2),
    data: { stage: 'TECH_INTERVIEW' },
  },
  'candidate.transferred': {
    ...envelope('candidate.transferred', '019a5b30-0005-7a00-8000-000000000005', CARD, '2026-11-05T10:11:12.000Z', 3),
    data: { vacancyId: OTHER_VACANCY },
  },
  'candidate.resume-updated': {
    ...envelope('candidate.resume-updated', '019a5b30-0006-7a00-8000-000000000006', CARD, '2026-11-05T11:00:00.000Z', 4),
    data: {
      role: 'Senior backend developer',
      experienceYears: 6,
      skills: ['Node.js', 'PostgreSQL', 'RabbitMQ'],
      education: [{ institution: 'КазНУ им. аль-Фараби', degree: 'Бакалавр', period: '2014—2018' }],
    },
  },
  'application.submitted': {
    ...envelope('application.submitted', '019a5b30-0007-7a00-8000-000000000007', 'kiosk-2026-000381', '2026-11-05T12:40:05.250Z', null),
    data: {
      externalId: 'kiosk-2026-000381',
      vacancyId: VACANCY,
      source: 'job-fair-kiosk',
      candidate: { name: 'Алишер Каримов', email: 'alisher.karimov@example.uz', location: 'Ташкент' },
      coverLetter: 'Здравствуйте! Видел вашу вакансию на ярмарке.',
      resume: { role: 'Backend developer', skills: ['Go', 'PostgreSQL'] },
    },
  },
  'candidate.detached': {
    ...envelope('candidate.detached', '019a5b30-000b-7a00-8000-00000000000b', CARD, '2026-12-01T06:00:00.000Z', 5),
    data: { vacancyId: VACANCY },
  },
  'candidate.deleted': envelope('candidate.deleted', '019a5b30-0008-7a00-8000-000000000008', CARD, '2026-12-01T07:00:00.000Z', 6),
  'vacancy.deleted': envelope('vacancy.deleted', '019a5b30-0009-7a00-8000-000000000009', VACANCY, '2026-12-01T06:00:00.000Z', 3),
};

/** The vacancy the transfer example goes to, which no example makes: made first in exampleStream. */
const OTHER_VACANCY_EXAMPLE = {
  ...envelope('vacancy.upserted', '019a5b30-000a-7a00-8000-00000000000a', OTHER_VACANCY, '2026-11-03T04:20:00.000Z', 1),
  data: {
    ...(PLATFORM_EVENT_EXAMPLES['vacancy.upserted'].data as Record<string, unknown>),
    title: 'Бэкенд-разработчик (Go)',
    skills: ['Go', 'PostgreSQL', 'Kafka'],
    positionsCount: 1,
  },
};

/** The examples in the order the platform would publish them, after the vacancy the transfer needs. */
const STREAM_ORDER: readonly PlatformChangeType[] = [
  'vacancy.upserted',
  'board.columns-set',
  'candidate.added',
  'candidate.moved',
  'candidate.transferred',
  'candidate.resume-updated',
  'application.submitted',
  'vacancy.deleted',
  'candidate.detached',
  'candidate.deleted',
];

/**
 * The examples as one stream of a company's (`admin feed examples`), each of which applies when it comes in this
 * order: a vacancy, a second one (which the transfer goes to), the first one's board, a card on it moved,
 * transferred and updated, an application from another channel, then the first vacancy's deletion with the
 * card's detachment from it that the platform publishes with it, and the card's deletion. Stamped `at` onward,
 * a millisecond apart; ids as in the AsyncAPI document, so publishing the stream again changes nothing.
 */
export function exampleStream(companyId: string, at: Date): Record<string, unknown>[] {
  const events = [PLATFORM_EVENT_EXAMPLES['vacancy.upserted'], OTHER_VACANCY_EXAMPLE, ...STREAM_ORDER.slice(1).map((type) => PLATFORM_EVENT_EXAMPLES[type])];
  return events.map((event, i) => ({ ...event, time: new Date(at.getTime() + i).toISOString(), companyid: companyId }));
}
