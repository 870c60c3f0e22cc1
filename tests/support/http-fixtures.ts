import { ADMIN_CLI_ACTOR } from '../../application/use-cases/actor.js';
import type { Scope } from '../../domain/service-key/scope.js';
import type { VacancyInput } from '../../domain/vacancy/vacancy.js';
import { ApiClient } from './api-client.js';
import { aPerson, aResume, aVacancyInput } from './builders.js';
import type { TestServer } from './http-test-server.js';

export const ALL_SCOPES: readonly Scope[] = ['vacancies:read', 'candidates:read', 'applications:write'];

let counter = 0;
/** A unique id in the API's vacancy id alphabet. */
export function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** A company with one key, and a client that sends that key. */
export async function aTenant(server: TestServer, options: { scopes?: readonly Scope[]; name?: string; expiresAt?: Date | null } = {}) {
  const company = await server.seed.createCompany.execute({ name: options.name ?? 'ТОО «Тест»' });
  const issued = await server.seed.issueKey.execute({
    companyId: company.id,
    scopes: options.scopes ?? ALL_SCOPES,
    name: 'test key',
    expiresAt: options.expiresAt ?? null,
    actor: ADMIN_CLI_ACTOR,
  });
  const api = new ApiClient(server.baseUrl, issued.key);
  return {
    companyId: company.id,
    key: issued.key,
    keyId: issued.id,
    api,
    /** Another key of the same company. */
    issueKey: async (scopes: readonly Scope[], expiresAt: Date | null = null) =>
      server.seed.issueKey.execute({ companyId: company.id, scopes, name: 'another key', expiresAt, actor: ADMIN_CLI_ACTOR }),
    addVacancy: async (input: Partial<VacancyInput> & { id?: string } = {}) => {
      const [vacancy] = await server.seed.upsertVacancies.execute({ companyId: company.id, vacancies: [{ ...aVacancyInput(), ...input }] });
      return vacancy!;
    },
    addManualCandidate: async (vacancyId: string, name = 'Ержан Сапаров') => {
      const [card] = await server.seed.addCandidates.execute({
        companyId: company.id,
        candidates: [{ vacancyId, candidate: aPerson({ name }), resume: aResume(), referral: null }],
      });
      return card!;
    },
  };
}

export type Tenant = Awaited<ReturnType<typeof aTenant>>;

/** A valid application body with every field spec 4.3 allows, in Cyrillic where a person would write it. */
export function aFullApplicationBody(vacancyId: string, overrides: Record<string, unknown> = {}) {
  return {
    externalId: uniqueId('ext'),
    vacancyId,
    source: 'career-portal',
    candidate: { name: 'Алишер Каримов', email: 'alisher@example.uz', phone: '+998 90 000 00 00', location: 'Ташкент', birthDate: '1994-03-08' },
    coverLetter: 'Здравствуйте! Хочу у вас работать.',
    resume: {
      role: 'Бэкенд-разработчик',
      summary: 'Пишу сервисы на Node.js',
      experienceYears: 5,
      skills: ['Node.js', 'PostgreSQL'],
      experience: [{ company: 'Uzcard', role: 'Developer', period: '2021 — now', description: 'Платёжный шлюз' }],
      education: [{ institution: 'ТУИТ', degree: 'Бакалавр', period: '2012–2016' }],
      expectedSalary: 15_000_000,
      expectedSalaryCurrency: 'UZS',
    },
    referral: { name: 'Дилноза Юсупова', email: 'dilnoza@example.uz', phone: '+998 90 111 11 11', company: 'Uzcard', relationship: 'бывшая коллега' },
    ...overrides,
  };
}

/** The smallest valid application body: only what spec 4.3 requires. */
export function aMinimalApplicationBody(vacancyId: string, overrides: Record<string, unknown> = {}) {
  return { externalId: uniqueId('ext'), vacancyId, candidate: { name: 'Алишер Каримов' }, ...overrides };
}
