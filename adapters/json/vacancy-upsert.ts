import { parseSince, SINCE_DATE_TIME_PATTERN } from '../../domain/paging/since.js';
import type { VacancyContent, VacancyInput } from '../../domain/vacancy/vacancy.js';
import * as V from '../../domain/vacancy/vacancy-limits.js';
import { VACANCY_STATUSES } from '../../domain/vacancy/vacancy-status.js';
import { WORK_FORMATS } from '../../domain/vacancy/work-format.js';
import { name, object, optionalText, texts, type Schema } from './schema-parts.js';

/**
 * The one vacancy upsert body: the record of `admin vacancy upsert` (with an optional id) and the data of the
 * feed's `vacancy.upserted` (whose subject is the id). The API's Vacancy fields, timestamps aside, plus the lead
 * recruiter; the whole vacancy, as a PUT: a field left out becomes null or empty. Its properties are the
 * domain's fields, checked by the compiler both ways; the readers below and the CLI's go by them, so a new
 * field of Vacancy is added here once (AsyncAPI publishes it).
 */
const short = (description?: string) => optionalText(V.VACANCY_SHORT_TEXT_MAX_LENGTH, description);
const list = (description?: string) => texts(V.VACANCY_LIST_MAX_ITEMS, V.VACANCY_LIST_ITEM_MAX_LENGTH, description);

/** The fields of the body: what a vacancy says, but where it was imported from (the job board's own). */
export type VacancyUpsertField = Exclude<keyof VacancyContent, 'sourceRef'>;

export const VACANCY_UPSERT_PROPERTIES = {
  title: name(V.VACANCY_TITLE_MAX_LENGTH),
  status: { type: 'string', enum: [...VACANCY_STATUSES] },
  city: short('A region name; may be a province rather than a city.'),
  officeAddress: short(),
  experience: short('Free text.'),
  workFormat: {
    type: ['string', 'null'],
    enum: [...WORK_FORMATS, null],
    description: 'Absent: derived from workFormats (remote plus on-site is hybrid). Given, even as null: taken as it is.',
  },
  workFormats: list('The names of the work formats, not normalised (English or Russian words).'),
  salaryFrom: { type: ['number', 'null'], minimum: 0, description: 'At most salaryTo. Null with salaryTo given: salaryTo.' },
  salaryTo: { type: ['number', 'null'], minimum: 0 },
  salaryCurrency: optionalText(V.CURRENCY_MAX_LENGTH),
  salaryGross: { type: ['boolean', 'null'] },
  employmentForm: short(),
  workSchedule: list(),
  skills: list(),
  languages: list(),
  professionalRoles: list(),
  description: optionalText(V.VACANCY_DESCRIPTION_MAX_LENGTH, 'HTML, kept as sent.'),
  responsibilities: optionalText(
    V.VACANCY_DESCRIPTION_MAX_LENGTH,
    "The description without markup. Absent: the description's text. Given, even as null: taken as it is.",
  ),
  positionsCount: { type: ['integer', 'null'], minimum: 1, maximum: V.POSITIONS_COUNT_MAX },
  sourceUrl: optionalText(V.VACANCY_URL_MAX_LENGTH),
  publishedAt: {
    type: ['string', 'null'],
    format: 'date-time',
    pattern: SINCE_DATE_TIME_PATTERN,
    description: 'An RFC 3339 date-time with a time zone.',
  },
  recruiter: optionalText(V.RECRUITER_MAX_LENGTH, 'The lead recruiter, who owns the board.'),
} satisfies Record<VacancyUpsertField, Schema>;

/** The fields that, absent, the domain derives (workFormat from workFormats, responsibilities from the description). */
export const DERIVED_WHEN_ABSENT: ReadonlySet<string> = new Set<VacancyUpsertField>(['workFormat', 'responsibilities']);

export const vacancyUpsertSchema: Schema = object(
  VACANCY_UPSERT_PROPERTIES,
  ['title', 'status'],
  'Fields not listed are ignored. Rules across fields (salaryFrom at most salaryTo) are the service\'s; an event that breaks one is set aside.',
);

/** How a field of the body is read, from its schema: a list, a date-time, or a single value (an enum's among them). */
export type FieldKind = 'list' | 'date-time' | 'string' | 'number' | 'integer' | 'boolean';

export function kindOf(schema: Schema): FieldKind {
  const types = [schema.type].flat();
  if (types.includes('array')) return 'list';
  if (schema.format === 'date-time') return 'date-time';
  for (const kind of ['integer', 'number', 'boolean'] as const) if (types.includes(kind)) return kind;
  return 'string';
}

/**
 * The domain's input from a body that passed the schema (so each value has its type): a list not given is
 * empty, a date-time is a Date, anything else not given is null; a field the domain derives stays absent when
 * it is. Made on the platform, not imported: no sourceRef.
 */
export function vacancyInputOf(body: Readonly<Record<string, unknown>>): VacancyInput {
  const fields = Object.entries(VACANCY_UPSERT_PROPERTIES as Record<string, Schema>).flatMap(([key, schema]) => {
    const given = body[key];
    if (given === undefined && DERIVED_WHEN_ABSENT.has(key)) return [];
    const kind = kindOf(schema);
    if (kind === 'list') return [[key, Array.isArray(given) ? given : []]];
    if (kind === 'date-time') return [[key, typeof given === 'string' ? (parseSince(given) ?? null) : null]];
    return [[key, given ?? null]];
  });
  return { ...(Object.fromEntries(fields) as Pick<VacancyInput, 'title' | 'status'>), sourceRef: null };
}
