import { randomUUID } from 'node:crypto';
import type { ApplicationRequest, ProblemItem } from '../../../clients/typescript/src/index.js';

/** The form's fields, in page order, with the API field each one fills and its limit (spec, part 8). */
export const FORM_FIELDS = {
  name: { pointer: '/candidate/name', maxLength: 300, required: true },
  email: { pointer: '/candidate/email', maxLength: 320, email: true },
  phone: { pointer: '/candidate/phone', maxLength: 60 },
  coverLetter: { pointer: '/coverLetter', maxLength: 20_000 },
  referralName: { pointer: '/referral/name', maxLength: 300 },
  referralEmail: { pointer: '/referral/email', maxLength: 320, email: true },
  referralPhone: { pointer: '/referral/phone', maxLength: 60 },
  referralRelationship: { pointer: '/referral/relationship', maxLength: 200 },
} as const satisfies Record<string, { pointer: string; maxLength: number; required?: boolean; email?: boolean }>;

export type FieldName = keyof typeof FORM_FIELDS;
export type FormValues = Readonly<Record<FieldName, string>>;
export type FieldErrors = Partial<Record<FieldName, string>>;

const FIELD_NAMES = Object.keys(FORM_FIELDS) as FieldName[];
const REFERRAL_FIELDS: readonly FieldName[] = ['referralName', 'referralEmail', 'referralPhone', 'referralRelationship'];
const EXTERNAL_ID = /^portal-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What one rendering of the form carries: the visitor's values and the id of this application. */
export interface ApplicationForm {
  /**
   * Our id of the application, made when the form is rendered and sent back in a hidden field: a double
   * click, a browser retry or a resend after a 503 repeats the same externalId, and the API creates one card.
   */
  readonly externalId: string;
  readonly values: FormValues;
}

export function emptyForm(): ApplicationForm {
  return { externalId: newExternalId(), values: Object.fromEntries(FIELD_NAMES.map((name) => [name, ''])) as Record<FieldName, string> };
}

export function newExternalId(): string {
  return `portal-${randomUUID()}`;
}

/** The posted form, trimmed; an externalId that is not one of ours is replaced by a fresh one. */
export function parseForm(body: URLSearchParams): ApplicationForm {
  const values = Object.fromEntries(FIELD_NAMES.map((name) => [name, normalise(body.get(name) ?? '')])) as Record<FieldName, string>;
  const externalId = body.get('externalId') ?? '';
  return { externalId: EXTERNAL_ID.test(externalId) ? externalId : newExternalId(), values };
}

function normalise(value: string): string {
  // Browsers send a textarea's line breaks as CRLF; the recruiter sees them as plain line breaks.
  return value.replace(/\r\n?/g, '\n').trim();
}

/** The API request: empty optional fields are left out, and a referral is sent only when one was typed. */
export function applicationRequestOf(form: ApplicationForm, vacancyId: string, source: string): ApplicationRequest {
  const v = form.values;
  const optional = (value: string) => (value === '' ? undefined : value);
  const hasReferral = REFERRAL_FIELDS.some((name) => v[name] !== '');
  return {
    externalId: form.externalId,
    vacancyId,
    source,
    candidate: { name: v.name, email: optional(v.email), phone: optional(v.phone) },
    coverLetter: optional(v.coverLetter),
    referral: hasReferral
      ? { name: v.referralName, email: optional(v.referralEmail), phone: optional(v.referralPhone), relationship: optional(v.referralRelationship) }
      : undefined,
  };
}

/**
 * The API's validation problems as messages next to the form's fields. The messages are the portal's own,
 * chosen from what it knows of the value (empty, too long, not an address): the API's wording is English
 * and may change. Problems of no field (the whole body, the ids) are returned under `form`.
 */
export function fieldErrorsOf(problems: readonly ProblemItem[], values: FormValues): { fields: FieldErrors; form: boolean } {
  const fields: FieldErrors = {};
  let form = false;
  for (const problem of problems) {
    const name = fieldOf(problem.pointer);
    if (name === null) form = true;
    else fields[name] ??= messageFor(name, values[name]);
  }
  return { fields, form };
}

function fieldOf(pointer: string): FieldName | null {
  const exact = FIELD_NAMES.find((name) => FORM_FIELDS[name].pointer === pointer || pointer.startsWith(`${FORM_FIELDS[name].pointer}/`));
  if (exact !== undefined) return exact;
  if (pointer === '/candidate') return 'name';
  if (pointer === '/referral') return 'referralName';
  return null;
}

function messageFor(name: FieldName, value: string): string {
  const field: { maxLength: number; required?: boolean; email?: boolean } = FORM_FIELDS[name];
  const length = [...value].length;
  if (value === '' && name === 'name') return 'Укажите, пожалуйста, ваше имя.';
  if (value === '' && name === 'referralName') return 'Укажите имя того, кто вас рекомендует, или оставьте поля рекомендации пустыми.';
  if (length > field.maxLength) return `Слишком длинно: не больше ${field.maxLength.toLocaleString('ru-RU')} символов, сейчас ${length.toLocaleString('ru-RU')}.`;
  if (field.email === true) return 'Проверьте адрес почты: он должен выглядеть так: name@example.kz.';
  return 'Поле содержит символы, которые мы не можем принять. Проверьте его, пожалуйста.';
}
