/** Prefix of every externalId the bench sends, so that its cards can be deleted after the run. */
export const BENCH_EXTERNAL_ID_PREFIX = 'bench-';

/**
 * A full application as a career portal sends it: Cyrillic text, a resume with work history and education,
 * a referral; about 1.6 KB of JSON.
 */
export function applicationBody(externalId: string, vacancyId: string): string {
  return JSON.stringify({
    externalId,
    vacancyId,
    source: 'career-portal',
    candidate: { name: 'Алишер Каримов', email: `${externalId}@example.uz`, phone: '+998 90 000 00 00', location: 'Ташкент', birthDate: '1994-03-08' },
    coverLetter: 'Здравствуйте! Меня заинтересовала ваша вакансия. Готов приступить сразу, резюме прилагаю.',
    resume: {
      role: 'Бэкенд-разработчик',
      summary: 'Пишу сервисы на Node.js и PostgreSQL, веду код-ревью.',
      experienceYears: 5,
      skills: ['Node.js', 'TypeScript', 'PostgreSQL', 'Redis'],
      experience: [
        { company: 'ООО «Чорсу Маркет»', role: 'Backend developer', period: '2022-03 — now', description: 'Разработка API на Node.js, работа с PostgreSQL & Redis' },
        { company: 'АО «Навруз Финанс»', role: 'Junior developer', period: '2020-01 — 2022-02', description: 'Платёжный шлюз, интеграции с банками' },
      ],
      education: [{ institution: 'ТУИТ им. Мухаммада аль-Хорезми', degree: 'Бакалавр', period: '2012 — 2016' }],
      languages: [{ name: 'Узбекский', level: 'Родной' }, { name: 'Русский', level: 'C1 — Продвинутый' }],
      expectedSalary: 15_000_000,
      expectedSalaryCurrency: 'UZS',
      preferredWorkFormat: ['Удаленная работа'],
    },
    referral: { name: 'Дилноза Юсупова', email: 'dilnoza@example.uz', phone: '+998 90 111 11 11', company: 'ООО «Чорсу Маркет»', relationship: 'бывшая коллега' },
  });
}

/** New externalIds, unique across runs on a reused database. */
export function newApplications(vacancyId: string): () => string {
  const run = Date.now().toString(36);
  let n = 0;
  return () => applicationBody(`${BENCH_EXTERNAL_ID_PREFIX}${run}-${n++}`, vacancyId);
}
