import { problemSchemas } from '../../http/schemas/problem.schema.js';

/**
 * The error bodies of the management API: the public API's problem+json (DESIGN 3), with codes of its own.
 * Each status and code has a complete schema that pins them, so that a closed-world check of a body sees
 * every property it may have; a 400's items may name a header (X-Actor) as well as a query parameter.
 */
export const MANAGEMENT_PROBLEM_CODES = [
  'validation_failed',
  'invalid_cursor',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'key_not_active',
  'key_already_rolled',
  'key_changed',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
  'service_unavailable',
  // Refused by Node's HTTP parser before routing (adapters/http/client-errors.ts).
  'malformed_request',
  'headers_too_large',
  'request_timeout',
] as const;

export type ManagementProblemCode = (typeof MANAGEMENT_PROBLEM_CODES)[number];

const managementProblems = problemSchemas(MANAGEMENT_PROBLEM_CODES, {
  pointerDescription: 'JSON Pointer into the body ("" is the whole body); /<name> for a query parameter or a header, which `parameter` or `header` then names.',
  extraItemProperties: { header: { type: 'string', description: 'The request header (X-Actor), for problems of a header.' } },
});

export const managementProblemItemSchema = managementProblems.itemSchema;
export const managementProblemSchema = managementProblems.schema;
