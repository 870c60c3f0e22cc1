import type { Person, Referral } from '../../domain/candidate/person.js';
import { resumeOf, type Resume } from '../../domain/candidate/resume.js';
import { EXPECTED_SALARY_MAX, EXPERIENCE_YEARS_MAX } from '../../domain/inbound-application/application-limits.js';
import type { VacancyUpsert } from '../../application/use-cases/upsert-vacancies.use-case.js';
import { VACANCY_STATUSES, type VacancyStatus } from '../../domain/vacancy/vacancy-status.js';

/**
 * Records whose every field goes through a store and back onto the wire: each field set and each null, empty
 * strings and lists, text that JSON escapes (quotes, backslashes, control characters, U+2028) or leaves as it is
 * (Cyrillic, Uzbek Latin with its ‘ and ʻ, emoji beyond the BMP), numbers at the bounds a store keeps them to,
 * and instants at the ends of the years 0001..9999 and on both sides of the epoch.
 */
export const ESCAPED_TEXT = 'tab\there "quoted" back\\slash\nnew line\r\u0001\u001f\u007f \u2028\u2029 </script> \uFEFF';
export const UZBEK = 'Oʻzbekiston, Toshkent sh., Amir Temur ko‘chasi 1 — «Bino»';
export const EMOJI = '👩‍💻 🇺🇿 𝒳 😀';

/** Numbers a vacancy may hold (finite and at least 0), each kept by PostgreSQL's double precision. */
const SALARIES: Record<VacancyStatus, [number | null, number | null]> = {
  open: [0, Number.MAX_VALUE],
  paused: [0.1, 123_456.789],
  closed: [null, 1e21],
  archived: [Number.MIN_VALUE, 2 ** 53],
  draft: [-0, 0],
};

const PUBLISHED: Record<VacancyStatus, Date> = {
  open: new Date('0001-01-01T00:00:00.000Z'),
  paused: new Date('9999-12-31T23:59:59.999Z'),
  closed: new Date('1970-01-01T00:00:00.000Z'),
  archived: new Date('1969-12-31T23:59:59.999Z'),
  draft: new Date('2028-02-29T12:34:56.789Z'),
};

/** A vacancy of `status` with every field set; its numbers and instants differ with the status. */
export function fullVacancy(status: VacancyStatus, id = `full-${status}`): VacancyUpsert {
  const [salaryFrom, salaryTo] = SALARIES[status];
  return {
    id,
    title: `Старший разработчик / Katta dasturchi ${EMOJI} (${status})`,
    status,
    city: 'Тошкент',
    officeAddress: UZBEK,
    experience: 'От 3 до 6 лет',
    workFormats: status === 'closed' ? ['Вахта'] : ['Удалённо', 'В офисе'],
    // Given, even as null, it is kept as given; absent, it is derived from workFormats.
    ...(status === 'closed' ? { workFormat: 'other' as const } : status === 'archived' ? { workFormat: null } : {}),
    salaryFrom,
    salaryTo,
    salaryCurrency: status === 'paused' ? 'UZS' : 'KZT',
    salaryGross: status !== 'paused',
    employmentForm: 'Полная занятость',
    workSchedule: ['5/2', 'Гибкий график'],
    skills: ['TypeScript', 'PostgreSQL', '🦀 Rust', ESCAPED_TEXT],
    languages: ['Oʻzbek tili — ona tili', 'Русский — C2'],
    professionalRoles: ['Программист, разработчик'],
    description: `<p>Мы ищем <b>разработчика</b> ${EMOJI} &amp; «друга» &#x1F680;</p><ul><li>API</li><li>${UZBEK}</li></ul>`,
    ...(status === 'paused' ? { responsibilities: ESCAPED_TEXT } : status === 'draft' ? { responsibilities: null } : {}),
    positionsCount: status === 'open' ? 2_147_483_647 : 1,
    sourceUrl: 'https://hh.uz/vacancy/123?from=api&q=%D0%B0#✓',
    publishedAt: PUBLISHED[status],
    recruiter: 'Дилноза Юсупова',
    sourceRef: null,
  };
}

