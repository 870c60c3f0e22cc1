import { COMPANY_NAME_MAX_LENGTH } from '../../../domain/company/company.js';
import { SINCE_DATE_TIME_PATTERN } from '../../../domain/paging/since.js';
import { SCOPES } from '../../../domain/service-key/scope.js';
import { KEY_NAME_MAX_LENGTH, ROLL_OVERLAP_DEFAULT_MS, ROLL_OVERLAP_MAX_MS } from '../../../domain/service-key/service-key.js';
import { NON_BLANK_TEXT_PATTERN } from '../../../domain/shared/text-patterns.js';

/**
 * The request bodies of the management API: what ajv validates with and what the OpenAPI document publishes.
 * Bounds are the domain's constants. Unknown fields are stripped (ignored, never stored), as on the public API;
 * no type is coerced. Moments relative to now (in the future, at most 7 days away) are the domain's to check:
 * a schema cannot say them, so the descriptions do, and the 400 points at the field all the same.
 */
const HOURS = 3_600_000;
const DAYS = 24 * HOURS;

const nonBlank = (maxLength: number, description: string) => ({
  type: 'string',
  minLength: 1,
  maxLength,
  pattern: NON_BLANK_TEXT_PATTERN,
  description: `${description} 1 to ${maxLength} characters, at least one of them not white space.`,
});

const moment = (description: string) => ({
  type: ['string', 'null'],
  format: 'date-time',
  pattern: SINCE_DATE_TIME_PATTERN,
  description: `${description} An RFC 3339 date-time with a time zone (Z or ±hh:mm); fractions finer than a millisecond are cut.`,
});

export const createCompanyRequestSchema = {
  type: 'object',
  required: ['name'],
  description: 'Fields not listed here are ignored.',
  properties: { name: nonBlank(COMPANY_NAME_MAX_LENGTH, 'The company as the platform names it.') },
};

export const issueKeyRequestSchema = {
  type: 'object',
  required: ['name', 'scopes'],
  description: 'Fields not listed here are ignored.',
  properties: {
    name: nonBlank(KEY_NAME_MAX_LENGTH, 'What the key is for, as the company will recognise it ("Career portal").'),
    scopes: {
      type: 'array',
      minItems: 1,
      maxItems: SCOPES.length,
      uniqueItems: true,
      items: { type: 'string', enum: [...SCOPES] },
      description: 'What the key may do: vacancies:read, candidates:read (personal data), applications:write. Each at most once.',
    },
    expiresAt: moment('When the key stops working; in the future. Absent or null: it never expires.'),
  },
};

export const rollKeyRequestSchema = {
  type: 'object',
  description: 'Every field is optional; an empty object (or no body at all) rolls with the defaults. Fields not listed here are ignored.',
  properties: {
    oldKeyExpiresAt: moment(
      `When the old key stops working: in the future and at most ${ROLL_OVERLAP_MAX_MS / DAYS} days from now. Absent or null: ` +
        `${ROLL_OVERLAP_DEFAULT_MS / HOURS} hours from now. A roll never extends a key: an old key that expires sooner keeps its own expiry.`,
    ),
    expiresAt: moment(
      "The new key's expiry; in the future. Absent: as long a lifetime as the old key was issued with (its expiry before " +
        'the roll minus its creation), counted from now, or none if the old key never expired. null: it never expires.',
    ),
  },
};

export interface CreateCompanyRequestBody {
  name: string;
}

export interface IssueKeyRequestBody {
  name: string;
  scopes: string[];
  expiresAt?: string | null;
}

export interface RollKeyRequestBody {
  oldKeyExpiresAt?: string | null;
  expiresAt?: string | null;
}
