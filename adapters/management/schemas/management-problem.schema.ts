import { problemType } from '../../http/problem.js';

/**
 * The error bodies of the management API: the public API's problem+json (DESIGN 3), with codes of its own.
 * Each status and code has a complete schema that pins them, so that a closed-world check of a body sees
 * every property it may have; a 400's items may name a header (X-Actor) as well as a query parameter.
 */
export const MANAGEMENT_PROBLEM_CODES = [
  'validation_failed',
  'invalid_cursor',
  'unauthorized',
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

export const managementProblemItemSchema = {
  type: 'object',
  required: ['pointer', 'message'],
  properties: {
    pointer: {
      type: 'string',
      description: 'JSON Pointer into the body ("" is the whole body); /<name> for a query parameter or a header, which `parameter` or `header` then names.',
    },
    parameter: { type: 'string', description: 'The query parameter, for problems of the query string.' },
    header: { type: 'string', description: 'The request header (X-Actor), for problems of a header.' },
    message: { type: 'string', description: 'What is wrong, in words a person can act on.' },
  },
};

export function managementProblemSchema(status: number, code: ManagementProblemCode, description: string) {
  const listsItems = code === 'validation_failed' || code === 'invalid_cursor';
  const items = { $ref: '#/components/schemas/ProblemItem' };
  return {
    type: 'object',
    required: ['type', 'title', 'status', 'code', 'detail', 'requestId', ...(listsItems ? ['errors'] : [])],
    description,
    properties: {
      type: { type: 'string', const: problemType(code), description: 'Names the problem; stable.' },
      title: { type: 'string', description: 'A short summary of the problem type; the same for every occurrence.' },
      status: { type: 'integer', const: status, description: 'The HTTP status, repeated.' },
      code: { type: 'string', const: code, description: 'Stable and machine-readable: act on status and code.' },
      detail: { type: 'string', description: 'This occurrence explained; the wording may change, so do not parse it.' },
      requestId: { type: 'string', description: 'The X-Request-Id of the response: quote it when you report a problem.' },
      ...(code === 'validation_failed' ? { errors: { type: 'array', minItems: 1, items, description: 'Every problem found, not just the first.' } } : {}),
      ...(code === 'invalid_cursor' ? { errors: { type: 'array', minItems: 1, maxItems: 1, items, description: 'The cursor parameter, at /cursor.' } } : {}),
    },
  };
}
