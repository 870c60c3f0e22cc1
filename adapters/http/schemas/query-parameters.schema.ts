import { VACANCY_ID_MAX_LENGTH, VACANCY_ID_MIN_LENGTH } from '../../../domain/inbound-application/application-limits.js';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PAGE_LIMIT_MIN } from '../../../domain/paging/cursor.js';
import { PAGE_MAX_BYTES_DEFAULT } from '../../../domain/paging/page-budget.js';
import { SINCE_DATE_PATTERN, SINCE_DATE_TIME_PATTERN, SINCE_NO_FILTER } from '../../../domain/paging/since.js';
import { STORABLE_TEXT_PATTERN } from '../../../domain/shared/text-patterns.js';
import { DEFAULT_VACANCY_STATUS_FILTER, VACANCY_STATUS_FILTERS } from '../../../domain/vacancy/vacancy-status.js';

/**
 * The query parameters of the list operations, as OpenAPI parameter objects. The query reader checks
 * the same constants; a query string carries text, so it is read by hand rather than by ajv, which
 * would have to coerce types.
 */
export const limitParameter = {
  name: 'limit',
  in: 'query',
  required: false,
  description:
    'Page size: a base-10 integer, the most items a page holds. It may change from page to page. Given at most once, like ' +
    'every parameter. A page may hold fewer items with more to come: it ends before the item that would take its body past ' +
    `the deployment's byte budget (${PAGE_MAX_BYTES_DEFAULT / 1_048_576} MiB by default), and an item larger than that comes alone on its page. ` +
    'Only a null nextCursor ends the list.',
  schema: { type: 'integer', minimum: PAGE_LIMIT_MIN, maximum: PAGE_LIMIT_MAX, default: PAGE_LIMIT_DEFAULT },
  example: 500,
} as const;

export const cursorParameter = {
  name: 'cursor',
  in: 'query',
  required: false,
  description:
    'nextCursor of the previous page, unchanged. Valid only with the same since, status, vacancyId and fields as the first page ' +
    '(limit may change); otherwise 400 invalid_cursor. An empty value means the first page.',
  schema: { type: 'string' },
  example: 'eyJ2IjoxLCJ0IjoxNzkzNjEyNDg3MzE4LCJpIjoiMDE5YTQ0ZjEtOGMwMC03YzNlLWE1YjEtM2Y2ZDlhMmU0YjEwIiwiZiI6IjJyaGFnMmtsYzB1YzUifQ',
} as const;

export const sinceParameter = {
  name: 'since',
  in: 'query',
  required: false,
  description:
    'Only records modified strictly later than this moment: an RFC 3339 date-time with a time zone (Z or an offset ±hh:mm, ' +
    'years 0000 to 9999, any fraction of a second, finer than a millisecond cut) or a date YYYY-MM-DD (midnight UTC). Empty ' +
    'or the literal null means no filter. A leap second (second 60, only where the time is 23:59 in UTC) is read as ' +
    '23:59:59.999 UTC. Percent-encode the "+" of an offset as %2B: a bare "+" in a query string is a space, and the value ' +
    'is then refused. For a sync, pass the X-Sync-Watermark of the first page of the previous pass.',
  schema: {
    anyOf: [
      { type: 'string', enum: [...SINCE_NO_FILTER], description: 'No filter.' },
      { type: 'string', format: 'date', pattern: SINCE_DATE_PATTERN, description: 'A date: from midnight UTC.' },
      { type: 'string', format: 'date-time', pattern: SINCE_DATE_TIME_PATTERN, description: 'A date-time with a time zone.' },
    ],
  },
  example: '2026-11-01T10:00:00.000Z',
} as const;

export const statusParameter = {
  name: 'status',
  in: 'query',
  required: false,
  description: 'Vacancy status to list; all lists every status (use it to sync).',
  schema: { type: 'string', enum: [...VACANCY_STATUS_FILTERS], default: DEFAULT_VACANCY_STATUS_FILTER },
  example: 'all',
} as const;

export const vacancyIdParameter = {
  name: 'vacancyId',
  in: 'query',
  required: false,
  description: 'Only applications to this vacancy. An id no vacancy has gives an empty page, not an error.',
  schema: { type: 'string', minLength: VACANCY_ID_MIN_LENGTH, maxLength: VACANCY_ID_MAX_LENGTH, pattern: STORABLE_TEXT_PATTERN },
  example: '019a44f1-8c00-7c3e-a5b1-3f6d9a2e4b10',
} as const;

export const fieldsParameter = {
  name: 'fields',
  in: 'query',
  required: false,
  description:
    'id: an identifier-only page, each item only the id and updatedAt of the record, in the same order, with the same since, ' +
    'filters, limit and scopes; about a twentieth of the bytes of whole records. A cursor remembers it: keep it on every page ' +
    'of a pass. Left out: whole records. Made to find deletions cheaply: ids a full identifier pass does not list are gone.',
  schema: { type: 'string', enum: ['id'] },
  example: 'id',
} as const;

/** The query parameters of each operation, in the order the document lists them; anything else is a 400. */
export const VACANCY_LIST_PARAMETERS = [sinceParameter, limitParameter, cursorParameter, statusParameter, fieldsParameter] as const;
export const CANDIDATE_LIST_PARAMETERS = [sinceParameter, limitParameter, cursorParameter, vacancyIdParameter, fieldsParameter] as const;

export const namesOf = (parameters: readonly { readonly name: string }[]): readonly string[] => parameters.map((p) => p.name);