/** A vacancy of `status` with every field that may be null null and every list empty. */
export function bareVacancy(status: VacancyStatus, id = `bare-${status}`, title = `B ${status}`): VacancyUpsert {
  return {
    id,
    title,
    status,
    city: null,
    officeAddress: null,
    experience: null,
    workFormats: [],
    salaryFrom: null,
    salaryTo: null,
    salaryCurrency: null,
    salaryGross: null,
    employmentForm: null,
    workSchedule: [],
    skills: [],
    languages: [],
    professionalRoles: [],
    description: null,
    positionsCount: null,
    sourceUrl: null,
    publishedAt: null,
    recruiter: null,
    sourceRef: null,
  };
}

/** Every string field empty and every list holding one empty string. */
export function emptyStringsVacancy(id: string): VacancyUpsert {
  return {
    ...bareVacancy('open', id, ESCAPED_TEXT),
    city: '', officeAddress: '', experience: '', workFormats: [''], salaryCurrency: '', employmentForm: '',
    workSchedule: [''], skills: [''], languages: [''], professionalRoles: [''], description: '', sourceUrl: '', recruiter: '',
  };
}

/** One vacancy of every status, full and bare. */
export function vacanciesOfEveryStatus(): VacancyUpsert[] {
  return VACANCY_STATUSES.flatMap((status) => [fullVacancy(status), bareVacancy(status)]);
}

export function fullPerson(overrides: Partial<Person> = {}): Person {
  return {
    name: `Ойбек Каримов ${EMOJI}`,
    email: 'oybek.karimov@example.uz',
    phone: '+998 90 123-45-67',
    location: UZBEK,
    birthDate: '2000-02-29',
    gender: 'erkak',
    citizenship: ['Oʻzbekiston', 'Қазақстан'],
    ...overrides,
  };
}

export function barePerson(name = 'Ә'): Person {
  return { name, email: null, phone: null, location: null, birthDate: null, gender: null, citizenship: [] };
}

export function fullReferral(): Referral {
  return { name: 'Гульнара Ахмедова', email: 'gulnara@example.kz', phone: '+7 701 000 00 00', company: UZBEK, relationship: ESCAPED_TEXT };
}

export function bareReferral(): Referral {
  return { name: 'R', email: null, phone: null, company: null, relationship: null };
}

/** Every part of a resume filled, numbers at their bounds, items whose texts the source left out (""). */
export function fullResume(overrides: Partial<Resume> = {}): Resume {
  return resumeOf({
    role: 'Backend dasturchi',
    summary: `Пишу сервисы на Node.js. ${ESCAPED_TEXT} ${EMOJI}`,
    experienceYears: EXPERIENCE_YEARS_MAX,
    skills: ['Node.js', 'SQL', '🐘'],
    skillsDescription: UZBEK,
    experience: [
      { company: 'ТОО «Каспиан»', role: 'Developer', period: '2022-02 — now', description: ESCAPED_TEXT },
      { company: '', role: '', period: '', description: '' },
    ],
    education: [{ institution: 'TATU', degree: 'Bakalavr', period: '2016–2020' }, { institution: '', degree: '', period: '' }],
    additionalEducation: [{ institution: 'Coursera', course: 'Databases', result: '✓', period: '2021' }, { institution: '', course: '', result: '', period: '' }],
    languages: [{ name: 'Oʻzbek', level: 'ona tili' }, { name: '', level: '' }],
    certificates: [{ title: 'AWS', date: '2023-05', url: 'https://example.com/c?id=1&x=ы' }, { title: '', date: '', url: '' }],
    portfolio: [{ url: 'https://github.com/example', description: EMOJI }, { url: '', description: '' }],
    expectedSalary: EXPECTED_SALARY_MAX,
    expectedSalaryCurrency: 'UZS',
    preferredWorkFormat: ['Masofaviy', ''],
    preferredEmployment: 'Полная',
    relocation: 'Не готов',
    sourceUrl: 'https://hh.uz/resume/abc',
    ...overrides,
  });
}

/** A resume with nothing in it but the lowest numbers. */
export function lowResume(): Resume {
  return resumeOf({ experienceYears: 0, expectedSalary: 0 });
}
