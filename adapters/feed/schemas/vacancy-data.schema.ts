import { BOARD_COLUMN_MAX_LENGTH, BOARD_MAX_COLUMNS } from '../../../domain/board/board.js';
import { SINCE_DATE_TIME_PATTERN } from '../../../domain/paging/since.js';
import * as V from '../../../domain/vacancy/vacancy-limits.js';
import { VACANCY_STATUSES } from '../../../domain/vacancy/vacancy-status.js';
import { WORK_FORMATS } from '../../../domain/vacancy/work-format.js';
import { id, name, object, optionalText, texts, type Schema } from './feed-schema-parts.js';

const short = (description?: string) => optionalText(V.VACANCY_SHORT_TEXT_MAX_LENGTH, description);
const list = (description?: string) => texts(V.VACANCY_LIST_MAX_ITEMS, V.VACANCY_LIST_ITEM_MAX_LENGTH, description);

/**
 * `vacancy.upserted`: the record of `admin vacancy upsert` without its id (the event's subject is the id): the
 * API's Vacancy fields, timestamps aside, plus the lead recruiter. The whole vacancy, as a PUT: a field left
 * out becomes null or empty.
 */
export const vacancyUpsertedDataSchema: Schema = object(
  {
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
  },
  ['title', 'status'],
  'Fields not listed are ignored. Rules across fields (salaryFrom at most salaryTo) are the service\'s; an event that breaks one is set aside.',
);

/** `board.columns-set`: the whole ordered list of columns of the vacancy's board (the subject). */
export const boardColumnsSetDataSchema: Schema = object(
  {
    columns: {
      type: 'array',
      minItems: 1,
      maxItems: BOARD_MAX_COLUMNS,
      uniqueItems: true,
      items: { ...id(BOARD_COLUMN_MAX_LENGTH), description: 'A column name: not blank, no leading or trailing white space.' },
      description: 'Renames, adds and reorders columns; a column that still holds cards cannot be left out.',
    },
  },
  ['columns'],
);
