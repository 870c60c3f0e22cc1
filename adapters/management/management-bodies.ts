import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parseSince } from '../../domain/paging/since.js';
import { validationProblem } from '../http/problem.js';
import { problemsOfSchemaErrors } from '../json/schema-problems.js';
import {
  createCompanyRequestSchema,
  issueKeyRequestSchema,
  rollKeyRequestSchema,
  type CreateCompanyRequestBody,
  type IssueKeyRequestBody,
  type RollKeyRequestBody,
} from './schemas/management-request.schema.js';

// ajv-formats is CommonJS; under NodeNext its function is the default export's `default`.
const addFormats = addFormatsModule.default;

const ajv = new Ajv({ allErrors: true, removeAdditional: 'all', coerceTypes: false, allowUnionTypes: true, strict: true, verbose: true });
addFormats(ajv, ['date-time']);

const validateCreateCompany = ajv.compile<CreateCompanyRequestBody>(createCompanyRequestSchema);
const validateIssueKey = ajv.compile<IssueKeyRequestBody>(issueKeyRequestSchema);
const validateRollKey = ajv.compile<RollKeyRequestBody>(rollKeyRequestSchema);

/** The body of POST /companies; a refused one is a 400 listing every problem. */
export function readCreateCompany(body: unknown): { name: string } {
  const valid = checked(validateCreateCompany, body);
  return { name: valid.name };
}

/** The body of POST /companies/{companyId}/keys. */
export function readIssueKey(body: unknown): { name: string; scopes: string[]; expiresAt: Date | null } {
  const valid = checked(validateIssueKey, body);
  return { name: valid.name, scopes: valid.scopes, expiresAt: momentOf(valid.expiresAt) };
}

/**
 * The body of POST /companies/{companyId}/keys/{keyId}/roll (none at all counts as `{}`). An absent expiresAt
 * (undefined: the old key's lifetime) differs from an explicit null (never expires), so both reach the use case.
 */
export function readRollKey(body: unknown): { oldKeyExpiresAt: Date | null; expiresAt: Date | null | undefined } {
  const valid = checked(validateRollKey, body);
  return { oldKeyExpiresAt: momentOf(valid.oldKeyExpiresAt), expiresAt: valid.expiresAt === undefined ? undefined : momentOf(valid.expiresAt) };
}

function checked<T>(validate: ValidateFunction<T>, body: unknown): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationProblem('The request body failed validation.', [{ pointer: '', message: 'must be a JSON object' }]);
  }
  if (!validate(body)) throw validationProblem('The request body failed validation.', problemsOfSchemaErrors(validate.errors ?? []));
  return body;
}

/** A moment the schema has admitted (its pattern and format are what parseSince reads); null or absent is none. */
function momentOf(text: string | null | undefined): Date | null {
  return text === undefined || text === null ? null : (parseSince(text) ?? null);
}
